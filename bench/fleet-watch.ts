/**
 * Fleet-wide watches (issue 24): processes watching the same lists on `redisFleet`, against the
 * HTTP mock, their rate-limit budget in Redis too (`npm run bench:fleet-watch`; a short form is
 * a row of `npm run bench`; test/redis/fleet-processes.test.ts runs its parts). Measured:
 * - requests per interval: a fleet of 8 processes watching 5 lists ÷ one process watching them
 *   alone, counted in the same window by the mock (goal ≤ 1.1×);
 * - delivery latency: from the poll that first served an item to each process's loop, p50 and
 *   p99 (the poller publishes, every process's blocking read wakes);
 * - failover: from SIGKILL of the process polling a list to another's first poll of it, in
 *   intervals (goal ≤ 2.5×: the lease lasts 2 intervals, the others try every half interval).
 *
 *   npm run bench:fleet-watch
 */
import type { ChildProcess } from 'node:child_process';
import type { MockApi } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import type { WatchWorker } from './fleet-watch-worker';
import { countingMock, spawnWorker, type Arrival } from './fleet';
import { format, row, runWhenMain, smoke, spread, type Comparison } from './harness';

/** The lists a fleet watches, by client namespace, with their path. */
export const LISTS = {
  logs: '/api/v1/server/logs',
  members: '/api/v1/server/members',
  shifts: '/api/v1/server/shifts',
  loas: '/api/v1/server/loas',
  joinRequests: '/api/v1/server/join-requests',
} as const;
export type ListName = keyof typeof LISTS;

/** An item a process's loop was given. */
export interface Delivered {
  list: ListName;
  id: string;
  at: number;
}

