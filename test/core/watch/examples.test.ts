/**
 * `examples/bot.ts --follow` over real HTTP, against the mock served with its activity on (what
 * the bin's `--activity` does): the bot briefs, then reacts to what enters the lists it follows.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

it('the bot follows a live mock over HTTP with --follow=<seconds>, reacting to new logs, join requests and LOAs', async () => {
  const mock = createMockApi({ seed: 2, activity: { intervalMs: 10 } });
  const server = await startMockHttpServer({ mock });
  try {
    const env = { ...process.env, COMMUNITY_SERVER_BASE_URL: server.url, COMMUNITY_SERVER_TOKEN: mock.tokens.main };
    const { stdout } = await promisify(execFile)(
      `${root}/node_modules/.bin/tsx`,
      ['--tsconfig', 'tsconfig.test.json', 'examples/bot.ts', '--follow=3'],
      { cwd: root, env },
    );
    expect(stdout).toContain('Following moderation logs, join requests and LOAs for 3 s:');
    const reactions = stdout
      .slice(stdout.indexOf('Following'))
      .split('\n')
      .filter((line) => /^\[(log|join|loa)\] /.test(line));
    expect(reactions.length).toBeGreaterThan(0);
    // No row is reacted to twice.
    expect(new Set(reactions).size).toBe(reactions.length);
  } finally {
    mock.activity.stop();
    await server.close();
  }
}, 60_000);
