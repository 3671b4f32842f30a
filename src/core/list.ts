/**
 * A list call: the first page as any call gets it (`call.ts`), its envelope checked whatever the
 * validation mode, and the `PagePromise` around it, whose other pages and watch re-send the same
 * request with other page and order parameters. Only list methods import this module, so a
 * bundle without one carries no paging.
 * @module
 */
import * as z from 'zod/mini';
import { buildPath, listQuery } from './arguments';
import { describeRequest, fetchData, launch, splitArgs, summarize, type Also, type Described } from './call';
import type { Caller } from './coalesce';
import type { Engine } from './core';
import type { Endpoint } from './endpoint';
import { ResponseValidationError } from './error-classes';
import { Page, PagePromise, type WatchStarter } from './pagination';
import type { ListParams } from './types';
import type { WatchSource } from './watch/watch';
import { looseObject, type PageEnvelope } from '../schemas/common';

const count = /* @__PURE__ */ z.int().check(/* @__PURE__ */ z.gte(0));
/**
 * What the pager itself relies on, checked in every validation mode: under `'warn'` or `'off'`
 * a string `data` would be walked character by character and a string `page` would become a
 * request for page "11". The items stay the endpoint schema's business.
 */
const UsableEnvelope = /* @__PURE__ */ looseObject({
  data: /* @__PURE__ */ z.array(/* @__PURE__ */ z.unknown()),
  page: /* @__PURE__ */ z.int().check(/* @__PURE__ */ z.gte(1)),
  pageSize: count,
  total: count,
  totalPages: count,
});

const checkEnvelope: Also = (body, target) => {
  const usable = UsableEnvelope.safeParse(body);
  if (!usable.success) {
    const message = `${target.method} ${target.path}: the list envelope cannot be paged: ${summarize(usable.error.issues)}`;
    throw new ResponseValidationError(message, { ...target, issues: usable.error.issues });
  }
  return body;
};

/** Each item of a page the service answered, with the cache's epoch for it: what a watch may keep as its `get`'s answer. */
const itemEpochs = new WeakMap<object, string>();

/** Pages the cache answered: too old, perhaps, for a watch to start from. */
const cachedPages = new WeakSet<object>();

/** Calls the list `endpoint` with a method's `args`; `method` is the one called. */
export function callList(engine: Engine, endpoint: Endpoint, args: readonly unknown[], method?: Caller): PagePromise<unknown> {
  const parts = splitArgs(endpoint, args);
  let described: Described;
  try {
    described = describeRequest(engine, endpoint, parts);
  } catch (error) {
    // Any other page of a list that cannot be asked for fails the same way.
    const failed: PagePromise<unknown> = new PagePromise(Promise.reject(error), () => failed, error as Error);
    return failed;
  }
  return listPromise(engine, endpoint, described, (parts.listParams as ListParams | undefined) ?? {}, parts.pathArgs, method);
}

/**
 * A list request, described once: its next pages and its watch's polls re-send the same
 * request with other page and order parameters. A watch's polls skip the cache's entries
 * (they look for what is new) but leave theirs, unless the list asked for `'no-store'`.
 */
function listPromise(
  engine: Engine,
  endpoint: Endpoint,
  described: Described,
  params: ListParams,
  pathArgs: readonly unknown[],
  method?: Caller,
): PagePromise<unknown> {
  const { request, options } = described;
  const { cache } = engine.shared;
  const again = (overrides: ListParams, signal?: AbortSignal, mode = options.cache) => {
    const merged = { ...params, ...overrides };
    const callerSignal = options.signal;
    const both = signal && callerSignal ? AbortSignal.any([signal, callerSignal]) : (signal ?? callerSignal);
    return listPromise(
      engine,
      endpoint,
      launch(engine, { ...request, query: listQuery(merged), options: { ...options, signal: both, cache: mode } }),
      merged,
      pathArgs,
    );
  };
  const fetchPage = (page: number) => again({ page });
  const { itemGet } = endpoint;
  const source: WatchSource<unknown> = {
    list: `${request.method} ${request.path}`,
    keys: endpoint.watch ?? { id: 'id' },
    params,
    fetchPage: (overrides, signal) => again(overrides, signal, options.cache === 'no-store' ? 'no-store' : 'reload'),
    log: engine.settings.log,
    identity: engine.shared.identity,
    fresh: (page) => !cachedPages.has(page),
    // The item stands for its `get`'s answer: the cache keeps it there.
    yielded: itemGet && ((item) => rememberItem(engine, itemGet, endpoint, pathArgs, source.keys.id, item)),
  };
  // The client carries the watch's machinery; a bundle of `/core` loads it the first time it watches.
  const start: WatchStarter<unknown> = {
    start(first, watchOptions) {
      const begin = engine.shared.startWatch;
      return begin ? begin(source, first, watchOptions) : import('./watch/run').then((run) => run.startWatch(source, first, watchOptions));
    },
  };
  const pages = fetchData(engine, endpoint, described, method, checkEnvelope).then((result) => {
    const page = new Page(result.data as PageEnvelope<unknown>, fetchPage);
    if (cache.isHit(result)) cachedPages.add(page);
    const epoch = itemGet && cache.epochOf(result);
    if (epoch) for (const item of page.data) if (typeof item == 'object' && item) itemEpochs.set(item, epoch);
    return { data: page, response: result.response };
  });
  return new PagePromise(pages, fetchPage, start);
}

/**
 * Stores a list's item as the answer of its `get`: the get's path takes the list's path
 * parameters by name, and the item's id as its last. Left out: an item whose id cannot make a
 * path, and one not fetched by this client under a known epoch (a fleet's item, fetched by
 * another process at a time no invalidation here can be ordered against).
 */
function rememberItem(engine: Engine, itemGet: Endpoint, list: Endpoint, listArgs: readonly unknown[], idKey: string, item: unknown): void {
  const epoch = typeof item == 'object' && item ? itemEpochs.get(item) : undefined;
  if (epoch === undefined) return;
  const named = new Map<string, unknown>();
  list.params.forEach((param, index) => named.set(param.name, listArgs[index]));
  const last = itemGet.params[itemGet.params.length - 1];
  try {
    const id = (item as Record<string, unknown> | null)?.[idKey];
    const path = buildPath(
      itemGet.parts,
      itemGet.params.map((param) => (param === last ? id : named.get(param.name))),
    );
    engine.shared.cache.remember(itemGet.name, path, item, epoch);
  } catch {
    // an id that is no path segment: nothing to keep
  }
}
