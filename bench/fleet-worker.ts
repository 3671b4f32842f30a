/**
 * One process of a fleet (test/redis/rate-limit-store.test.ts, bench/fleet.ts, bench/fairness.ts): a client
 * sharing its token's rate-limit budget through Redis loads the HTTP mock, then prints what it
 * saw as JSON (`{ items, served, statuses, ms }`). Argument: `{ baseUrl, token, redisUrl, library,
 * pageSize, mode, loops, durationMs, burst }`, as JSON (see `Argument`); `library` is `ioredis` or
 * `redis` (node-redis); `mode` is `for-await` or `concurrent` (walks of a list), `loops` (`loops`
 * callers back to back for `durationMs`) or `burst` (`burst` requests at once).
 * The parent says "go" on stdin, so that every process starts at the same moment.
 */
import { CommunityServerClient } from 'community-server-sdk';
import { redisRateLimitStore } from 'community-server-sdk/redis';
import { connectRedis } from './connect-redis';
import { race } from './loops';

interface Argument {
  baseUrl: string;
  token: string;
  redisUrl: string;
  library: 'ioredis' | 'redis';
  pageSize: number;
  mode: 'for-await' | 'concurrent' | 'loops' | 'burst';
  loops?: number;
  durationMs?: number;
  burst?: number;
}
const {
  baseUrl,
  token,
  redisUrl,
  library,
  pageSize,
  mode,
  loops = 1,
  durationMs = 0,
  burst = 1,
} = JSON.parse(process.argv[2] ?? '{}') as Argument;

const { redis, close } = await connectRedis(library, redisUrl);
const statuses: Record<number, number> = {};
const fetch: typeof globalThis.fetch = async (input, init) => {
  const response = await globalThis.fetch(input, init);
  statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  return response;
};
const client = new CommunityServerClient({ token, baseUrl, fetch, rateLimit: redisRateLimitStore(redis), timeout: 60_000 });
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const start = performance.now();
let items = 0;
let served: number[] = [];
// Each loop, and each call of a burst, asks for a page of its own: identical GETs at once would be sent once.
const page = (n: number) => client.roles.list({ pageSize, page: n + 1 });
if (mode === 'concurrent') items = (await client.members.list({ pageSize }).toArray({ concurrency: 4 })).length;
else if (mode === 'loops') served = await race(loops, durationMs, page);
else if (mode === 'burst') items = (await Promise.all(Array.from({ length: burst }, (_, i) => page(i)))).length;
else for await (const _ of client.members.list({ pageSize })) items++;
const ms = performance.now() - start;
process.stdout.write(`${JSON.stringify({ items, served, statuses, ms })}\n`);
await close().catch(() => {}); // already closing: nothing left to send
process.stdin.destroy();
