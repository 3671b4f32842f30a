/**
 * `community-server-sdk/redis`: a rate-limit budget in Redis, shared by every client of one token
 * in any number of processes or machines (`redisRateLimitStore`); a cache in Redis, shared by a
 * fleet's processes, that sends a GET the fleet asks for at once only once (`redisCacheStore`);
 * and watches the processes share, each list polled once for all of them (`redisFleet`).
 *
 * Each request spends from the window in one Lua script (one round trip, atomic on the server),
 * timed by Redis's own clock (`TIME`), so machines whose clocks disagree still share one window.
 * Neither ioredis nor node-redis is imported: the caller passes a connected client of either.
 * @example
 * import { Redis } from 'ioredis';
 * import { CommunityServerClient } from 'community-server-sdk';
 * import { redisRateLimitStore } from 'community-server-sdk/redis';
 *
 * const redis = new Redis(process.env.REDIS_URL!);
 * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com', rateLimit: redisRateLimitStore(redis, { prefix: 'my-bot:budget:' }) });
 * @module community-server-sdk/redis
 */
import { checkOptions } from './core/arguments';
import { InvalidArgumentError } from './core/error-classes';
import type { RateLimitStore } from './core/rate-limit-store';
import { checkRedisClient, scriptRunner, type RedisClient } from './redis/connection';
import { SCRIPT } from './redis/script';

export type { RedisClient } from './redis/connection';
export { redisCacheStore, type RedisCacheStoreOptions } from './redis/cache';
export { redisFleet, type RedisFleetOptions } from './redis/fleet/index';
export type { FleetDelivery, WatchFleet } from './core/watch/fleet';

/**
 * Options of {@link redisRateLimitStore}.
 * @example
 * const options: RedisRateLimitStoreOptions = { prefix: 'my-bot:budget:', leaseMs: 120_000 };
 */
export interface RedisRateLimitStoreOptions {
  /** Put before every key the store writes (default `community-server-sdk:rate-limit:`). */
  prefix?: string | undefined;
  /**
   * How long a request sent and not yet answered counts against the window, in ms (default
   * 120000, a whole number ≥ 1). Past it, the request no longer counts: a client that dies with
   * requests out (a crash, `kill -9`) holds back the shared budget that long and no longer, and
   * an attempt still out by then is no longer counted either, so keep it above the clients'
   * `timeout` (one attempt's limit, 30 s by default).
   */
  leaseMs?: number | undefined;
}

/**
 * A {@link RateLimitStore} in Redis, for `rateLimit`: the clients of one token, in any number of
 * processes or machines, spend one window's budget together and wait for its reset together.
 * `redis` is a connected ioredis or node-redis client (give a node-redis client an `error`
 * listener, as node-redis asks, or a lost connection ends the process). If Redis cannot be
 * reached, or stops answering within half a second, each client goes on with its own budget,
 * warns once, and comes back to the shared one when Redis answers again. Each request out holds
 * a lease in Redis until its answer is recorded or `leaseMs` passes, so a client that crashes
 * mid-request shrinks the shared budget for that long only.
 * @example
 * import { createClient } from 'redis';
 * import { CommunityServerClient } from 'community-server-sdk';
 * import { redisRateLimitStore } from 'community-server-sdk/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).on('error', (error) => console.error(error)).connect();
 * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com', rateLimit: redisRateLimitStore(redis, { prefix: 'my-bot:budget:' }) });
 */
export function redisRateLimitStore(redis: RedisClient, options: RedisRateLimitStoreOptions = {}): RateLimitStore {
  checkRedisClient(redis, 'redisRateLimitStore');
  // A prefix passed bare, or misnamed (ioredis's `keyPrefix`), would leave this store on the
  // default prefix: a budget of its own, beside the fleet's.
  checkOptions(options ?? undefined, ['prefix', 'leaseMs'], 'redisRateLimitStore');
  const { prefix = 'community-server-sdk:rate-limit:', leaseMs = 120_000 } = options ?? {};
  if (typeof prefix !== 'string') throw new InvalidArgumentError('prefix must be a string');
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 1) throw new InvalidArgumentError('leaseMs must be whole ms >= 1');
  const run = scriptRunner(redis, SCRIPT);
  // The hash tag puts every key of a window in one Cluster slot, as one script's keys must be.
  const call = async (key: string, args: string[]) => {
    const window = `${prefix}{${key}}`;
    return Number(await run([window, `${window}:leases`, `${window}:queue`, `${window}:waiting`], args));
  };
  // A request's ticket is its lease too: its record frees exactly its own.
  return {
    spend: async (key, ticket) => {
      // Without one, the queue would keep a place for a request that can never claim it.
      if (typeof ticket !== 'string' || ticket === '') throw new InvalidArgumentError("spend(key, ticket) needs the request's ticket");
      return call(key, ['spend', ticket, String(leaseMs)]);
    },
    record: async (key, window, ticket) => {
      const lease = typeof ticket === 'string' ? ticket : ''; // none: a check whether Redis is back, freeing nothing
      const answer = window ? [String(window.remaining), String(Math.round(window.resetInMs))] : window === null ? ['none'] : [];
      await call(key, ['record', lease, ...answer]);
    },
  };
}
