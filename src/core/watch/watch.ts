/**
 * `PagePromise.watch()`: following a list by polling, since the API has no events (spec Part 6).
 * This module is the public `Watch`: a local one runs its own {@link Poller} (`poller.ts`, the
 * polling loop) and yields what each poll finds; one with `fleet` yields what the fleet hands
 * this process (`fleet.ts`), the list polled once for every process watching it.
 * @module
 */
import { checkOptions, checkRequestOptions, checkTimeout, describe } from '../arguments';
import { InvalidArgumentError } from '../errors';
import type { PageView, WatchCursor } from '../types';
import { hashKey } from '../identity';
import { FOLLOW, type FleetDelivery, type FleetWatch, type WatchFleet } from './fleet';
import { givenPage, Poller, strategyAt, type WatchSource } from './poller';

export type { WatchSource } from './poller';

export type { WatchCursor } from '../types';

/**
 * Options of {@link PagePromise.watch}.
 * @example
 * const options: WatchOptions = { intervalMs: 5_000, signal: AbortSignal.timeout(60_000) };
 * for await (const log of client.logs.list().watch(options)) console.log(log.id);
 */
export interface WatchOptions {
  /** Milliseconds between polls (default 10,000). */
  intervalMs?: number | undefined;
  /**
   * Where a previous watch of the same list stopped: yields what it had not yet yielded, and
   * what came since. With `fleet`, where the fleet starts if it holds no position for the list yet.
   */
  cursor?: WatchCursor | undefined;
  /** Ends the watch (quietly, like `close()`), aborting its request or wait in flight. */
  signal?: AbortSignal | undefined;
  /**
   * Shares the watch with every process watching the same list (endpoint, ids and parameters)
   * on the same fleet: one of them polls, the others are handed what it finds (see
   * `redisFleet` in `community-server-sdk/redis`).
   */
  fleet?: WatchFleet | undefined;
  /**
   * With `fleet`: `'every'` (default), each watching process gets every new item, once each;
   * `'once'`, each item goes to one process of the fleet, and an item whose process dies before
   * asking for the next one goes to another.
   */
  delivery?: FleetDelivery | undefined;
  /**
   * With `fleet`: this process's name among the list's watchers (up to 200 characters, none a
   * control character), the same after a restart: with `'every'` it resumes after the last item
   * it was given; with `'once'` it is given again the item it had not finished. One live process
   * per name: a second is refused (the watch throws `InvalidArgumentError`); a restart waits
   * until the dead holder's liveness lapses (3 intervals, 2 s at least).
   */
  consumer?: string | undefined;
}

const DEFAULT_INTERVAL_MS = 10_000;
const OPTION_NAMES = ['intervalMs', 'cursor', 'signal', 'fleet', 'delivery', 'consumer'];
const MAX_CONSUMER_LENGTH = 200;
// eslint-disable-next-line no-control-regex -- control characters are what a consumer's name may not hold
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The items that enter a list after the watch starts, each yielded once, oldest first; returned
 * by `.watch()` on any list's `PagePromise`. Ends on `signal`, `break` or `close()`; a 401, 403
 * or 404 ends it by throwing; transient failures (network, timeout, 408, 429, 5xx) only delay it.
 * @example
 * const feed = client.logs.list({ pageSize: 50 }).watch({ intervalMs: 5_000 });
 * for await (const log of feed) {
 *   console.log(log.username, log.text);
 *   if (log.text.includes('ban')) break; // ends the watch; feed.cursor includes this log
 * }
 * localStorage.setItem('logs', JSON.stringify(feed.cursor));
 */
export class Watch<T> implements AsyncIterableIterator<T> {
  readonly #controller = new AbortController();
  /** Aborted by `close()`, `break` or the caller's signal: ends every wait and request of the watch. */
  readonly #signal: AbortSignal;
  readonly #iterator: AsyncGenerator<T, void, undefined>;
  readonly #position: () => WatchCursor | undefined;
  // eslint-disable-next-line no-unused-private-class-members -- never read: held to keep the caller's signal alive (see the constructor)
  readonly #callerSignal: AbortSignal | undefined;

