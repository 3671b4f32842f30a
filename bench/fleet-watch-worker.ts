/**
 * One process of a watching fleet (test/redis/fleet-processes.test.ts, bench/fleet-watch.ts): a
 * client of the HTTP mock, its rate-limit budget in Redis, watches `lists` on a `redisFleet`
 * (or alone, `fleet: false`: the one-watcher baseline) and prints one JSON line per item its
 * loops are given, `{ list, id, at }` (`at`: `Date.now()` in the loop), and one line for a
 * watch that ends with an error, `{ list, error }` (its name and message). Its requests carry
 * `x-fleet-worker: <name>`, so the mock tells who polled. It prints `ready` once its watches
 * are made; "stop" on stdin ends them (`return()`), then it prints `stopped` and exits. Started
 * `held`, it loads, connects and prints `loaded`, then makes its watches only on a "go" line: a
 * test can have a process ready to take over at the very moment another dies, however long a
 * process takes to start on a loaded machine. Argument: `{ baseUrl, token, redisUrl, library,
 * lists, intervalMs, delivery, consumer, prefix, name, fleet, handleMs, held }`, as JSON (see `WatchWorker`).
 */
import { createInterface } from 'node:readline';
import { CommunityServerClient, type Watch } from 'community-server-sdk';
import { redisFleet, redisRateLimitStore, type RedisClient } from 'community-server-sdk/redis';

/** What a watching worker is told. */
export interface WatchWorker {
  baseUrl: string;
  token: string;
  redisUrl: string;
  library: 'ioredis' | 'redis';
  /** Client namespaces whose `list()` it watches: `logs`, `members`, `shifts`, `loas`, `joinRequests`. */
  lists: string[];
  intervalMs: number;
  delivery: 'every' | 'once';
  consumer?: string | undefined;
  prefix: string;
  name: string;
  /** `false`: local watches, no fleet (what one process alone sends). */
  fleet: boolean;
  /** How long its loop takes over each item before it asks for the next (default 0). */
  handleMs?: number | undefined;
  /** Wait for a "go" line on stdin before making the watches (it prints `loaded` first). */
  held?: boolean | undefined;
}

const argument = JSON.parse(process.argv[2] ?? '{}') as WatchWorker;
const commands = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

async function connect(): Promise<RedisClient> {
  if (argument.library === 'ioredis') {
    const { Redis } = await import('ioredis');
    const redis = new Redis(argument.redisUrl, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    redis.on('error', () => {});
    return redis;
  }
  const { createClient } = await import('redis');
  const redis = createClient({ url: argument.redisUrl, socket: { reconnectStrategy: () => 50 } });
  redis.on('error', () => {});
  return redis.connect();
}

const redis = await connect();
const name = argument.name;
const fetch: typeof globalThis.fetch = (input, init) => {
  const request = new Request(input, init);
  request.headers.set('x-fleet-worker', name);
  return globalThis.fetch(request);
};
const client = new CommunityServerClient({
  token: argument.token,
  baseUrl: argument.baseUrl,
  fetch,
  rateLimit: redisRateLimitStore(redis, { prefix: `${argument.prefix}rate-limit:` }),
  timeout: 60_000,
});
if (argument.held) {
  process.stdout.write('loaded\n');
  await commands.next(); // "go"
}
const fleet = argument.fleet ? redisFleet(redis, { prefix: argument.prefix }) : undefined;
const options = fleet ? { fleet, delivery: argument.delivery, consumer: argument.consumer } : {};
type Lists = Record<string, { list(params: { pageSize: number }): { watch(options: object): Watch<Record<string, unknown>> } }>;
const feeds = argument.lists.map((list) => ({
  list,
  feed: (client as unknown as Lists)[list]!.list({ pageSize: 20 }).watch({ intervalMs: argument.intervalMs, ...options }),
}));
const loops = feeds.map(async ({ list, feed }) => {
  try {
    for await (const item of feed) {
      process.stdout.write(`${JSON.stringify({ list, id: item.id ?? item.userId, at: Date.now() })}\n`);
      if (argument.handleMs) await new Promise((resolve) => setTimeout(resolve, argument.handleMs));
    }
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ list, error: `${(error as Error).name}: ${(error as Error).message}` })}\n`);
  }
});
process.stdout.write('ready\n');
await commands.next(); // "stop"
await Promise.all(feeds.map(({ feed }) => feed.return()));
await Promise.all(loops);
process.stdout.write('stopped\n');
process.exit(0);
