/**
 * The cache's default store: in-process, a least-recently-used map bounded by `maxEntries`. In a
 * module of its own, beside the contract (`cache-store.ts`), so it loads with the cache.
 * @module
 */
import type { CacheStore } from './cache-store';

/**
 * The default store: a `Map` in insertion order, each read moving its entry to the end, so once
 * `maxEntries` are held the first is the least recently used, and goes. Twenty lines rather than
 * a library: `lru-cache` would add ~5 KB to the client for what a `Map` already keeps.
 */
export function memoryStore(maxEntries: number): CacheStore {
  const entries = new Map<string, { value: string; expires: number }>();
  /** One client's store: one scope, so one count of invalidations is its epoch. */
  let invalidations = 0;
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (entry.expires <= Date.now()) return undefined;
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, ttlMs, epoch) {
      if (epoch !== String(invalidations)) return;
      entries.delete(key);
      entries.set(key, { value, expires: Date.now() + ttlMs });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    invalidate(prefix) {
      invalidations++;
      for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
    },
    epoch: () => String(invalidations),
  };
}
