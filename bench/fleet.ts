/**
 * A fleet sharing one token (`npm run bench:fleet`, and a row of `npm run bench`): 2, 4 and 8
 * processes, each a client on `redisRateLimitStore`, walk a list of the HTTP mock at
 * `rateLimit: { limit: 20, windowMs: 1000 }` together, ~100 pages in all. Measured: the 429s
 * the mock sent across the fleet (goal 0) and the wall time ÷ the floor the limit sets,
 * `(ceil(pages / limit) − 1) × window` (goal ≤ 1.3×).
 *
 * The mock counts on its side (every arrival, with its time and status), so the requests in each
 * of its windows can be checked too. Also used by test/redis/rate-limit-store.test.ts, in a short form.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createMockApi, type MockApi, type RateLimitOptions } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';
import { format, row, runWhenMain, smoke, spread, type Comparison } from './harness';

const root = fileURLToPath(new URL('..', import.meta.url));

/** One request as the mock saw it. */
export interface Arrival {
  at: number;
  status: number;
  /** Its path, e.g. `/api/v1/server/logs`. */
  path: string;
  /** Its `x-fleet-worker` header: which process of a fleet sent it (`null`: none said). */
  worker: string | null;
}

/** What a test may do around each request the counting mock answers. */
export interface MockHooks {
  /** Before the mock answers: awaited, so it can hold the answer back. */
  before?: (request: Request) => Promise<void> | void;
  /** With the answer. */
  after?: (request: Request, response: Response) => void;
}

/** A mock whose `fetch` (what the HTTP server answers with) logs every arrival. */
export function countingMock(
  rateLimit: RateLimitOptions | undefined,
  members: number,
  hooks: MockHooks = {},
): { mock: MockApi; arrivals: Arrival[] } {
  const inner = createMockApi({ seed: 1, ...(rateLimit ? { rateLimit } : {}), counts: { members } });
  const arrivals: Arrival[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const at = Date.now();
    const request = new Request(input, init);
    await hooks.before?.(request);
    const response = await inner.fetch(request);
    arrivals.push({ at, status: response.status, path: new URL(request.url).pathname, worker: request.headers.get('x-fleet-worker') });
    hooks.after?.(request, response);
    return response;
  };
  return { mock: Object.create(inner, { fetch: { value: fetch } }) as MockApi, arrivals };
}

/**
 * Requests per window, as the mock counts them: a window opens with the first request after the
 * previous one ended and lasts `windowMs`.
 */
export function perWindow(arrivals: readonly Arrival[], windowMs: number): number[] {
  const counts: number[] = [];
  let end = -Infinity;
  for (const { at } of [...arrivals].sort((a, b) => a.at - b.at)) {
    if (at >= end) {
      counts.push(0);
      end = at + windowMs;
    }
    counts[counts.length - 1]!++;
  }
  return counts;
}

export interface FleetOptions {
  processes: number;
  /** Pages each process walks. */
  pages: number;
  rateLimit: RateLimitOptions;
  redisUrl: string;
  library?: 'ioredis' | 'redis';
  /** `tsconfig.test.json` runs the workers on the sources (tests); by default, the built package. */
  tsconfig?: string;
}

export interface FleetResult {
  wallMs: number;
  /** `(ceil(total pages / limit) − 1) × window`. */
  floorMs: number;
  tooMany: number;
  /** Most requests the mock counted in one window. */
  busiestWindow: number;
  /** Items each process collected. */
  items: number[];
  expectedItems: number;
}

/** What a fleet process reports. */
export interface WorkerResult {
  items: number;
  /** Calls each of its loops completed (`mode: 'loops'`). */
  served: number[];
  statuses: Record<string, number>;
  ms: number;
}

interface Worker<Result = WorkerResult> {
  ready: Promise<void>;
  done: Promise<Result>;
  go(): void;
}

/**
 * Runs `script` (a path from the repository's root) in a process of its own with `argument` as
 * JSON, its stdout read line by line; `tsconfig.test.json` runs it on the sources (tests), by
 * default the built package.
 */
