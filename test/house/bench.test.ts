/**
 * The benchmarks' smoke form, as CI runs it: `bench/index.ts` with `BENCH_SMOKE=1` in a fresh
 * process against the built package. Every benchmark must run and produce a row with a finite
 * figure; their speed is not asserted here (machines are noisy), `npm run bench` reports it.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The budgets `npm run size` enforces, as `.size-limit.mjs` sets them. */
const budgets = ((await import(`${root}/.size-limit.mjs`)) as { default: { name: string; path: string; limit: string }[] }).default;
/** An entry's budget: the first one of `path` (a whole entry), or the one whose name starts with `name`. */
const budget = (path: string, name?: string) =>
  budgets.find((entry) => entry.path === path && (name === undefined || entry.name.startsWith(name)))!.limit;

it('npm run bench runs every benchmark and writes a row for each goal', async () => {
  await promisify(execFile)(`${root}/node_modules/.bin/tsx`, ['bench/index.ts'], { cwd: root, env: { ...process.env, BENCH_SMOKE: '1' } });
  const report = readFileSync(`${root}/test-output/bench-smoke.md`, 'utf8');
  const rows = report.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| measure'));
  // The smoke form walks at the limit one way per mode, runs one fleet (2 processes), one watching
  // fleet (2 processes, one list: requests per interval, failover), and each fairness run once.
  const goals = [
    '≤ 1.30×',
    '≤ 1.02×',
    '≤ 2.0×',
    '≤ 1.02×',
    '≤ 1.30×',
    '≤ 1.02×',
    '≤ 1.05×',
    '≤ 1.05×',
    '≥ 20×',
    '≥ 20×',
    '≤ 1.05×',
    '≤ 0.3 KB/call',
    '≥ 3.5×',
    '≤ 1.2×',
    '≤ 1.25×',
    '≤ 1.25×',
    '≤ 1.3×',
    '≤ 1.1×',
    '≤ 2.5×',
    '≤ 1.5×',
    '≤ 1.05×',
    '0 × 429',
    '≤ 1.5×',
    '≤ 1.05×',
    '0 × 429',
    `≤ ${budget('dist/index.js')}`,
    '≤ 14 KB',
    '≤ 24 KB',
    '≤ 1.05×',
    `≤ ${budget('dist/query.js')}`,
    '≥ 0.8×',
    '≥ 0.5×',
    '≤ 2×',
    '≤ 2×',
    '≥ 0.95×',
    '≥ 0.9×',
    '≤ 150 ms',
    '≤ 150 ms',
    '≤ +10 MB',
    '≥ 0.5×',
    '≥ 0.95×',
    '≥ 0.5×',
    '≥ 0.95×',
    '≤ 0.2 KB',
    '≤ 1.5×',
    '≤ 1.2×',
    '≤ 1.2×',
    '≤ 24,000 characters, ≤ 40 tools',
  ];
  expect(rows.map((line) => line.split(' | ')[4]).filter((goal) => goal !== 'context')).toEqual(goals);
  for (const line of rows) {
    const [, value, , ratio] = line.split(' | ');
    expect(value, line).toMatch(/\d/);
    // A ratio is a positive figure, or '—' on a row that has none.
    expect(ratio === '—' || Number.parseFloat(ratio!) > 0, `${line}: the ratio`).toBe(true);
  }
}, 240_000);
