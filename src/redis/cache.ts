/**
 * `redisCacheStore`: a client's cache in Redis, shared by the processes of a fleet, with a claim
 * per key so that a GET the fleet asks for at once is sent by one process (see `cache-script.ts`).
 * @module
 */
import { checkOptions } from '../core/arguments';
import type { CacheStore } from '../core/cache-store';
import { InvalidArgumentError } from '../core/errors';
import { STORE_TIMEOUT_MS } from '../core/rate-limit-store';
import { sleep, withTimeout } from '../core/sleep';
import { CACHE_SCRIPT } from './cache-script';
import { checkRedisClient, scriptRunner, type RedisClient } from './connection';

/**
 * Options of {@link redisCacheStore}.
 * @example
 * const options: RedisCacheStoreOptions = { prefix: 'my-bot:cache:', lockMs: 5_000 };
 */
export interface RedisCacheStoreOptions {
  /** Put before every key the store writes (default `community-server-sdk:cache:`). */
  prefix?: string | undefined;
  /**
   * How long one process's claim on a key lasts, in ms (default 5,000; at most a call's
   * `timeout`): the others wait for its answer that long at most, then send their own. A
   * process that dies holding a claim holds the others back that long.
   */
  lockMs?: number | undefined;
}

/** Polls of a claimed key: 10 ms, doubling, up to this. */
const MAX_POLL_MS = 100;

/**
 * The levels `key` (`<scope>:<method>:<path>`) can be invalidated at: `''`, each group of its
 * method (`cad.`, `cad.calls.`), and its method (`cad.calls.list:`).
 */
function levelsOf(method: string): string[] {
  const parts = method.split('.');
  return ['', ...parts.slice(0, -1).map((_, i) => `${parts.slice(0, i + 1).join('.')}.`), `${method}:`];
}

/**
 * A {@link CacheStore} in Redis, for `cache: { ttlMs, store }`: the clients of a fleet, in any
 * number of processes or machines, share their cached answers, and a GET that several of them
 * ask for at once is sent by one (it claims the key with `SET NX PX`; the others poll for its
 * answer, 10 ms then doubling up to 100 ms, for `lockMs` at most, then send their own).
 * `client.cache.invalidate()` reaches every process's view at once: it bumps a generation in
 * Redis, so entries stored before it are misses everywhere (O(1), no `KEYS` nor `SCAN`; the
 * stale entries expire with their TTL), and an answer any process fetched before it is not
 * stored after it (the store's epoch, checked in the same script as the write). Entries expire after the client's `ttlMs` (`PX`);
 * `maxEntries` is not for this store: bound its memory with Redis's own `maxmemory` and an
 * eviction policy (`volatile-lru` evicts only what has a TTL, every entry here). Keys hold the
 * token's identity (a hash), values the answers: nothing of the token. `redis` is a connected
 * ioredis or node-redis client; when Redis cannot be reached or stops answering, each client
 * warns once and answers from the service until Redis answers again.
 * @example
 * import { Redis } from 'ioredis';
 * import { CommunityServerClient } from 'community-server-sdk';
 * import { redisCacheStore, redisRateLimitStore } from 'community-server-sdk/redis';
 *
 * const redis = new Redis(process.env.REDIS_URL!);
 * const client = new CommunityServerClient({
 *   token: process.env.TOKEN,
 *   baseUrl: 'https://api.example.com',
 *   rateLimit: redisRateLimitStore(redis, { prefix: 'my-bot:budget:' }),
 *   cache: { ttlMs: 5 * 60_000, store: redisCacheStore(redis, { prefix: 'my-bot:cache:' }) },
 * });
 */
export function redisCacheStore(redis: RedisClient, options: RedisCacheStoreOptions = {}): CacheStore {
  checkRedisClient(redis, 'redisCacheStore');
  // A prefix passed bare, or misnamed (ioredis's `keyPrefix`), would leave this store on the
  // default prefix: a cache of its own, beside the fleet's.
  checkOptions(options ?? undefined, ['prefix', 'lockMs'], 'redisCacheStore');
  const { prefix = 'community-server-sdk:cache:', lockMs = 5_000 } = options ?? {};
  if (typeof prefix !== 'string') throw new InvalidArgumentError('prefix must be a string');
  if (!Number.isSafeInteger(lockMs) || lockMs < 1) throw new InvalidArgumentError('lockMs must be whole ms >= 1');
  const run = scriptRunner(redis, CACHE_SCRIPT);
  /** This store's claims in flight, by key: the owner its `set` or `release` names. */
  const owners = new Map<string, string>();
  const id = Math.random().toString(36).slice(2);
  let claims = 0;

  /** The hash tag and start of every key of `scope`. */
  const base = (scope: string) => {
    if (!scope || scope.includes(':')) throw new InvalidArgumentError('a cache scope is the part of a key before its first ":"');
    return `${prefix}{${scope}}:`;
  };
  /** Runs `op` on `key` (`<scope>:<method>:<path and query>`). */
  const call = (op: string, key: string, owner = '', ms = 0, value = '', epoch = '') => {
    const scope = key.slice(0, key.indexOf(':'));
    const rest = key.slice(scope.length + 1);
    const method = rest.slice(0, rest.indexOf(':'));
    if (!scope || !method) throw new InvalidArgumentError('a cache key reads <scope>:<method>:<path and query>');
    const keys = base(scope);
    // Each round trip bounded: a claim's wait is long, but no one step of it may hang on Redis.
    return withTimeout(
      () => run([`${keys}gen`, `${keys}e:${rest}`, `${keys}c:${rest}`], [op, owner, String(ms), value, epoch, ...levelsOf(method)]),
      STORE_TIMEOUT_MS,
    );
  };
  const ended = (key: string) => {
    const owner = owners.get(key) ?? '';
    owners.delete(key);
    return owner;
  };

  return {
    get: async (key) => ((await call('get', key)) as string | null) ?? undefined,
    set: async (key, value, ttlMs, epoch) => void (await call('set', key, ended(key), ttlMs, value, epoch)),
    release: async (key) => void (await call('release', key, ended(key))),
    async invalidate(prefixOfKeys) {
      const scope = prefixOfKeys.slice(0, prefixOfKeys.indexOf(':'));
      if (!scope) throw new InvalidArgumentError('an invalidation prefix reads <scope>:<level>');
      await run([`${base(scope)}gen`], ['invalidate', '', '0', '', '', prefixOfKeys.slice(scope.length + 1)]);
    },
    epoch: async (scope) => String(await withTimeout(() => run([`${base(scope)}gen`], ['epoch']), STORE_TIMEOUT_MS)),
    async claim(key, waitMs, signal) {
      const bound = Math.min(lockMs, waitMs);
      const owner = `${id}:${claims++}`;
      const [state, text] = (await call('claim', key, owner, bound)) as [string, string?];
      if (state === 'claimed') owners.set(key, owner);
      if (state !== 'wait') return text;
      for (let pause = 10, until = Date.now() + bound; Date.now() < until && !signal?.aborted; pause = Math.min(pause * 2, MAX_POLL_MS)) {
        await sleep(Math.min(pause, until - Date.now()), signal).catch(() => undefined);
        if (signal?.aborted) break;
        const [now, found] = (await call('poll', key)) as [string, string?];
        if (now !== 'wait') return found; // the answer, or no claim left (its process failed): this one sends
      }
      return undefined;
    },
  };
}
