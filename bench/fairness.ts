/**
 * Fairness under one rate limit (issue 18): 10 loops calling back to back for a while on one
 * token, against the HTTP mock at `rateLimit: { limit: 10, windowMs: 1000 }` — all on one client
 * (one process), then spread over a 4-process fleet sharing the budget through Redis (3, 3, 2 and
 * 2 loops). Measured, each against the goal the issue sets:
 * - the most-served loop ÷ the least-served (goal ≤ 1.5×), with the 429s the mock sent (goal 0);
 * - the time the requests took ÷ the floor the limit sets for that many (goal ≤ 1.05×): the
 *   span from the first arrival to the last, against `(ceil(requests / limit) − 1) × window`;
 * - a first burst of 3 × the limit at once, from one client and from the fleet: its 429s (goal 0).
 * Each loop, and each call of a burst, asks for a page of its own: identical GETs at once would be
 * sent once (coalesced), and this measures the gate.
 *
 *   npx tsx bench/fairness.ts
 */
import { CommunityServerClient } from 'community-server-sdk';
import { startMockHttpServer } from 'community-server-sdk/mock/node';
import { countingMock, startWorker, type Arrival } from './fleet';
import { format, row, runWhenMain, smoke, spread, type Comparison } from './harness';
import { race, unevenness } from './loops';

const rateLimit = { limit: 10, windowMs: 1000 };
const LOOPS = 10;
const FLEET = [3, 3, 2, 2];
const pageSize = 1;

interface Run {
  served: number[];
  arrivals: Arrival[];
}

/** The span of the arrivals ÷ the floor the limit sets for as many requests. */
function againstFloor(arrivals: readonly Arrival[]): { ratio: number; spanMs: number; floorMs: number } {
  const times = arrivals.map((arrival) => arrival.at);
  const spanMs = Math.max(...times) - Math.min(...times);
  const floorMs = (Math.ceil(arrivals.length / rateLimit.limit) - 1) * rateLimit.windowMs;
  return { ratio: spanMs / floorMs, spanMs, floorMs };
}

/** Runs `load` against a fresh counting HTTP mock. */
async function withMock(load: (baseUrl: string, token: string) => Promise<number[]>): Promise<Run> {
  const { mock, arrivals } = countingMock(rateLimit, 10);
  const http = await startMockHttpServer({ mock });
  try {
    return { served: await load(http.url, mock.tokens.main), arrivals };
  } finally {
    await http.close();
  }
}

const oneClient = (durationMs: number) =>
  withMock((baseUrl, token) => {
    const client = new CommunityServerClient({ token, baseUrl, timeout: 60_000 });
    return race(LOOPS, durationMs, (loop) => client.roles.list({ pageSize, page: loop + 1 }));
  });

const oneClientBurst = () =>
  withMock(async (baseUrl, token) => {
    const client = new CommunityServerClient({ token, baseUrl, timeout: 60_000 });
    await Promise.all(Array.from({ length: BURST }, (_, i) => client.roles.list({ pageSize, page: i + 1 })));
    return [];
  });

/** A fleet on Redis: one process per entry of `loops`, each running that many loops (or, with `burst`, its share of one burst). */
const fleet = (redisUrl: string, mode: 'loops' | 'burst', durationMs: number) =>
  withMock(async (baseUrl, token) => {
    const workers = FLEET.map((loops) =>
      startWorker({ baseUrl, token, redisUrl, library: 'ioredis', pageSize, mode, loops, durationMs, burst: loops * 3 }, undefined),
    );
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    return (await Promise.all(workers.map((worker) => worker.done))).flatMap((result) => result.served);
  });

const tooMany = (run: Run) => run.arrivals.filter((arrival) => arrival.status === 429).length;

/** The rows of one way of running the loops: fairness, and time against the floor. */
function loopRows(label: string, runs: Run[]): Comparison[] {
  const ratios = runs.map((run) => unevenness(run.served));
  const floors = runs.map((run) => againstFloor(run.arrivals));
  const errors = runs.reduce((sum, run) => sum + tooMany(run), 0);
  const fairness = row(
    `${label}, limit 10 per 1 s: calls of the most-served loop ÷ the least-served`,
    `served per loop ${runs.map((run) => run.served.join(',')).join(' / ')}; 429s: ${errors}`,
    `least served: ${Math.min(...runs.flatMap((run) => run.served))}`,
    spread(ratios),
    '≤ 1.5×',
  );
  const total = row(
    `${label}: time its ${runs[0]!.arrivals.length} requests took ÷ the floor the limit sets`,
    format(spread(floors.map((f) => f.spanMs)), 'ms'),
    `floor ${floors[0]!.floorMs} ms`,
    spread(floors.map((f) => f.ratio)),
    '≤ 1.05×',
  );
  if (errors > 0) fairness.met = total.met = false;
  return [fairness, total];
}

/** Calls in a first burst: 3 × the limit (the arrivals count the retries of any 429 too). */
const BURST = 3 * rateLimit.limit;

function burstRow(label: string, run: Run): Comparison {
  const errors = tooMany(run);
  return {
    name: `${label}: a first burst of ${BURST} calls (3 × the limit) at once`,
    value: `429s: ${errors}`,
    baseline: '—',
    ratio: null,
    goal: '0 × 429',
    met: errors === 0,
  };
}

export async function fairnessBench(): Promise<Comparison[]> {
  const durationMs = smoke ? 2_500 : 10_000;
  const rounds = smoke ? 1 : 3;
  const rows: Comparison[] = [];
  const local: Run[] = [];
  for (let round = 0; round < rounds; round++) local.push(await oneClient(durationMs));
  rows.push(...loopRows(`fairness: ${LOOPS} loops on one client`, local), burstRow('one client', await oneClientBurst()));

  const { redisMissing, startRedis } = await import('../test/redis/server');
  const missing = redisMissing();
  if (missing) {
    rows.push({ name: 'fairness in a fleet on Redis', value: `0 runs: ${missing}`, baseline: '—', ratio: null, goal: '≤ 1.5×', met: null });
    return rows;
  }
  const redis = await startRedis();
  try {
    const runs: Run[] = [];
    for (let round = 0; round < rounds; round++) runs.push(await fleet(redis.url, 'loops', durationMs));
    rows.push(...loopRows(`fairness: ${LOOPS} loops in a fleet of ${FLEET.length} processes via Redis (${FLEET.join(', ')})`, runs));
    rows.push(burstRow(`a fleet of ${FLEET.length} processes via Redis`, await fleet(redis.url, 'burst', 0)));
  } finally {
    await redis.stop();
  }
  return rows;
}

await runWhenMain(import.meta.url, fairnessBench);
