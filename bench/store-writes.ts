/**
 * What a write to the mock's store costs as its tables grow (issue 23, item 12): a test that
 * seeds a big world, or an HTTP mock whose activity runs for hours, must not slow down with it.
 * - `create()` on a world whose written tables hold 100k rows each, against the same on 1k rows
 *   (goal ≤ 2×: a write costs O(log n) in the table's size, so 100× the rows is ~1.7× the
 *   comparisons at most, and the row's own making and checking dominates);
 * - one `activity.step()` event on the same two worlds (goal ≤ 2×).
 * One `create()` operation makes a row in each of the tables sized (members, logs, shifts,
 * application responses, the audit log), in turn.
 *
 *   npx tsx bench/store-writes.ts
 */
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { format, interleave, row, runWhenMain, smoke, type Comparison } from './harness';

/** The tables both worlds size alike: the ones `create()` and the activity write to most. */
const SIZED = ['members', 'logs', 'shifts', 'applicationResponses', 'auditLogs'] as const;

const world = (rows: number): MockApi => createMockApi({ seed: 1, counts: Object.fromEntries(SIZED.map((table) => [table, rows])) });

/** One `create()` in one of the sized tables, in turn. */
const creates = (mock: MockApi) => async (i: number) => {
  mock.store.main[SIZED[i % SIZED.length]!].create();
};

/** One event of the activity. */
const steps = (mock: MockApi) => async () => {
  mock.activity.step(1);
};

export async function storeWrites(): Promise<Comparison[]> {
  const [smallRows, bigRows] = [1_000, smoke ? 10_000 : 100_000];
  const small = world(smallRows);
  const big = world(bigRows);
  // The warmup reads every ordering and index the writes keep (built once, on first read, in O(n log n)).
  const options = { rounds: 20, operations: 50, warmup: 500 };
  const created = await interleave({ big: creates(big), small: creates(small) }, options);
  const stepped = await interleave({ big: steps(big), small: steps(small) }, options);
  const per = (run: typeof created, side: 'big' | 'small') => format(run.rate(side), 'ops/s');
  const label = (rows: number) => `${rows / 1000}k rows`;
  return [
    row(
      `\`create()\` in a ${label(bigRows)} table ÷ in a ${label(smallRows)} one (members, logs, shifts, responses, audit log, in turn)`,
      per(created, 'big'),
      `${label(smallRows)}: ${per(created, 'small')}`,
      created.timeRatio('big', 'small'),
      '≤ 2×',
    ),
    row(
      `one \`activity.step()\` event on a world of ${label(bigRows)} tables ÷ of ${label(smallRows)} ones`,
      per(stepped, 'big'),
      `${label(smallRows)}: ${per(stepped, 'small')}`,
      stepped.timeRatio('big', 'small'),
      '≤ 2×',
    ),
  ];
}

await runWhenMain(import.meta.url, storeWrites);
