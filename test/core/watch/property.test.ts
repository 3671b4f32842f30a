/**
 * A fast-check property of `watch()`: random interleavings of inserts (often sharing a
 * timestamp), deletes, polls, faults (503, network error, 429) and restarts from the cursor
 * (JSON round trip, new client) always yield each inserted row exactly once, in time order; a row
 * deleted before a poll saw it at most once; a row of the baseline never.
 * WATCH_FUZZ_RUNS (default 25) raises the run count for long offline runs.
 */
import { CommunityServerClient, type Log, type Watch, type WatchCursor } from 'community-server-sdk';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { log } from '../../fixtures';
import { BASE_URL, TOKEN, errorBody, json } from '../../helpers';
import { listServer, type Row } from './list-server';

const RUNS = Number(process.env.WATCH_FUZZ_RUNS ?? 25);

/** What happens when the service answers one request: rows change first, then maybe a fault. */
const step = fc.record({
  inserts: fc.nat({ max: 3 }),
  sameTime: fc.boolean(),
  deleteUnseen: fc.boolean(),
  deleteSeen: fc.boolean(),
  fault: fc.constantFrom(undefined, undefined, undefined, '503', 'network', '429'),
});
const scenario = fc.record({
  baseline: fc.nat({ max: 7 }),
  steps: fc.array(step, { minLength: 1, maxLength: 40 }),
  pageSize: fc.integer({ min: 1, max: 4 }),
  restartEvery: fc.integer({ min: 1, max: 6 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

async function run({ baseline, steps, pageSize, restartEvery }: Scenario) {
  let now = 1_000;
  let serial = 0;
  const newRows = (n: number, sameTime: boolean) => {
    if (!sameTime) now++;
    return Array.from({ length: n }, () => ({ id: `r${String(++serial).padStart(4, '0')}`, createdAt: now }));
  };
  const server = listServer((row: Row) => ({ ...log, ...row }), newRows(baseline, false));
  const inserted = new Map<string, { time: number; deleted: boolean }>();
  const yielded = new Map<string, number>();
  const queue = [...steps];
  let feed: Watch<Log> | undefined;
  server.state.beforeAnswer = (_url, n) => {
    if (n === 1) return; // the first list call's page: the baseline
    const next = queue.shift();
    if (!next) return;
    // While a first watch reads its baseline, a row sharing the baseline's newest time cannot
    // be told from the baseline's own (documented): rows then come at a later time.
    const started = feed?.cursor !== undefined;
    for (const row of newRows(next.inserts, next.sameTime && started)) {
      server.state.rows.push(row);
      inserted.set(row.id, { time: row.createdAt, deleted: false });
    }
    const pick = (seen: boolean) => [...inserted].find(([id, row]) => !row.deleted && yielded.has(id) === seen)?.[0];
    for (const id of [next.deleteUnseen && pick(false), next.deleteSeen && pick(true)]) {
      if (!id) continue;
      inserted.get(id)!.deleted = true;
      server.state.rows = server.state.rows.filter((row) => row.id !== id);
    }
    if (next.fault === '503') return json(errorBody('unavailable', 'down'), 503);
    if (next.fault === '429') return json(errorBody('rate_limited', 'slow down'), 429);
    if (next.fault === 'network') return Promise.reject(new TypeError('fetch failed'));
  };
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
    server.handler(new Request(input, init), 0)) as typeof globalThis.fetch;
  const watchFrom = (cursor?: WatchCursor) => {
    const client = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, maxRetries: 0, rateLimit: 'off' });
    return client.logs.list({ pageSize }).watch({ intervalMs: 1, ...(cursor ? { cursor } : {}) });
  };

  feed = watchFrom();
  const order: number[] = [];
  let pending: Promise<IteratorResult<Log, void>> | undefined;
  const outstanding = () => [...inserted].some(([id, row]) => !row.deleted && !yielded.has(id));
  const deadline = Date.now() + 3_000;
  let quiet = 0;
  // Pull until the script has run out and every live row came; then a few more quiet polls.
  while (queue.length > 0 || outstanding() || quiet < 3) {
    if (Date.now() > deadline) throw new Error(`stuck: ${queue.length} steps left, outstanding ${outstanding()}`);
    pending ??= feed.next();
    const result = await Promise.race([pending, new Promise<'wait'>((resolve) => setTimeout(() => resolve('wait'), 5))]);
    if (result === 'wait') {
      if (queue.length === 0 && !outstanding()) quiet++;
      continue;
    }
    pending = undefined;
    if (result.done) throw new Error('the watch ended');
    const item = result.value;
    yielded.set(item.id, (yielded.get(item.id) ?? 0) + 1);
    order.push(item.createdAt);
    if (yielded.size % restartEvery === 0) {
      const saved = JSON.stringify(feed.cursor);
      feed.close();
      feed = watchFrom(JSON.parse(saved) as WatchCursor);
    }
  }
  feed.close();

  for (const [id, count] of yielded) {
    expect(inserted.has(id), `${id} was in the baseline`).toBe(true);
    expect(count, `${id} yielded ${count} times`).toBe(1);
  }
  const live = [...inserted].filter(([, row]) => !row.deleted).map(([id]) => id);
  expect(
    live.filter((id) => !yielded.has(id)),
    'live rows never yielded',
  ).toEqual([]);
  expect(order).toEqual([...order].sort((a, b) => a - b));
}

it('inserts, deletes, polls, faults and restarts: each live row once, in order', { timeout: 120_000 }, async () => {
  await fc.assert(fc.asyncProperty(scenario, run), { numRuns: RUNS, endOnFailure: true });
});
