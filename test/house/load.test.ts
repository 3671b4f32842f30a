/**
 * The load script's short form, as CI runs it: a fresh process (with `--expose-gc`, so RSS is
 * read after collection), 64 clients against the mock over loopback HTTP, three phases.
 * Speed is not asserted; correctness under load is.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import type { PhaseResult } from '../../bench/load';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('holds up under 64 concurrent clients: no failures, no 5xx, 429s with Retry-After, only the bad token suspended, RSS flat', async () => {
  const { stdout } = await promisify(execFile)(`${root}/node_modules/.bin/tsx`, ['--tsconfig', 'tsconfig.test.json', 'bench/load.ts'], {
    cwd: root,
    env: { ...process.env, LOAD_SHORT: '1', LOAD_JSON: '1', NODE_OPTIONS: '--expose-gc' },
  });
  const [steady, limited, mixed] = JSON.parse(stdout) as PhaseResult[];
  for (const phase of [steady!, limited!, mixed!]) {
    expect(phase.clients).toBe(64);
    expect(phase.failed, phase.phase).toBe(0);
    expect(phase.status5xx, phase.phase).toBe(0);
  }
  expect(steady!.requests).toBe(64 * 8 * 6);
  expect(steady!.rssEndMb).toBeLessThan(steady!.rssStartMb * 1.25);
  // Sharing tokens defeats each client's own budget, so 429s happen; every one says when to retry.
  expect(limited!.requests).toBeGreaterThanOrEqual(64 * 2 * 6);
  expect(limited!.status429WithoutRetryAfter).toBe(0);
  expect(mixed!.suspended).toEqual(['invalid']);
}, 120_000);
