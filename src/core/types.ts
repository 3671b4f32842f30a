/**
 * The shapes the client's modules share: what a caller passes (`RequestOptions`, `ListParams`)
 * and what an endpoint's line declares (`PathPart`, `WatchKeys`). A leaf: it imports nothing, so
 * no module needs another only for a type.
 * @module
 */

/**
 * Options every method takes as its last argument; never sent as query parameters.
 * @example
 * const controller = new AbortController();
 * await client.members.get(id, { signal: controller.signal, timeout: 5000, maxRetries: 0, headers: { 'x-request-id': 'abc' } });
 * await client.members.get(id, { cache: 'reload' }); // skip the cache's entry, store the new answer
 * await client.members.list({ pageSize: 50 }, { timeout: 10_000 }); // lists: params first, options last
 */
export interface RequestOptions {
  /** Aborts the request (and any retry wait); the call rejects with `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Milliseconds per attempt; overrides the client's `timeout`. */
  timeout?: number | undefined;
  /** Retries of this call (GET only); overrides the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /**
   * Extra request headers. `Authorization` is always the client's own. A call with headers is
   * its own request: it neither joins one in flight nor reads or fills the cache (headers can
   * change the answer, and can hold a secret that must not reach a cache key).
   */
  headers?: Record<string, string> | undefined;
  /**
   * How a GET uses the client's cache (see {@link CacheMode}); default `'default'`.
   * @example
   * const fresh = await client.members.get(id, { cache: 'reload' }); // after a change: fetched, then stored
   */
  cache?: CacheMode | undefined;
}

/**
 * How one GET uses the cache: `'default'` answers from it while an entry is fresh (else fetches,
 * and stores the answer), and joins an identical GET already in flight; `'reload'` fetches,
 * then stores; `'no-store'` fetches, and stores nothing. `'reload'` and `'no-store'` never join
 * a request already in flight (it may have left before a change the caller knows of); later
 * calls may join theirs. Without the client's `cache` option, only the joining differs.
 * @example
 * await client.health.ready({ cache: 'no-store' }); // a probe reports the state now
 */
export type CacheMode = 'default' | 'reload' | 'no-store';

/**
 * Paging and ordering of a list request, sent as query parameters.
 * @example
 * const params: ListParams = { page: 2, pageSize: 50, orderBy: 'createdAt', sort: 'asc' };
 * const page = await client.logs.list(params);
 */
export interface ListParams {
  /** 1-based page number (default 1). */
  page?: number | undefined;
  /** Items per page (the mock: default 10, at most 100). */
  pageSize?: number | undefined;
  /** Alias of `pageSize`; `pageSize` wins when both are given. */
  limit?: number | undefined;
  /** Field to order by, e.g. `createdAt` or `id`. */
  orderBy?: string | undefined;
  /** Order direction. */
  sort?: 'asc' | 'desc' | (string & {}) | undefined;
}

/** A path parameter: its name in the template and its kind (spec Part 4: ids are strings but for two int32s). */
export interface PathParam {
  readonly name: string;
  readonly kind: 'string' | 'int32';
}

/** A path template split once, at definition: literal text and named parameters in turn. */
export type PathPart = string | PathParam;

/**
 * How a watch tells a list's items apart (`id`) and orders them by arrival (`time`, absent for
 * lists whose items carry no time: those are diffed by id). Declared beside each list's line.
 * @example
 * list('/api/v1/server/logs', Log, { watch: { id: 'id', time: 'createdAt' } });
 */
export interface WatchKeys<Field extends string = string> {
  /** The field that identifies an item (`id`; `userId` for join requests). */
  readonly id: Field;
  /** The item's creation time (`createdAt`; `timestamp` for audit logs). */
  readonly time?: Field | undefined;
  /**
   * Whether the list, asked without `orderBy` and `sort`, answers newest first by `time`: only
   * then can its own first page be the baseline. Roles, call notes and department members are
   * listed otherwise (oldest first, by rank), so their watch reads a baseline of its own.
   */
  readonly newestFirst?: boolean | undefined;
}

/** What a watch reads of a page of its list: a `Page` has it. */
export interface PageView<T> {
  readonly data: readonly T[];
  /** This page's number, 1-based. */
  readonly page: number;
  /** Items in the whole list. */
  readonly total: number;
  hasNextPage(): boolean;
}

/**
 * A watch's position, as `watch.cursor` gives it: plain JSON, so it can be stored and handed
 * to a new watch of the same list, in this process or another, to carry on where it stopped.
 * Treat it as opaque; `v` is its format version and `list` the request it belongs to.
 * @example
 * const saved = JSON.stringify(feed.cursor);
 * const resumed = client.logs.list().watch({ cursor: JSON.parse(saved) as WatchCursor });
 */
export type WatchCursor =
  | { readonly v: 1; readonly list: string; readonly after: { readonly time: number | null; readonly ids: readonly (string | number)[] } }
  | { readonly v: 1; readonly list: string; readonly seen: readonly (string | number)[] };
