/**
 * `community-server-sdk/redis`: a rate-limit budget in Redis, shared by every client of one token
 * in any number of processes or machines.
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
 * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com', rateLimit: redisRateLimitStore(redis) });
 * @module community-server-sdk/redis
 */
import { InvalidArgumentError } from './core/errors';
import type { RateLimitStore } from './core/rate-limit-store';
import { SCRIPT } from './redis/script';

/**
 * A connected Redis client: an ioredis `Redis` (or `Cluster`), or a node-redis v4, v5 or v6 client
 * (6.2 or later reconnects reliably after Redis restarts).
 * Only the shape is named (any `eval` and `evalsha`/`evalSha`): the libraries' own signatures
 * are many-overloaded, and neither is imported.
 * @example
 * import { createClient } from 'redis';
 * const redis: RedisClient = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).connect();
 */
export type RedisClient =
  | {
      /** ioredis: `EVALSHA sha numkeys key… arg…`. */
      evalsha: (...args: never[]) => unknown;
      /** ioredis: `EVAL script numkeys key… arg…`. */
      eval: (...args: never[]) => unknown;
    }
  | {
      /** node-redis: `evalSha(sha, { keys, arguments })`. */
      evalSha: (...args: never[]) => unknown;
      /** node-redis: `eval(script, { keys, arguments })`. */
      eval: (...args: never[]) => unknown;
    };

/**
 * Options of {@link redisRateLimitStore}.
 * @example
 * const options: RedisRateLimitStoreOptions = { prefix: 'my-bot:rate-limit:', leaseMs: 120_000 };
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

/** Runs the script with its keys and string arguments: `EVALSHA`, and `EVAL` once Redis lacks it. */
type Run = (sha: string, keys: string[], args: string[]) => Promise<unknown>;

/**
 * Refuses at once while the client is not connected. Both libraries would queue the command and
 * send it on reconnecting: a spend would then wait out the store's timeout, and a record would
 * reach Redis late, its `resetInMs` stale, and open a window that is not the service's.
 */
function connected(state: string | boolean | undefined): void {
  if (state !== undefined && state !== true && state !== 'ready') throw new Error(`Redis is not connected (${String(state)})`);
}

function runner(redis: RedisClient): Run {
  if (typeof (redis as { evalSha?: unknown }).evalSha === 'function') {
    // node-redis: options objects.
    const client = redis as unknown as {
      isReady?: boolean;
      evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
      eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
    };
    return async (sha, keys, args) => {
      connected(client.isReady);
      return orLoad(client.evalSha(sha, { keys, arguments: args }), () => client.eval(SCRIPT, { keys, arguments: args }));
    };
  }
  // ioredis: positional, with the number of keys first. Until its first connection is ready, an
  // ioredis client ('wait' when lazy, else 'connecting') is let queue: nothing is stale yet.
  const client = redis as unknown as {
    status?: string;
    evalsha(sha: string, keys: number, ...args: string[]): Promise<unknown>;
    eval(script: string, keys: number, ...args: string[]): Promise<unknown>;
  };
  let wasReady = false;
  return async (sha, keys, args) => {
    wasReady ||= client.status === 'ready';
    if (wasReady) connected(client.status);
    return orLoad(client.evalsha(sha, keys.length, ...keys, ...args), () => client.eval(SCRIPT, keys.length, ...keys, ...args));
  };
}

/** A Redis that has not seen the script yet (new, restarted, flushed) answers `NOSCRIPT`: send it whole. */
async function orLoad(attempt: Promise<unknown>, load: () => Promise<unknown>): Promise<unknown> {
  try {
    return await attempt;
  } catch (error) {
    if (error instanceof Error && error.message.includes('NOSCRIPT')) return load();
    throw error;
  }
}

async function sha1(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
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
 * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com', rateLimit: redisRateLimitStore(redis, { prefix: 'my-bot:' }) });
 */
export function redisRateLimitStore(redis: RedisClient, options: RedisRateLimitStoreOptions = {}): RateLimitStore {
  const shaped = (name: string) => typeof (redis as Record<string, unknown> | null)?.[name] === 'function';
  if (!(shaped('eval') && (shaped('evalsha') || shaped('evalSha')))) {
    throw new InvalidArgumentError('redisRateLimitStore needs an ioredis or node-redis client (with eval and evalsha/evalSha)');
  }
  const { prefix = 'community-server-sdk:rate-limit:', leaseMs = 120_000 } = options ?? {};
  if (typeof prefix !== 'string') throw new InvalidArgumentError('prefix must be a string');
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 1) throw new InvalidArgumentError('leaseMs must be whole ms >= 1');
  const run = runner(redis);
  const sha = sha1(SCRIPT);
  // The hash tag puts every key of a window in one Cluster slot, as one script's keys must be.
  const call = async (key: string, args: string[]) => {
    const window = `${prefix}{${key}}`;
    return Number(await run(await sha, [window, `${window}:leases`, `${window}:queue`, `${window}:waiting`], args));
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
