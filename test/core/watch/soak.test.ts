/**
 * The soak's short form (`bench/soak.ts`, 1,000 events) in a fresh process: watches over every
 * list the mock's activity adds to, 10 % injected faults, random latency, a restart from the
 * cursor every 250 events; nothing lost, nothing duplicated. `npm run soak` is the full run.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import type { SoakResult } from '../../../bench/soak';

const root = fileURLToPath(new URL('../../..', import.meta.url));

it('1,000 events through watches with faults and cursor restarts: 0 lost, 0 duplicated', async () => {
  // The soak exits 1 when it lost or repeated an event: its figures are read either way, so a
  // failure shows them (and its stderr) rather than only "Command failed".
  const run = promisify(execFile)(`${root}/node_modules/.bin/tsx`, ['--tsconfig', 'tsconfig.test.json', 'bench/soak.ts'], {
    cwd: root,
    env: { ...process.env, SOAK_EVENTS: '1000', SOAK_RESTART_EVERY: '250', SOAK_JSON: '1' },
  });
  const { stdout, stderr } = await run.catch((error: Error & { stdout?: string; stderr?: string }) => ({
    stdout: error.stdout ?? '',
    stderr: error.stderr || error.message,
  }));
  expect(stdout.trim(), stderr).toMatch(/^\{.*\}$/s);
  const result = JSON.parse(stdout) as SoakResult;
  expect(result.events).toBeGreaterThanOrEqual(1000);
  expect(result.restarts).toBeGreaterThanOrEqual(3);
  expect(result.faults).toBeGreaterThan(0.05 * result.requests);
  expect(result.lost).toBe(0);
  expect(result.duplicated).toBe(0);
}, 120_000);
