/**
 * A watch at work: its polling loop (`poller.ts`) or its fleet (`fleet.ts`), and the items it
 * yields. Split from the public `Watch` (`watch.ts`) so that a bundle of
 * `community-server-sdk/core` loads it (a dynamic import, a chunk of its own) only when a list is
 * first watched; `CommunityServerClient` imports it with the rest of the client, so its
 * `.watch()` checks its options and cursor (`check.ts`), and starts, at once.
 * @module
 */
import type { PageView, WatchCursor } from '../types';
import { hashKey } from '../identity';
import { checkWatch } from './check';
import { FOLLOW, type FleetDelivery, type FleetWatch } from './fleet';
import { givenPage, Poller, strategyAt, type WatchSource } from './poller';
import type { WatchOptions, WatchRun } from './watch';

const DEFAULT_INTERVAL_MS = 10_000;

/**
 * Starts watching `source`, whose own first page is `first`: the options (and a cursor) checked
 * first, `InvalidArgumentError` thrown before anything is sent; the starting point taken now, not
 * at the first `next()`: what enters the list from here on is what the watch yields.
 */
export function startWatch<T>(source: WatchSource<T>, first: PromiseLike<PageView<T>>, given: WatchOptions | undefined): WatchRun<T> {
  const options = checkWatch(source, given);
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const controller = new AbortController();
  // Linked without a listener on the caller's signal: one signal may end many watches.
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  let position: () => WatchCursor | undefined;
  let items: AsyncIterable<T, void, undefined>;
  if (options.fleet) {
    const { delivery = 'every', consumer, cursor } = options;
    const feed = options.fleet[FOLLOW](fleetWatch(source, first, { delivery, consumer, intervalMs, cursor }, signal));
    position = () => feed.cursor;
    items = fleetItems(first, feed.items, signal);
  } else {
    const poller = new Poller(source, first, { intervalMs, cursor: options.cursor, signal });
    position = () => poller.cursor;
    items = localItems(poller);
  }
  return {
    iterator: run(items, source.yielded, controller, signal),
    cursor: position,
    close: () => controller.abort(),
    // Held, not listened to: a signal linked by AbortSignal.any alone can be collected, and a
    // collected AbortSignal.timeout() never fires, so an inline one would never end the watch.
    held: options.signal,
  };
}

/** `items`, each told to `yielded` as it goes (local or from the fleet: the cache keeps it as its `get`'s answer). */
async function* run<T>(
  items: AsyncIterable<T, void, undefined>,
  yielded: ((item: unknown) => void) | undefined,
  controller: AbortController,
  signal: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  try {
    for await (const item of items) {
      yielded?.(item);
      yield item;
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    controller.abort();
  }
}

/** The fleet's items, once the list's own first page showed it can be read (a 401, 403 or 404 ends the watch at once). */
async function* fleetItems<T>(
  first: PromiseLike<PageView<T>>,
  items: AsyncIterable<T, void, undefined>,
  signal: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  await givenPage(first, signal);
  yield* items;
}

/** A local watch's items: each poll's, marked as they are handed over, so the cursor says what was yielded. */
async function* localItems<T>(poller: Poller<T>): AsyncGenerator<T, void, undefined> {
  for await (const batch of poller.batches()) {
    for (const item of batch) {
      poller.mark(item);
      yield item;
    }
  }
}

/** Page and order parameters: the watch sets its own, so they do not make a list another. */
const PAGING = new Set(['page', 'pageSize', 'limit', 'orderBy', 'sort']);

/** The fleet's view of a watch of `source`, whose own first page is `first`. */
function fleetWatch<T>(
  source: WatchSource<T>,
  first: PromiseLike<unknown>,
  options: { delivery: FleetDelivery; consumer: string | undefined; intervalMs: number; cursor: WatchCursor | undefined },
  signal: AbortSignal,
): FleetWatch<T> {
  const { list, keys, params } = source;
  const filters = Object.entries(params).filter(([name, value]) => value !== undefined && !PAGING.has(name));
  return {
    key: async () => hashKey(`${await source.identity()}\n${list}\n${JSON.stringify(filters.sort())}`),
    list,
    ...options,
    signal,
    log: source.log,
    poller: (cursor, until) =>
      new Poller(source, cursor === undefined ? (first as PromiseLike<never>) : undefined, {
        intervalMs: options.intervalMs,
        cursor,
        signal: until,
      }),
    position: (cursor) => {
      const strategy = strategyAt(list, keys, cursor);
      return {
        isNew: (item) => strategy.isNew(item),
        mark: (item) => cursor !== undefined && strategy.mark(item),
        get cursor() {
          return cursor === undefined ? undefined : strategy.cursor(list);
        },
      };
    },
  };
}
