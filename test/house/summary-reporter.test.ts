/**
 * The summary reporter (issue 10, README list): a test skipped for a reason (no Chromium, no
 * runtime download) says why in the output of a default run, not only "1 skipped".
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

it('a run prints each skipped test with its reason, and the count line', async () => {
  const { stdout } = await run(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/house/reporter-fixture/vitest.config.ts'],
    {
      cwd: root,
      env: { ...process.env, CI: '', NO_COLOR: '1', FORCE_COLOR: '0' },
    },
  );
  expect(stdout).toContain(
    'skipped: test/house/reporter-fixture/skips.fixture.ts > needs a tool this machine lacks: the-tool is not installed (here: apt-get install the-tool)',
  );
  expect(stdout).not.toContain('is skipped without a reason:');
  expect(stdout).toContain('1 passed, 0 failed, 2 skipped');
}, 60_000);