export function spawnWorker(script: string, argument: object, tsconfig: string | undefined) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(argument)], {
    cwd: root,
    env: { ...process.env, ...(tsconfig ? { TSX_TSCONFIG_PATH: tsconfig } : {}) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return { child, lines: createInterface({ input: child.stdout }) };
}

/**
 * Starts a fleet process (`script`, by default `bench/fleet-worker.ts`, its `argument` as JSON);
 * it prints a line when ready, waits for `go()`, then prints its result as one line of JSON.
 */
export function startWorker<Result = WorkerResult>(
  argument: object,
  tsconfig: string | undefined,
  script = 'bench/fleet-worker.ts',
): Worker<Result> {
  const { child, lines: input } = spawnWorker(script, argument, tsconfig);
  const lines = input[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error('a fleet worker exited before it reported');
    return line.value;
  };
  const ready = next().then(() => undefined);
  return {
    ready,
    done: ready.then(next).then((text) => JSON.parse(text) as Result),
    go: () => child.stdin.write('go\n'),
  };
}
/** Runs one fleet walk against a fresh HTTP mock; every process starts at the same moment. */
export async function runFleet({
  processes,
  pages,
  rateLimit,
  redisUrl,
  library = 'ioredis',
  tsconfig,
}: FleetOptions): Promise<FleetResult> {
  const pageSize = 10;
  const { mock, arrivals } = countingMock(rateLimit, pages * pageSize);
  const http = await startMockHttpServer({ mock });
  try {
    const argument = { baseUrl: http.url, token: mock.tokens.main, redisUrl, library, pageSize, mode: 'for-await' };
    const workers = Array.from({ length: processes }, () => startWorker(argument, tsconfig));
    await Promise.all(workers.map((w) => w.ready));
    const start = performance.now();
    for (const w of workers) w.go();
    const results = await Promise.all(workers.map((w) => w.done));
    const wallMs = performance.now() - start;
    const counts = perWindow(arrivals, rateLimit.windowMs);
    return {
      wallMs,
      floorMs: (Math.ceil((processes * pages) / rateLimit.limit) - 1) * rateLimit.windowMs,
      tooMany: arrivals.filter((a) => a.status === 429).length,
      busiestWindow: Math.max(...counts),
      items: results.map((r) => r.items),
      expectedItems: pages * pageSize,
      ...(process.env.FLEET_DEBUG ? { windows: counts } : {}),
    };
  } finally {
    await http.close();
  }
}

/** The `npm run bench` rows: one per fleet size. */
export async function fleetBench(): Promise<Comparison[]> {
  // Imported here: the test helper starts the throwaway redis-server this benchmark needs.
  const { redisMissing, startRedis } = await import('../test/redis/server');
  const missing = redisMissing();
  // Still a row with its goal, so the table keeps its shape where Redis is missing.
  if (missing) return [{ name: 'fleet on Redis', value: `0 runs: ${missing}`, baseline: '—', ratio: null, goal: '≤ 1.3×', met: null }];
  const redis = await startRedis();
  const rateLimit = { limit: 20, windowMs: 1000 };
  const rows: Comparison[] = [];
  try {
    for (const processes of smoke ? [2] : [2, 4, 8]) {
      const totalPages = smoke ? 30 : 100;
      const pages = Math.ceil(totalPages / processes);
      const ratios: number[] = [];
      const walls: number[] = [];
      let tooMany = 0;
      let busiest = 0;
      let floor = 0;
      for (let round = 0; round < (smoke ? 1 : 3); round++) {
        const result = await runFleet({ processes, pages, rateLimit, redisUrl: redis.url });
        if (result.items.some((n) => n !== result.expectedItems)) {
          throw new Error(`a fleet process collected ${result.items.join(', ')} of ${result.expectedItems}`);
        }
        ratios.push(result.wallMs / result.floorMs);
        walls.push(result.wallMs);
        tooMany += result.tooMany;
        busiest = Math.max(busiest, result.busiestWindow);
        floor = result.floorMs;
      }
      const comparison = row(
        `fleet of ${processes} processes on one token via Redis, ${processes * pages} pages in all, limit 20 per 1 s: wall time`,
        `${format(spread(walls), 'ms')}; 429s: ${tooMany}; busiest window: ${busiest} requests`,
        `floor ${floor} ms`,
        spread(ratios),
        '≤ 1.3×',
      );
      if (tooMany > 0) comparison.met = false;
      rows.push(comparison);
    }
  } finally {
    await redis.stop();
  }
  return rows;
}

await runWhenMain(import.meta.url, fleetBench);
