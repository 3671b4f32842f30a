/**
 * `community-server-mock snapshot --out`: where it cannot write, it says so before reading the
 * server; stopped mid-read, it leaves no file, whole or partial.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';
import { describe, expect, it } from 'vitest';
import { startBin } from './bin';

describe('snapshot --out where it cannot write', () => {
  const { COMMUNITY_SERVER_TOKEN: _token, COMMUNITY_SERVER_BASE_URL: _url, ...cleanEnv } = process.env;
  /** The bin run against a mock server: its result, and the requests the server answered. */
  async function snapshotTo(
    out: string,
    onStart?: (child: ReturnType<typeof startBin>['child'], mock: ReturnType<typeof createMockApi>) => void,
  ) {
    const mock = createMockApi({ counts: { members: 30 }, latency: onStart ? 100 : 0 });
    const http = await startMockHttpServer({ mock });
    try {
      const bin = startBin(['snapshot', '--out', out], {
        ...cleanEnv,
        COMMUNITY_SERVER_TOKEN: mock.tokens.main,
        COMMUNITY_SERVER_BASE_URL: http.url,
      });
      onStart?.(bin.child, mock);
      return { ...(await bin.exit), requests: mock.requests.length };
    } finally {
      await http.close();
    }
  }

  it('a directory or a missing folder: says so in one line, exits 2, before reading the server, and leaves no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-snapshot-'));
    mkdirSync(join(dir, 'folder'));
    const intoFolder = await snapshotTo(join(dir, 'folder'));
    expect(intoFolder.code).toBe(2);
    expect(intoFolder.stderr.split('\n')[0]).toBe(
      `community-server-mock snapshot: --out ${join(dir, 'folder')}: is a directory; give a file name`,
    );
    expect(intoFolder.requests).toBe(0);
    const nowhere = join(dir, 'missing', 'world.json');
    const intoNothing = await snapshotTo(nowhere);
    expect(intoNothing.code).toBe(2);
    expect(intoNothing.stderr.split('\n')[0]).toBe(
      `community-server-mock snapshot: --out ${nowhere}: cannot write ${nowhere}.partial (ENOENT)`,
    );
    expect(intoNothing.requests).toBe(0);
    expect(readdirSync(dir)).toEqual(['folder']);
  }, 30_000);

  it('Ctrl-C while it reads: no file under the name and no partial one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-snapshot-'));
    const file = join(dir, 'world.json');
    let partialWhileReading = false;
    const run = await snapshotTo(file, (child, mock) => {
      // Interrupted once the server has answered a few requests: the partial file exists by then.
      const poll = setInterval(() => {
        if (mock.requests.length < 3) return;
        clearInterval(poll);
        partialWhileReading = existsSync(`${file}.partial`);
        child.kill('SIGINT');
      }, 20);
    });
    expect(partialWhileReading).toBe(true);
    expect(run.code).toBe(130);
    expect(run.requests).toBeGreaterThanOrEqual(3);
    expect(readdirSync(dir)).toEqual([]);
  }, 30_000);
});
