/**
 * `redisFleet`: the watches of one list, in any number of processes, poll it once between them
 * (see `member.ts` for how, and `script.ts` for what lives in Redis).
 * @module
 */
import { checkOptions } from '../../core/arguments';
import { InvalidArgumentError } from '../../core/errors';
import { FOLLOW, type WatchFleet } from '../../core/watch/fleet';
import { blockingConnection, hasMethods, isRedisClient, runner, script, type RedisClient } from '../connection';
import { follow, type Fleet } from './member';
import { FLEET_SCRIPT } from './script';

/**
 * Options of {@link redisFleet}.
 * @example
 * const options: RedisFleetOptions = { prefix: 'my-bot:watch:', maxLength: 50_000 };
 */
export interface RedisFleetOptions {
  /** Put before every key the fleet writes (default `community-server-sdk:fleet:`). */
  prefix?: string | undefined;
  /**
   * Entries each list's stream keeps, about (`XADD … MAXLEN ~`; default 10,000, a whole number
   * ≥ 1): what a process may fall behind by and still read every item from the stream. One that
   * falls further behind is warned of and catches up by reading the list itself.
   */
  maxLength?: number | undefined;
}

/**
 * Fleet-wide watches on Redis: pass the result as `fleet` to `watch()`, and the processes
 * watching the same list (same token and service, endpoint, ids and parameters) poll it once
 * between them. One holds a lease and polls, with the watch's cursor kept in Redis; the others
 * are handed the items through a Redis stream: every item to every process
 * (`delivery: 'every'`, the default), or each to one (`'once'`, a consumer group). When the
 * polling process dies, another takes over from the same cursor within about two intervals.
 * The poller's requests spend the client's rate-limit budget like any other (share it too, with
 * `redisRateLimitStore`).
 *
 * `redis` is a connected ioredis or node-redis client (Redis 6.2 or later); each watch also
 * opens a connection of its own for its blocking reads (the client's `duplicate()`), closed
 * when it ends. Nothing of the token reaches Redis: a list is named by a hash. If Redis fails,
 * the fleet warns once; an `'every'` watch polls the list on its own meanwhile and rejoins when
 * Redis answers, missing nothing; a `'once'` watch waits for it.
 * @example
 * import { Redis } from 'ioredis';
 * import { CommunityServerClient } from 'community-server-sdk';
 * import { redisFleet, redisRateLimitStore } from 'community-server-sdk/redis';
 *
 * const redis = new Redis(process.env.REDIS_URL!);
 * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com', rateLimit: redisRateLimitStore(redis, { prefix: 'my-bot:budget:' }) });
 * const fleet = redisFleet(redis, { prefix: 'my-bot:watch:' });
 * for await (const log of client.logs.list({ pageSize: 50 }).watch({ fleet, intervalMs: 5_000 })) console.log(log.text);
 */
export function redisFleet(redis: RedisClient, options: RedisFleetOptions = {}): WatchFleet {
  if (!isRedisClient(redis) || !hasMethods(redis, 'duplicate')) {
    throw new InvalidArgumentError('redisFleet needs an ioredis or node-redis client (with eval, evalsha/evalSha and duplicate)');
  }
  // A prefix passed bare, or misnamed (ioredis's `keyPrefix`), would leave this fleet on the default prefix, apart.
  checkOptions(options ?? undefined, ['prefix', 'maxLength'], 'redisFleet');
  const { prefix = 'community-server-sdk:fleet:', maxLength = 10_000 } = options ?? {};
  if (typeof prefix !== 'string') throw new InvalidArgumentError('prefix must be a string');
  if (!Number.isSafeInteger(maxLength) || maxLength < 1) throw new InvalidArgumentError('maxLength must be a whole number >= 1');
  const fleet: Fleet = {
    run: runner(redis),
    script: script(FLEET_SCRIPT),
    blocking: () => blockingConnection(redis),
    prefix,
    maxLength,
    warned: false,
  };
  return { [FOLLOW]: (watch) => follow(fleet, watch) };
}
