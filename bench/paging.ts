/**
 * Paging:
 * - `toArray({ concurrency: 4 })` over 50 pages at 20 ms latency per request against a
 *   sequential `for await` (goal ≥ 3.5× faster; 50 / 14 ≈ 3.57× is the ceiling, since page 1
 *   must come back before pages 2..50 can go out 4 at a time);
 * - the peak live heap of `for await` over 100,000 items against 10,000 (goal ≤ 1.2×: a walk
 *   holds one page, not the list). See `heap-walk.mjs` for how it is measured and why.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CommunityServerClient } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { format, row, smoke, spread, type Comparison } from './harness';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

async function elapsed(walk: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await walk();
  return performance.now() - start;
}

export async function concurrentWalk(): Promise<Comparison> {
  const pages = smoke ? 6 : 50;
  const mock = createMockApi({ seed: 1, latency: 20, counts: { members: pages * 10 } });
  const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://bench.test', fetch: mock.fetch });
  const sequential: number[] = [];
  const concurrent: number[] = [];
  for (let round = 0; round < (smoke ? 1 : 7); round++) {
    sequential.push(
      await elapsed(async () => {
        let n = 0;
        for await (const _ of client.members.list({ pageSize: 10 })) n++;
        if (n !== pages * 10) throw new Error(`walked ${n}`);
      }),
    );
    concurrent.push(await elapsed(() => client.members.list({ pageSize: 10 }).toArray({ concurrency: 4 })));
  }
  return row(
    `\`toArray({ concurrency: 4 })\` over ${pages} pages, 20 ms latency each`,
    format(spread(concurrent), 'ms'),
    `sequential \`for await\`: ${format(spread(sequential), 'ms')}`,
    spread(sequential.map((ms, i) => ms / concurrent[i]!)),
    '≥ 3.5×',
  );
}

async function peakHeapMb(total: number): Promise<number> {
  const { stdout } = await run(process.execPath, ['--expose-gc', 'bench/heap-walk.mjs', String(total)], { cwd: root });
  return (JSON.parse(stdout) as { peakHeapBytes: number }).peakHeapBytes / 1e6;
}

export async function walkHeap(): Promise<Comparison> {
  const [small, large] = smoke ? [1_000, 10_000] : [10_000, 100_000];
  const smallPeaks: number[] = [];
  const largePeaks: number[] = [];
  for (let round = 0; round < (smoke ? 1 : 5); round++) {
    smallPeaks.push(await peakHeapMb(small));
    largePeaks.push(await peakHeapMb(large));
  }
  const comparison = row(
    `peak live heap of \`for await\` over ${large.toLocaleString('en')} items`,
    format(spread(largePeaks), 'MB', 1),
    `${small.toLocaleString('en')} items: ${format(spread(smallPeaks), 'MB', 1)}`,
    spread(largePeaks.map((mb, i) => mb / smallPeaks[i]!)),
    '≤ 1.2×',
  );
  comparison.note =
    '`heapUsed` right after a full collection every 10th page, with a fetch that answers after one event-loop turn as network I/O does. ' +
    'Without the collection, the figure compares when V8 first sweeps its old generation (a 10k walk ends before that, a 100k walk does not), not what the walk keeps. ' +
    "Node 20 caveat: undici releases each Request's AbortSignal bookkeeping (~2 KB) in FinalizationRegistry callbacks that run only between macrotasks, so a fetch that answers in microtasks alone (a synchronous in-memory double) grows the heap by that much per request until the loop turns; ky alone shows the same.";
  return comparison;
}
