/**
 * The bin's flags of the control API and the mock's failure modes (issue 17), on the built bin
 * (`dist/cli.js`, `npm run build` first), driven from this process as a separate one would:
 * `--admin-token` and `connectMock`, `--rate-limit`, `--auth-failures`, `--auth-error-shape`, a
 * bad value of each (exit 2), and the warning off loopback.
 */
import { CommunityServerClient, RateLimitError, ServiceUnavailableError } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { connectMock } from 'community-server-sdk/mock/remote';
import { describe, expect, it } from 'vitest';
import { startBin } from './bin';

const ADMIN = 'ci-admin-token-0123456789';

/** Starts the bin with `args`, waits until it serves, and reads what it printed. */
async function served(args: string[]) {
  const bin = startBin(['--port', '0', ...args]);
  const output = await bin.ready;
  const token = (name: string) => new RegExp(`^\\s+${name}\\s+(\\S+)$`, 'm').exec(output)?.[1];
  const stop = async () => {
    bin.child.kill('SIGTERM');
    return bin.exit;
  };
  return { output, url: /listening on (http:\/\/\S+)/.exec(output)![1]!, main: token('main')!, admin: token('admin'), stop };
}

describe('the control API from another process', () => {
  it('--admin-token is printed as admin beside the five tokens, and connectMock drives the bin with it', async () => {
    const bin = await served(['--seed', '3', '--admin-token', ADMIN]);
    try {
      expect(bin.output).toContain(`  admin     ${ADMIN}`);
      for (const name of Object.keys(createMockApi().tokens)) expect(bin.output).toMatch(new RegExp(`^  ${name}\\s+\\S+$`, 'm'));
      const remote = connectMock(bin.url, ADMIN);
      const client = new CommunityServerClient({ token: bin.main, baseUrl: bin.url, maxRetries: 0 });

      const member = await remote.store('main.members').create({ username: 'from-another-process' });
      expect((await client.members.get(member.id)).username).toBe('from-another-process');
      await remote.faults.add({ endpoint: 'roles.list', status: 503, times: 1 });
      await expect(client.roles.list()).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect((await remote.requests({ endpoint: 'roles.list' })).map((row) => row.status)).toEqual([503]);
      const before = Date.now();
      expect(await remote.clock.advance(3_600_000)).toBeGreaterThanOrEqual(before + 3_600_000);
      expect((await remote.activity.step(2)).length).toBe(2);

      await remote.reset();
      expect(await remote.requests()).toEqual([]);
      await expect(client.members.get(member.id)).rejects.toMatchObject({ status: 404 });
      expect((await client.roles.list()).total).toBeGreaterThan(0);
    } finally {
      expect((await bin.stop()).code).toBe(0);
    }
  });

  it('without --admin-token a fresh one is printed, and only it opens /__mock', async () => {
    const bin = await served([]);
    try {
      expect(bin.admin).toMatch(/^\S{32,}$/);
      expect((await fetch(`${bin.url}/__mock/requests`, { headers: { authorization: `Bearer ${bin.admin}` } })).status).toBe(200);
      expect((await fetch(`${bin.url}/__mock/requests`, { headers: { authorization: `Bearer ${bin.main}` } })).status).toBe(401);
      expect((await fetch(`${bin.url}/api/v1/server/info`, { headers: { authorization: `Bearer ${bin.admin}` } })).status).toBe(401);
    } finally {
      await bin.stop();
    }
  });
});

describe('flags of the failure modes', () => {
  it('--rate-limit 2/1m: the third request of a token in the minute is a 429', async () => {
    const bin = await served(['--rate-limit', '2/1m']);
    try {
      expect(bin.output).toContain('rate limit: 2 requests per 60000 ms per token');
      const client = new CommunityServerClient({ token: bin.main, baseUrl: bin.url, maxRetries: 0, rateLimit: 'off' });
      await client.roles.list();
      await client.roles.list();
      await expect(client.roles.list()).rejects.toBeInstanceOf(RateLimitError);
    } finally {
      await bin.stop();
    }
  });

  it('--auth-failures 2 suspends a token after two failures; --auth-error-shape object shapes the 401', async () => {
    const bin = await served(['--auth-failures', '2', '--auth-error-shape', 'object']);
    try {
      const attempt = async () => {
        const response = await fetch(`${bin.url}/api/v1/server/info`, { headers: { authorization: 'Bearer wrong-token-123' } });
        return (await response.json()) as { error: { code: string } };
      };
      expect((await attempt()).error.code).toBe('invalid_token'); // the object shape: a code
      await attempt();
      expect((await attempt()).error.code).toBe('token_suspended');
    } finally {
      await bin.stop();
    }
  });

  it.each([
    [['--rate-limit', '20'], '--rate-limit must be N/window'],
    [['--rate-limit', '0/1s'], '--rate-limit must be N/window'],
    [['--rate-limit', '5/1h'], 'got "5/1h"'],
    [['--auth-failures', '0'], '--auth-failures must be an integer from 1'],
    [['--auth-failures', 'many'], '--auth-failures must be an integer'],
    [['--auth-error-shape', 'xml'], '--auth-error-shape must be "string" or "object", got "xml"'],
    [['--admin-token', 'short'], 'the admin token must be at least 16 characters long'],
    [['--max-sessions', '1.5'], '--max-sessions must be an integer from 0 to 10000, got "1.5"'],
    [['--max-sessions', '10001'], 'got "10001"'],
    [['--max-session-rows', 'lots'], '--max-session-rows must be an integer from 0 to 9007199254740991, got "lots"'],
  ])('%j exits 2 saying why', async (args, message) => {
    const { code, stderr } = await startBin(['--port', '0', ...args]).exit;
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage: community-server-mock');
  });

  it('--help lists the new flags', async () => {
    const { code, stdout } = await startBin(['--help']).exit;
    expect(code).toBe(0);
    for (const flag of [
      '--rate-limit',
      '--auth-failures',
      '--auth-error-shape',
      '--admin-token',
      '--tokens seeded|random',
      '--max-sessions N',
      '--max-session-rows N',
    ]) {
      expect(stdout).toContain(flag);
    }
    expect(stdout).toMatch(/--world FILE: .*\n.*fresh random API tokens/);
    expect(stdout).toMatch(/--max-sessions N: how many sessions .*\n.* \(default 64; 0: none\)/);
  });
});

describe('--host', () => {
  it('off loopback, warns that the tokens are reachable from the network; on loopback, says nothing', async () => {
    const open = startBin(['--port', '0', '--host', '0.0.0.0']);
    await open.ready;
    open.child.kill('SIGTERM');
    expect((await open.exit).stderr).toMatch(/warning: listening on 0\.0\.0\.0, not loopback: the tokens .* reachable from the network/);
    for (const host of ['127.0.0.1', 'localhost']) {
      const quiet = startBin(['--port', '0', '--host', host]);
      await quiet.ready;
      quiet.child.kill('SIGTERM');
      expect((await quiet.exit).stderr, host).toBe('');
    }
  });
});