/** One watching process. */
export interface WatchProcess {
  readonly name: string;
  /** What its loops were given, in order. */
  readonly items: Delivered[];
  /** The errors its watches ended with (`name: message`), in order. */
  readonly errors: string[];
  /** Its watches are made. */
  readonly ready: Promise<void>;
  /** Started `held`: it is loaded and connected, its watches not yet made. */
  readonly loaded: Promise<void>;
  /** Started `held`: makes its watches now. */
  go(): void;
  /** Ends its watches (`return()`) and waits for it to exit. */
  stop(): Promise<void>;
  /** Sends `signal` (SIGKILL by default, a crash); for SIGKILL, waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** A mock over HTTP for watching fleets, and the processes started against it. */
export interface WatchBench {
  readonly mock: MockApi;
  /** Every request, with the process that sent it. */
  readonly arrivals: Arrival[];
  /** When a list's answer to a fleet process first held each item (by `list:id`): the poll that found it. */
  readonly served: Map<string, number>;
  /** Starts a process watching `lists` (all five by default). */
  start(name: string, options?: Partial<WatchWorker>): WatchProcess;
  /** Adds `n` rows to `list`, made now (this second); returns their ids. */
  add(list: ListName, n: number): string[];
  /** The requests of `list` (all lists without one) that arrived in `[from, to)`. */
  polls(from: number, to: number, list?: ListName): Arrival[];
  /**
   * Freezes `process` (SIGSTOP) as its next request of `list` arrives, before the mock answers
   * it, as a long GC pause would in the middle of a poll; resolves once it is frozen (SIGCONT,
   * by `kill`, thaws it).
   */
  freezeOnNextPoll(process: WatchProcess, list: ListName): Promise<void>;
  /** Kills every process still running and closes the server. */
  close(): Promise<void>;
}

const listOf = new Map<string, ListName>(Object.entries(LISTS).map(([name, path]) => [path, name as ListName]));
/** The name of the process that watches on its own, beside a fleet: the baseline. */
const ALONE = 'alone';
/** The field that names an item of each list (a join request is its user's). */
const idOf = (item: Record<string, unknown>) => String(item.id ?? item.userId);

export async function watchBench(options: { redisUrl: string; prefix: string; tsconfig?: string | undefined }): Promise<WatchBench> {
  const served = new Map<string, number>();
  const observe = (request: Request, response: Response) => {
    const at = Date.now();
    const list = listOf.get(new URL(request.url).pathname);
    if (list === undefined || response.status !== 200 || request.headers.get('x-fleet-worker') === ALONE) return;
    void response
      .clone()
      .json()
      .then((page: { data: Record<string, unknown>[] }) => {
        for (const item of page.data) if (!served.has(`${list}:${idOf(item)}`)) served.set(`${list}:${idOf(item)}`, at);
      });
  };
  let freeze: { worker: string; path: string; frozen: () => void } | undefined;
  const before = async (request: Request) => {
    if (!freeze || request.headers.get('x-fleet-worker') !== freeze.worker || new URL(request.url).pathname !== freeze.path) return;
    const { worker, frozen } = freeze;
    freeze = undefined;
    processes.find((p) => p.name === worker)!.child.kill('SIGSTOP');
    await sleep(100); // the signal lands before the answer does
    frozen();
  };
  const { mock, arrivals } = countingMock(undefined, 50, { before, after: observe });
  const http: MockHttpServer = await startMockHttpServer({ mock });
  const processes: { name: string; child: ChildProcess; exited: Promise<unknown> }[] = [];
  return {
    mock,
    arrivals,
    served,
    start(name, overrides = {}) {
      const argument: WatchWorker = {
        baseUrl: http.url,
        token: mock.tokens.main,
        redisUrl: options.redisUrl,
        library: 'ioredis',
        lists: Object.keys(LISTS),
        intervalMs: 300,
        delivery: 'every',
        prefix: options.prefix,
        name,
        fleet: true,
        ...overrides,
      };
      const { child, lines } = spawnWorker('bench/fleet-watch-worker.ts', argument, options.tsconfig);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      processes.push({ name, child, exited });
      const items: Delivered[] = [];
      const errors: string[] = [];
      let ready!: () => void;
      let loaded!: () => void;
      let stopped!: () => void;
      const isReady = new Promise<void>((resolve) => (ready = resolve));
      const isLoaded = new Promise<void>((resolve) => (loaded = resolve));
      const isStopped = new Promise<void>((resolve) => (stopped = resolve));
      lines.on('line', (line) => {
        if (line === 'ready') ready();
        else if (line === 'loaded') loaded();
        else if (line === 'stopped') stopped();
        else {
          const delivered = JSON.parse(line) as Delivered | { error: string };
          if ('error' in delivered) errors.push(delivered.error);
          else items.push(delivered);
        }
      });
      /** `is`, or the process's early exit; not awaited is not an unhandled rejection (a process not started `held` is never loaded). */
      const before = (is: Promise<void>, what: string) => {
        const either = Promise.race([
          is,
          exited.then(() => Promise.reject(new Error(`watch process ${name} exited before it was ${what}`))),
        ]);
        either.catch(() => {});
        return either;
      };
      return {
        name,
        items,
        errors,
        ready: before(isReady, 'ready'),
        loaded: before(isLoaded, 'loaded'),
        go: () => child.stdin.write('go\n'),
        async stop() {
          child.stdin.write('stop\n');
          await Promise.race([isStopped, exited]);
          await exited;
        },
        async kill(signal = 'SIGKILL') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          if (signal === 'SIGKILL') await exited;
        },
      };
    },
    add(list, n) {
      const createdAt = Math.floor(Date.now() / 1000);
      const table = mock.store.main[list] as unknown as { create(row: { createdAt: number }): Record<string, unknown> };
      return Array.from({ length: n }, () => idOf(table.create({ createdAt })));
    },
    freezeOnNextPoll(process, list) {
      return new Promise((frozen) => (freeze = { worker: process.name, path: LISTS[list], frozen }));
    },
    polls(from, to, list) {
      return arrivals.filter((a) => a.at >= from && a.at < to && a.worker !== null && (list ? a.path === LISTS[list] : listOf.has(a.path)));
    },
    async close() {
      freeze = undefined;
      for (const { child } of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await Promise.all(processes.map(({ exited }) => exited));
      await http.close();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `done()` holds (checked every 10 ms), or throws `what` after `ms`. */
export async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** The value at quantile `q` of `values`. */
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

/** Waits until a fleet of `processes` has a poller for each list: its requests arrive. */
async function settled(bench: WatchBench, lists: ListName[], intervalMs: number): Promise<void> {
  const since = Date.now();
  await until(() => lists.every((list) => bench.polls(since, Infinity, list).length > 0), 60_000, 'a poller for every list');
  await sleep(2 * intervalMs);
}

interface Round {
  /** Requests of the fleet ÷ those of the process alone, in one window. */
  ratio: number;
  fleetRequests: number;
  aloneRequests: number;
  /** Milliseconds from the poll that served each item to each fleet process's loop. */
  latencies: number[];
}

/**
 * A fleet of `processes` watching `lists`, and one process watching them alone beside it; for
 * `rounds` windows of `windowMs`, items are added every interval and every request counted.
 */
async function requestsAndLatency(
  redisUrl: string,
  {
    processes,
    lists,
    intervalMs,
    windowMs,
    rounds,
  }: { processes: number; lists: ListName[]; intervalMs: number; windowMs: number; rounds: number },
): Promise<Round[]> {
  const bench = await watchBench({ redisUrl, prefix: `bench:fleet-watch:${Date.now()}:` });
  try {
    const fleet = Array.from({ length: processes }, (_, i) => bench.start(`fleet-${i}`, { lists, intervalMs }));
    const alone = bench.start(ALONE, { lists, intervalMs, fleet: false });
    await Promise.all([...fleet, alone].map((process) => process.ready));
    await settled(bench, lists, intervalMs);
    const results: Round[] = [];
    for (let round = 0; round < rounds; round++) {
      const from = Date.now();
      const added: string[] = [];
      while (Date.now() < from + windowMs) {
        for (const list of lists) added.push(...bench.add(list, 1));
        await sleep(intervalMs);
      }
      const to = Date.now();
      await until(
        () => fleet.every((process) => added.every((id) => process.items.some((item) => item.id === id))),
        30_000,
        'every item everywhere',
      );
      const requests = bench.polls(from, to);
      const aloneRequests = requests.filter((a) => a.worker === ALONE).length;
      const fleetRequests = requests.length - aloneRequests;
      const wanted = new Set(added);
      const latencies = fleet.flatMap((process) =>
        process.items.filter((item) => wanted.has(item.id)).map((item) => item.at - bench.served.get(`${item.list}:${item.id}`)!),
      );
      results.push({ ratio: fleetRequests / aloneRequests, fleetRequests, aloneRequests, latencies });
    }
    return results;
  } finally {
    await bench.close();
  }
}

/**
 * Kills (SIGKILL) the process polling `logs` in a fleet of `processes`, `kills` times in turn,
 * and measures how long until another polls it.
 */
async function failovers(
  redisUrl: string,
  { processes, intervalMs, kills }: { processes: number; intervalMs: number; kills: number },
): Promise<number[]> {
  const bench = await watchBench({ redisUrl, prefix: `bench:failover:${Date.now()}:` });
  try {
    const fleet = Array.from({ length: processes }, (_, i) => bench.start(`fleet-${i}`, { lists: ['logs'], intervalMs }));
    await Promise.all(fleet.map((process) => process.ready));
    await settled(bench, ['logs'], intervalMs);
    const times: number[] = [];
    for (let k = 0; k < kills; k++) {
      const poller = bench.polls(0, Infinity, 'logs').at(-1)!.worker!;
      const killedAt = Date.now();
      await fleet.find((process) => process.name === poller)!.kill();
      await until(() => bench.polls(killedAt, Infinity, 'logs').some((a) => a.worker !== poller), 30_000, 'another poller');
      times.push(bench.polls(killedAt, Infinity, 'logs').find((a) => a.worker !== poller)!.at - killedAt);
      await sleep(intervalMs);
    }
    return times;
  } finally {
    await bench.close();
  }
}

/** The rows of `npm run bench` (and `npm run bench:fleet-watch`). */
export async function fleetWatchBench(): Promise<Comparison[]> {
  const { redisMissing, startRedis } = await import('../test/redis/server');
  const missing = redisMissing();
  if (missing) {
    return [{ name: 'fleet-wide watches on Redis', value: `0 runs: ${missing}`, baseline: '—', ratio: null, goal: '≤ 1.1×', met: null }];
  }
  const redis = await startRedis();
  try {
    const shape = smoke
      ? { processes: 2, lists: ['logs'] as ListName[], intervalMs: 300, windowMs: 1_500, rounds: 1 }
      : { processes: 8, lists: Object.keys(LISTS) as ListName[], intervalMs: 500, windowMs: 10_000, rounds: 3 };
    const rounds = await requestsAndLatency(redis.url, shape);
    const fleetRequests = spread(rounds.map((r) => r.fleetRequests));
    const aloneRequests = spread(rounds.map((r) => r.aloneRequests));
    const latencies = rounds.flatMap((r) => r.latencies);
    const perInterval = (requests: typeof fleetRequests) =>
      format(
        {
          median: (requests.median * shape.intervalMs) / shape.windowMs,
          low: (requests.low * shape.intervalMs) / shape.windowMs,
          high: (requests.high * shape.intervalMs) / shape.windowMs,
        },
        'requests per interval',
        1,
      );
    const what = `a fleet of ${shape.processes} processes watching ${shape.lists.length} list${shape.lists.length > 1 ? 's' : ''} every ${shape.intervalMs} ms on Redis`;
    const failoverFleet = smoke ? 2 : 8;
    const failover = await failovers(redis.url, { processes: failoverFleet, intervalMs: shape.intervalMs, kills: smoke ? 1 : 5 });
    const failoverRow = row(
      `a fleet of ${failoverFleet} processes watching the logs every ${shape.intervalMs} ms on Redis: failover, from SIGKILL of the polling process to another's first poll`,
      format(spread(failover), 'ms'),
      `interval ${shape.intervalMs} ms`,
      spread(failover.map((ms) => ms / shape.intervalMs)),
      '≤ 2.5×',
    );
    failoverRow.note = `${failover.length} kills in turn: ${failover.join(', ')} ms. The lease lasts 2 intervals and is renewed every half interval; the others try to take it every half interval, and the new poller polls at once from the cursor in Redis.`;
    return [
      row(
        `${what}: requests per interval, the fleet ÷ one process alone (same window)`,
        perInterval(fleetRequests),
        `one process alone: ${perInterval(aloneRequests)}`,
        spread(rounds.map((r) => r.ratio)),
        '≤ 1.1×',
      ),
      {
        name: `${what}: delivery latency, from the poll that found an item to each process's loop`,
        value: `p50 ${quantile(latencies, 0.5)} ms, p99 ${quantile(latencies, 0.99)} ms (${latencies.length} deliveries)`,
        baseline: '—',
        ratio: null,
        goal: null,
        met: null,
      },
      failoverRow,
    ];
  } finally {
    await redis.stop();
  }
}

await runWhenMain(import.meta.url, fleetWatchBench);
