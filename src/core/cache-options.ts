/**
 * The `cache` option and what `client.cache` is: the contract of the client's cache, and the
 * check of the option (at construction, before anything is sent). The cache itself
 * (`cache.ts`) loads only for a client given the option; coalescing (`coalesce.ts`) is always on.
 * @module
 */
import { checkOptions, checkTimeout, describe } from './arguments';
import { isCacheStore, type CacheStore } from './cache-store';
import { InvalidArgumentError } from './error-base';

/**
 * The client's `cache` option: GET answers are reused for `ttlMs`.
 * @example
 * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com', cache: { ttlMs: 5 * 60_000, maxEntries: 10_000 } });
 */
export interface CacheOptions {
  /** Milliseconds an answer is reused (1 to 2,147,483,647). */
  ttlMs: number;
  /**
   * Entries the in-process store holds (default 1,000); past it, the least recently used goes.
   * Not with `store`: a store of your own bounds itself (Redis: its `maxmemory` policy).
   */
  maxEntries?: number | undefined;
  /** Where entries live (default: in this process); `redisCacheStore` shares them across a fleet. */
  store?: CacheStore | undefined;
}

/**
 * What `client.cache.stats()` counts: every GET without `headers`, once, by where its answer
 * came from; a request sent is a miss as it goes, so a call that leaves before its answer still
 * counts the request it started.
 * @example
 * const { hits, misses, coalesced } = client.cache.stats();
 * console.log(`${hits} from the cache, ${coalesced} shared a request, ${misses} sent their own`);
 */
export interface CacheStats {
  /** Calls answered from the cache, with no request. */
  readonly hits: number;
  /** Calls that sent a request of their own (nothing fresh cached, no cache, `'reload'`, `'no-store'`, a health probe). */
  readonly misses: number;
  /** Calls that joined an identical request already in flight, and shared its answer. */
  readonly coalesced: number;
}

/**
 * `client.cache`: there with or without the `cache` option (coalescing is always on).
 * @example
 * await client.tokens.create({ name: 'ci' });
 * await client.cache.invalidate('tokens'); // tokens.list and tokens.current are fetched again
 * console.log(client.cache.stats());
 */
export interface ClientCache {
  /**
   * Drops this token's entries under `prefix`: `''` or none, every one; a group (`'members'`,
   * `'cad.calls'`), every method in it; a method (`'members.get'`), that one. Also in the store
   * (for a Redis store, every process's view); requests in flight then store nothing, in any
   * client on the store, and later calls do not join them. Rejects with `InvalidArgumentError`
   * for a name that is no method or group, and with `CommunityServerError` when the store fails.
   * @example
   * await client.members.get(id);            // cached
   * await client.cache.invalidate('members'); // members.get, members.list… fetched again
   */
  invalidate(prefix?: string): Promise<void>;
  /**
   * The counts so far (a copy).
   * @example
   * const before = client.cache.stats().hits;
   */
  stats(): CacheStats;
}

/** Checks the `cache` option, throwing `InvalidArgumentError` at construction. */
export function checkCacheOptions(options: unknown): asserts options is CacheOptions | undefined {
  checkOptions(options, ['ttlMs', 'maxEntries', 'store'], 'cache');
  if (options === undefined) return;
  const { ttlMs, maxEntries, store } = options;
  if (ttlMs === undefined) throw new InvalidArgumentError('cache needs ttlMs, the milliseconds an answer is reused');
  checkTimeout('cache.ttlMs', ttlMs);
  if (maxEntries !== undefined && !(Number.isSafeInteger(maxEntries) && (maxEntries as number) >= 1)) {
    throw new InvalidArgumentError(`cache.maxEntries must be a whole number ≥ 1, got ${describe(maxEntries)}`);
  }
  if (store !== undefined && !isCacheStore(store)) {
    throw new InvalidArgumentError(`cache.store must be a CacheStore (get, set, invalidate and epoch methods), got ${describe(store)}`);
  }
  if (store && maxEntries) {
    throw new InvalidArgumentError('cache.maxEntries bounds the in-process store; a store of your own bounds itself');
  }
}