  /** @internal `PagePromise.watch()` builds watches; options are already checked, but for the cursor, checked here. */
  constructor(source: WatchSource<T>, first: PromiseLike<PageView<T>>, options: WatchOptions) {
    const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    // Linked without a listener on the caller's signal: one signal may end many watches.
    this.#signal = options.signal ? AbortSignal.any([this.#controller.signal, options.signal]) : this.#controller.signal;
    // Held, not listened to: a signal linked by AbortSignal.any alone can be collected, and a
    // collected AbortSignal.timeout() never fires, so an inline one would never end the watch.
    this.#callerSignal = options.signal;
    // The starting point is taken now, not at the first `next()`: what enters the list from
    // here on is what the watch yields.
    if (options.fleet) {
      const { delivery = 'every', consumer, cursor } = options;
      if (cursor !== undefined) strategyAt(source.list, source.keys, cursor); // checked now, before anything is sent
      const feed = options.fleet[FOLLOW](fleetWatch(source, first, { delivery, consumer, intervalMs, cursor }, this.#signal));
      this.#position = () => feed.cursor;
      this.#iterator = this.#run(this.#fleetItems(first, feed.items), source.yielded);
    } else {
      const poller = new Poller(source, first, { intervalMs, cursor: options.cursor, signal: this.#signal });
      this.#position = () => poller.cursor;
      this.#iterator = this.#run(localItems(poller), source.yielded);
    }
  }

  /**
   * Where the watch stands: exactly what it has yielded so far (JSON-serialisable). `undefined`
   * until it knows its starting point, i.e. before the list's first page has been read. With a
   * fleet: this process's place in the fleet's order, `'every'` exactly what it has yielded,
   * `'once'` a place before which every item has been handed to some process of the fleet.
   */
  get cursor(): WatchCursor | undefined {
    return this.#position();
  }

  /**
   * Ends the watch at once: aborts its request or wait in flight; a pending `next()` resolves done.
   * @example
   * const feed = client.members.list().watch();
   * setTimeout(() => feed.close(), 60_000); // the loop below then ends
   * for await (const member of feed) console.log('joined', member.id);
   */
  close(): void {
    this.#controller.abort();
  }

  /** The next new item, waiting (and polling) as long as it takes. */
  next(): Promise<IteratorResult<T, void>> {
    return this.#iterator.next();
  }

  /** Ends the watch (what `break` out of `for await` calls). */
  return(): Promise<IteratorResult<T, void>> {
    this.close();
    return this.#iterator.return(undefined);
  }

  /** A watch is its own iterator: iterate it once. */
  [Symbol.asyncIterator](): this {
    return this;
  }

  /** `items`, each told to `yielded` as it goes (local or from the fleet: the cache keeps it as its `get`'s answer). */
  async *#run(
    items: AsyncIterable<T, void, undefined>,
    yielded: ((item: unknown) => void) | undefined,
  ): AsyncGenerator<T, void, undefined> {
    try {
      for await (const item of items) {
        yielded?.(item);
        yield item;
      }
    } catch (error) {
      if (!this.#signal.aborted) throw error;
    } finally {
      this.#controller.abort();
    }
  }

  /** The fleet's items, once the list's own first page showed it can be read (a 401, 403 or 404 ends the watch at once). */
  async *#fleetItems(first: PromiseLike<PageView<T>>, items: AsyncIterable<T, void, undefined>): AsyncGenerator<T, void, undefined> {
    await givenPage(first, this.#signal);
    yield* items;
  }
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

/** Whether `value` is a fleet (what `redisFleet()` returns). */
const isWatchFleet = (value: unknown): value is WatchFleet =>
  typeof (value as Partial<WatchFleet> | null | undefined)?.[FOLLOW] === 'function';

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

/** Checks `.watch()` options, throwing `InvalidArgumentError` before anything is sent. */
export function checkWatchOptions(options: unknown): WatchOptions {
  checkOptions(options, OPTION_NAMES, 'watch');
  if (options === undefined) return {};
  checkTimeout('intervalMs', options.intervalMs);
  if (options.signal !== undefined) checkRequestOptions({ signal: options.signal });
  const { fleet, delivery, consumer } = options;
  if (fleet === undefined) {
    const without = delivery !== undefined ? 'delivery' : consumer !== undefined ? 'consumer' : undefined;
    if (without) throw new InvalidArgumentError(`watch option ${without} needs a fleet (redisFleet() from community-server-sdk/redis)`);
    return options;
  }
  if (!isWatchFleet(fleet)) throw new InvalidArgumentError(`watch option fleet must be what redisFleet() returns, got ${describe(fleet)}`);
  if (delivery !== undefined && delivery !== 'every' && delivery !== 'once') {
    throw new InvalidArgumentError(`watch option delivery must be 'every' or 'once', got ${describe(delivery)}`);
  }
  const named = typeof consumer === 'string' && consumer.length > 0 && consumer.length <= MAX_CONSUMER_LENGTH && !CONTROL.test(consumer);
  if (consumer !== undefined && !named) {
    throw new InvalidArgumentError(
      `watch option consumer must be a name of 1 to ${MAX_CONSUMER_LENGTH} characters, none a control character, got ${describe(consumer)}`,
    );
  }
  return options;
}
