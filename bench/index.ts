/**
 * `npm run bench`: every benchmark against the built package, then `bench/RESULTS.md` (date,
 * Node, CPU, and each figure as median with interquartile range, its baseline from the same run,
 * the ratio and the goal). `BENCH_SMOKE=1` runs each once, tiny, to check they work (CI), and
 * writes under test-output/ instead.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { smoke, type Comparison } from './harness';
import { cacheBench } from './cache';
import { cliBench } from './cli';
import { mockThroughput } from './mock-throughput';
import { storeWrites } from './store-writes';
import { controlPlaneThroughput } from './control-plane';
import { sessionsBench } from './sessions';
import { httpThroughput } from './http-throughput';
import { requestHeap } from './request-heap';
import { callParts } from './call-parts';
import { callHeap } from './call-heap';
import { eventOverhead } from './events';
import { fairnessBench } from './fairness';
import { fleetBench } from './fleet';
import { fleetWatchBench } from './fleet-watch';
import { mcpToolsList } from './mcp';
import { concurrentWalk, walkHeap } from './paging';
import { queryBench } from './query';
import { sdkOverhead } from './sdk-overhead';
import { bundleSize, coldImport } from './startup';
import { walksAtLimit } from './walk-limit';

const root = fileURLToPath(new URL('..', import.meta.url));

export const benchmarks: [label: string, run: () => Promise<Comparison | Comparison[]>][] = [
  ['SDK overhead', sdkOverhead],
  ['events', eventOverhead],
  ['cache and coalescing', cacheBench],
  ['parts of a call', callParts],
  ['heap a call keeps', callHeap],
  ['concurrent walk', concurrentWalk],
  ['walk heap', walkHeap],
  ['walks at the rate limit', walksAtLimit],
  ['fleet on Redis', fleetBench],
  ['fleet-wide watches on Redis', fleetWatchBench],
  ['fairness', fairnessBench],
  ['bundle size', bundleSize],
  ['TanStack Query adapter', queryBench],
  ['mock throughput', mockThroughput],
  ['mock store writes', storeWrites],
  ['mock over HTTP: control plane, Prism', controlPlaneThroughput],
  ['mock sessions', sessionsBench],
  ['HTTP mock against the floor', httpThroughput],
  ['what the mock keeps of a request', requestHeap],
  ['cold import', coldImport],
  ['the command: members list --all', cliBench],
  ['MCP tools/list', mcpToolsList],
];

export async function runAll(): Promise<Comparison[]> {
  const rows: Comparison[] = [];
  for (const [label, run] of benchmarks) {
    process.stderr.write(`bench: ${label}…\n`);
    rows.push(...[await run()].flat());
  }
  return rows;
}

const ratioText = (r: Comparison) =>
  r.ratio ? `${r.ratio.median.toFixed(2)}× (${r.ratio.low.toFixed(2)}–${r.ratio.high.toFixed(2)})` : '—';
const metText = (r: Comparison) => (r.met === null ? '—' : r.met ? 'yes' : '**no**');

export function report(rows: Comparison[]): string {
  const cpu = cpus();
  const notes = rows.filter((r) => r.note);
  return [
    '# Benchmark results',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Node: ${process.version} (${process.platform} ${process.arch})`,
    `- CPU: ${cpu[0]?.model ?? 'unknown'} × ${cpu.length}`,
    `- Produced by \`npm run bench\`${smoke ? ' in its smoke form (figures meaningless)' : ''} against the built package (\`dist/\`).`,
    "- Each figure is the median with its interquartile range. Measures and baselines run in alternating short rounds in the same process, and each ratio is taken round by round, so the machine's drift hits both sides alike.",
    '',
    '| measure | result | baseline (same run) | ratio | goal | met |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.value} | ${r.baseline} | ${ratioText(r)} | ${r.goal ?? 'context'} | ${metText(r)} |`),
    '',
    ...(notes.length ? ['## Notes', '', ...notes.map((r) => `- **${r.name}**: ${r.note}`), ''] : []),
  ].join('\n');
}

/** Marks where figures of other runs begin (the soak's): hand-kept, so a bench run keeps them. */
const KEPT_MARKER = '<!-- Figures of other runs (npm run soak) follow; npm run bench keeps them as they are. -->';

function keptSections(target: string): string {
  const old = existsSync(target) ? readFileSync(target, 'utf8') : '';
  const at = old.indexOf(KEPT_MARKER);
  return at < 0 ? '' : `\n${old.slice(at)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const markdown = report(await runAll());
  const target = smoke ? `${root}/test-output/bench-smoke.md` : `${root}/bench/RESULTS.md`;
  mkdirSync(`${root}/test-output`, { recursive: true });
  writeFileSync(target, markdown + keptSections(target));
  console.log(markdown);
  console.log(`written to ${target}`);
}
