/**
 * Where a client's cache keeps its entries: the {@link CacheStore} contract. The default
 * in-process store is `memory-store.ts`'s, which loads with the cache.
 * @module
 */

/**
 * Where cached answers live (`cache: { ttlMs, store }`): the client's own in-process store by
 * default; `redisCacheStore` from `community-server-sdk/redis` shares them across processes.
 *
 * Keys read `<scope>:<method>:<path and query>`, e.g. `3f…9a:members.get:/api/v1/server/members/42`:
 * `<scope>` is a hash of the base URL and the token (never the token), so clients of two
 * tokens on one store never see each other's entries. Values are opaque text. `invalidate`
 * gets a prefix of such keys that ends at a `:` or a `.` (`<scope>:`, `<scope>:members.`,
 * `<scope>:members.get:`) and removes every entry under it. A method may answer at once or with
 * a promise; one that throws, rejects or takes longer than half a second counts as a failure:
 * the client warns once, answers from the service, and tries the store again a moment later.
 *
 * `epoch` fences invalidations: the client reads it before it sends a request, and hands it to
 * the `set` of the answer, which stores nothing once an `invalidate` of the scope has run since;
 * so an answer fetched before an invalidation, by any client on the store, is never stored as
 * fresh after it. A client refuses a store without `epoch`.
 *
 * `claim` and `release` are for a store shared by processes: on a miss, the client claims the
 * key before it sends; `claim` resolves `undefined` when this process is the one to send
 * (its `set`, or `release` on a failure, ends the claim), or the value another process stored
 * while this one waited for it (at most `waitMs`, then `undefined` too).
 * @example
 * import { CommunityServerClient, type CacheStore } from 'community-server-sdk';
 *
 * // A store of your own, e.g. to count what the cache does (no bound on size: a sketch):
 * const entries = new Map<string, { value: string; expires: number }>();
 * let invalidations = 0;
 * const store: CacheStore = {
 *   get: (key) => {
 *     const entry = entries.get(key);
 *     return entry && entry.expires > Date.now() ? entry.value : undefined;
 *   },
 *   set: (key, value, ttlMs, epoch) => {
 *     if (epoch === String(invalidations)) entries.set(key, { value, expires: Date.now() + ttlMs });
 *   },
 *   invalidate: (prefix) => {
 *     invalidations++;
 *     for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
 *   },
 *   epoch: () => String(invalidations),
 * };
 * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com', cache: { ttlMs: 60_000, store } });
 */
export interface CacheStore {
  /**
   * The value stored under `key`, or `undefined` (none, or expired).
   * @example
   * const value = await store.get(key);
   */
  get(key: string): string | undefined | Promise<string | undefined>;
  /**
   * Stores `value` under `key` for `ttlMs` milliseconds, unless the epoch of the key's scope is
   * no longer `epoch` (an `invalidate` ran since the client read it): checked and written in one
   * step, atomically for a store shared by processes.
   * @example
   * await store.set(key, value, 60_000, await store.epoch(scope));
   */
  set(key: string, value: string, ttlMs: number, epoch: string): void | Promise<void>;
  /**
   * Removes every entry whose key starts with `prefix`, and moves the epoch of its scope on.
   * @example
   * await store.invalidate(`${scope}:members.`); // what client.cache.invalidate('members') asks
   */
  invalidate(prefix: string): void | Promise<void>;
  /**
   * The epoch of `scope` (the `<scope>` of its keys): any text that changes whenever
   * `invalidate` runs on one of its prefixes (a count of invalidations will do), and never comes
   * back. A store whose epoch changes more often (one count for every scope) only stores less.
   * @example
   * const epoch = await store.epoch(scope); // read before the request is sent
   */
  epoch(scope: string): string | Promise<string>;
  /**
   * Optional: claims `key` for this process before it sends the request, so the processes that
   * share the store send it once. Resolves `undefined` when this process should send (the claim
   * is its own until its `set` or `release`, or another process gave up its claim, or `waitMs`
   * passed), or the value another process stored meanwhile. When `signal` aborts, it resolves
   * `undefined` at once (a rejection counts as a failure of the store).
   * @example
   * const stored = await store.claim?.(key, 30_000);
   */
  claim?(key: string, waitMs: number, signal?: AbortSignal): Promise<string | undefined>;
  /**
   * Optional: gives up this process's claim of `key` (its request failed), so the others stop waiting.
   * @example
   * await store.release?.(key);
   */
  release?(key: string): void | Promise<void>;
}

/**
 * Whether `value` has the four methods every {@link CacheStore} has: one without `epoch` cannot
 * keep an answer fetched before an invalidation out of the store, so it is refused.
 */
export const isCacheStore = (value: unknown): value is CacheStore =>
  typeof value === 'object' &&
  value !== null &&
  ['get', 'set', 'invalidate', 'epoch'].every((name) => typeof (value as Record<string, unknown>)[name] === 'function');
