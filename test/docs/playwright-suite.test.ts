/**
 * The Playwright suite of examples/testing/playwright, run as a user runs it
 * (`npx playwright test -c examples/testing/playwright`), against the built package (`npm test`
 * builds before it runs the tests): four workers, each on a mock session of
 * its own, drive the dashboard against one server at the same time. Its JSON report must show
 * every test passed, in four workers, some of them at once.
 *
 * It runs once per `npm test`, in the Node 20 pass (vitest.config.ts leaves it out of the node22
 * and node24 passes, SDK_SECOND_RUNTIME_PASS=1). What the suite could find wrong on another Node (the mock's server,
 * sessions, `connectMock`) the session tests check on every runtime; the rest is Chromium's, the
 * same in each pass, and four browsers three times over would triple its cost for nothing.
 *
 * Needs Debian's Chromium at /usr/bin/chromium: in CI (.ci/run installs it) its absence is a
 * failure; elsewhere the suite is skipped, saying why.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { CHROMIUM, chromiumMissing } from './chromium';

const root = fileURLToPath(new URL('../..', import.meta.url));
const suite = `${root}examples/testing/playwright`;
const report = `${root}test-output/playwright-report.json`;

interface Result {
  parallelIndex: number;
  status: string;
  startTime: string;
  duration: number;
}
interface Report {
  config: { metadata: { actualWorkers?: number } };
  suites: { specs: { title: string; tests: { results: Result[] }[] }[] }[];
  stats: { expected: number; unexpected: number; flaky: number; skipped: number; duration: number };
  errors: unknown[];
}

/** The most tests running at one moment. */
function mostAtOnce(results: Result[]): number {
  const edges = results.flatMap((result) => {
    const start = Date.parse(result.startTime);
    return [
      [start, 1],
      [start + result.duration, -1],
    ] as const;
  });
  // At a tie an end comes first: a test that ends as another starts did not run beside it.
  edges.sort(([a, up], [b, down]) => a - b || up - down);
  let running = 0;
  let most = 0;
  for (const [, change] of edges) most = Math.max(most, (running += change));
  return most;
}

/** Runs the suite with the JSON reporter; resolves with its exit code and output. */
function runSuite() {
  rmSync(report, { force: true });
  mkdirSync(`${root}test-output`, { recursive: true });
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [`${root}node_modules/@playwright/test/cli.js`, 'test', '-c', suite, '--reporter=json'], {
      cwd: root,
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: report, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

const missing = chromiumMissing();

it('the Playwright suite passes with four workers, each on its own mock session, at once', async (context) => {
  if (missing && process.env.CI) expect.fail(`${CHROMIUM} is missing; CI must install it (.ci/run: apt-get install chromium)`);
  if (missing) return context.skip(missing);

  const { code, output } = await runSuite();
  expect(code, output).toBe(0);
  const result = JSON.parse(readFileSync(report, 'utf8')) as Report;
  const tests = readFileSync(`${suite}/dashboard.spec.ts`, 'utf8').match(/^test\(/gm)!.length;
  expect(result.errors).toEqual([]);
  expect(result.stats).toMatchObject({ expected: tests, unexpected: 0, flaky: 0, skipped: 0 });
  const results = result.suites.flatMap((file) => file.specs.flatMap((spec) => spec.tests.flatMap((test) => test.results)));
  expect(results.map((run) => run.status)).toEqual(Array(tests).fill('passed'));
  expect(result.config.metadata.actualWorkers).toBe(4);
  expect(new Set(results.map((run) => run.parallelIndex))).toEqual(new Set([0, 1, 2, 3]));
  expect(mostAtOnce(results)).toBe(4);
  console.info(`Playwright suite: ${tests} tests in 4 workers, ${(result.stats.duration / 1000).toFixed(1)} s`);
}, 180_000);
