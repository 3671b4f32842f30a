/**
 * Live lists: a query whose data is a list's first page, kept current by a `watch()` of the list
 * while the query is observed.
 *
 * The watch belongs to the query in the cache, not to one fetch. The query function reads the
 * first page and, when the query has an observer and no watch, starts one from that page (its
 * baseline, so nothing between the read and the watch is missed). The last observer leaving
 * stops it, its request or wait aborted (the query cache's own events say when). The next
 * observer's mount refetches the query (a live query is always stale), which starts the watch
 * again. A refetch while the watch runs only reads the first page again: one watch at a time.
 * @module
 */
import type { QueryCache, QueryClient, QueryKey } from '@tanstack/query-core';
import type { PagePromise } from '../core/pagination';
import type { Watch } from '../core/watch/watch';
import { onceEach } from './once';
import type { LiveData } from './types';

/** Items a live list keeps, newest first: older ones drop off the end, so memory stays bounded. */
export const LIVE_MAX_ITEMS = 200;

/** The list a live query follows. */
export interface LiveList {
  /** Sends the list request (its first page), with `signal` when given. */
  open(signal: AbortSignal): PagePromise<unknown>;
  /** The field that identifies an item (the list's watch key: `id`, `userId`…). */
  readonly id: string;
  readonly intervalMs: number | undefined;
}

type Item = Record<string, unknown>;
/** What the query function reads of TanStack's context (see `LiveQueryOptions`). */
type LiveContext = { readonly signal: AbortSignal; readonly client: QueryClient; readonly queryKey: QueryKey };

/** `fresh` then `kept`, each id once (the first copy wins), at most {@link LIVE_MAX_ITEMS}. */
const merge = (fresh: readonly unknown[], kept: readonly unknown[], list: LiveList) =>
  onceEach([...fresh, ...kept] as Item[], list.id).slice(0, LIVE_MAX_ITEMS);

/** The running watch of each live query (by its `Query` in the cache). */
const watches = new WeakMap<object, Watch<unknown>>();
const heard = new WeakSet<QueryCache>();

/** Listens (once per cache) for the last observer of a live query leaving, and for its removal. */
function listen(cache: QueryCache): void {
  if (heard.has(cache)) return;
  heard.add(cache);
  cache.subscribe(({ type, query }) => {
    if ((type === 'observerRemoved' && query.getObserversCount() === 0) || type === 'removed') {
      watches.get(query)?.close();
      watches.delete(query);
    }
  });
}

/**
 * The query function of a live list: reads the first page (the query's `signal` aborts it) and
 * merges it before the items the query holds; starts the watch from it when the query is
 * observed and has none. The watch puts each item it finds first; a watch that fails (a 401,
 * 403 or 404: what it does not retry) ends, and its failure becomes the query's error.
 */
export function liveQueryFn(list: LiveList) {
  return async ({ client, queryKey, signal }: LiveContext): Promise<LiveData<unknown>> => {
    const cache = client.getQueryCache();
    listen(cache);
    const pages = list.open(signal);
    const page = await pages;
    const query = cache.find({ queryKey, exact: true });
    if (query && !watches.has(query) && query.getObserversCount() > 0) {
      const watch = pages.watch({ intervalMs: list.intervalMs });
      watches.set(query, watch);
      void (async () => {
        try {
          for await (const item of watch) {
            client.setQueryData<LiveData<unknown>>(queryKey, (data) => data && { data: merge([item], data.data, list) });
          }
        } catch (error) {
          // A stopped watch ends quietly; this one failed for good (a 401, 403, 404: what it does
          // not retry). That becomes the query's error, as a failed refetch's would, the items
          // kept; Retry (a refetch) reads the list again and starts a new watch. Not a refetch of
          // its own: a failure the first page does not show (an item with no id) would loop.
          watches.delete(query);
          query.setState({ ...query.state, status: 'error', error: error as Error });
        }
      })();
    }
    return { data: merge(page.data, client.getQueryData<LiveData<unknown>>(queryKey)?.data ?? [], list) };
  };
}
