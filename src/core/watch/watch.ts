/**
 * `PagePromise.watch()`: following a list by polling, since the API has no events (spec Part 6).
 * This module is the polling loop; how new items are told from seen ones is the list's strategy
 * (`time.ts` for items with a time, `diff.ts` for the others), picked by the list's `WatchKeys`,
 * declared once beside the list's line in `src/resources/*.ts`; `strategy.ts` says in which order
 * the loop calls it, and `cursor.ts` checks a cursor handed back.
 *
 * Between the pages of one poll, an insert shifts items down (the repeat is dropped by id) and a
 * delete shifts them up, which could skip one: a poll that sees the envelope's `total` fall
 * reads again from page 1. Limits: an item that appears later with a time older than the
 * position (a clock behind, a late commit) is not seen; an item deleted before a poll saw it is
 * not yielded.
 * @module
 */
import { checkOptions, checkRequestOptions, checkTimeout, describe } from '../arguments';
import { ApiError, CommunityServerError, ConnectionError, TimeoutError } from '../errors';
import type { Log } from '../log';
import { describeThrown } from '../redact';
import { isTransient, retryDelay, type Failure, type RetryPolicy } from '../retry-policy';
import { sleep } from '../sleep';
import type { ListParams, WatchKeys, PageView, WatchCursor } from '../types';
import { restoreCursor } from './cursor';
import { DiffStrategy } from './diff';
import { field, NO_ITEM, type Id, type Strategy } from './strategy';
import { TimeStrategy } from './time';

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
  /** Where a previous watch of the same list stopped: yields what it had not yet yielded, and what came since. */
  cursor?: WatchCursor | undefined;
  /** Ends the watch (quietly, like `close()`), aborting its request or wait in flight. */
  signal?: AbortSignal | undefined;
}

/** What a list's `PagePromise` hands its watch. @internal */
export interface WatchSource<T> {
  /** The request the list is, e.g. `GET /api/v1/server/logs`: what a cursor belongs to. */
  readonly list: string;
  readonly keys: WatchKeys;
  /** The list parameters the caller gave (page, order): whether its first page can serve. */
  readonly params: ListParams;
  /** The same request again, with page and order parameters overridden. */
  fetchPage(overrides: ListParams, signal: AbortSignal): PromiseLike<PageView<T>>;
  /** The client's log: a backoff after a failed poll is a wait, logged at `info`. */
  readonly log: Log;
  /** Whether a page of the list is fresh enough to start from (one the cache answered may be older than the watch). */
  fresh?(page: PageView<T>): boolean;
  /** Told of each item as it is yielded (the cache keeps it as its `get`'s answer). */
  readonly yielded?: ((item: unknown) => void) | undefined;
}

const DEFAULT_INTERVAL_MS = 10_000;
/**
 * A watch's retries: from min(interval, 1 s), doubling, capped at a minute; at least what a
 * `Retry-After` asks, up to an hour: a service asking for days (or years, past what a timer can
 * hold) is polled again within the hour rather than at once or never.
 */
const pollRetries = (intervalMs: number): RetryPolicy => ({
  firstMs: Math.min(intervalMs, 1_000),
  maxMs: 60_000,
  maxRetryAfterMs: 3_600_000,
  overlong: 'cap',
  retryAfterReplacesBackoff: false,
});
/** Re-reads of one poll whose `total` keeps falling before it settles for what it read. */
const MAX_REREADS = 5;
const OPTION_NAMES = ['intervalMs', 'cursor', 'signal'];
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
  readonly #source: WatchSource<T>;
  readonly #intervalMs: number;
  readonly #retries: RetryPolicy;
  readonly #strategy: Strategy;
  readonly #controller = new AbortController();
  /** Aborted by `close()`, `break` or the caller's signal: ends every wait and request of the watch. */
  readonly #signal: AbortSignal;
  readonly #iterator: AsyncGenerator<T, void, undefined>;
  // eslint-disable-next-line no-unused-private-class-members -- never read: held to keep the caller's signal alive (see the constructor)
  readonly #callerSignal: AbortSignal | undefined;
  #started: boolean;

  /** @internal `PagePromise.watch()` builds watches; options are already checked, but for the cursor, checked here. */
  constructor(source: WatchSource<T>, first: PromiseLike<PageView<T>>, options: WatchOptions) {
    this.#source = source;
    this.#intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.#retries = pollRetries(this.#intervalMs);
    this.#strategy =
      source.keys.time === undefined
        ? new DiffStrategy(source.keys.id)
        : new TimeStrategy(source.keys.id, source.keys.time, source.keys.newestFirst === true);
    this.#started = options.cursor !== undefined;
    if (options.cursor !== undefined) restoreCursor(this.#strategy, options.cursor, source.list, source.keys);
    const firstPage = Promise.resolve(first);
    firstPage.catch(() => undefined); // read (or not) later; never an unhandled rejection
    // Linked without a listener on the caller's signal: one signal may end many watches.
    this.#signal = options.signal ? AbortSignal.any([this.#controller.signal, options.signal]) : this.#controller.signal;
    // Held, not listened to: a signal linked by AbortSignal.any alone can be collected, and a
    // collected AbortSignal.timeout() never fires, so an inline one would never end the watch.
    this.#callerSignal = options.signal;
    // The starting point is taken now, not at the first `next()`: what enters the list from
    // here on is what the watch yields.
    const ready = this.#begin(firstPage);
    ready.catch(() => undefined); // reported by the first next()
    this.#iterator = this.#run(ready);
  }

  /**
   * Where the watch stands: exactly what it has yielded so far (JSON-serialisable). `undefined`
   * until it knows its starting point, i.e. before the list's first page has been read.
   */
  get cursor(): WatchCursor | undefined {
    return this.#started ? this.#strategy.cursor(this.#source.list) : undefined;
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

  /**
   * Takes the starting point: the list's own page, or a baseline read in the watch's order.
   * Resolves to a page the first poll can start from when resuming from a cursor (at once),
   * or to `null` after a baseline (the first poll waits an interval).
   */
  async #begin(firstPage: Promise<PageView<T>>): Promise<PageView<T> | undefined | null> {
    const given = await this.#given(firstPage);
    if (this.#started) return given;
    const baseline = await this.#retrying(() => this.#walk(given, true));
    this.#strategy.begin(baseline.items);
    this.#started = true;
    return null;
  }

  async *#run(ready: Promise<PageView<T> | undefined | null>): AsyncGenerator<T, void, undefined> {
    const signal = this.#signal;
    try {
      let given = await abortable(ready, signal);
      if (given === null) await sleep(this.#intervalMs, signal);
      for (;;) {
        const page = given ?? undefined;
        given = undefined;
        const found = await this.#retrying(() => this.#poll(page));
        for (const item of found) {
          this.#strategy.mark(item); // before handing it over: the cursor says what was yielded
          this.#source.yielded?.(item);
          yield item;
        }
        await sleep(this.#intervalMs, signal);
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      this.#controller.abort();
    }
  }

  /** The list's own first page, when it can serve as the first page of a walk; else nothing. */
  async #given(firstPage: Promise<PageView<T>>): Promise<PageView<T> | undefined> {
    const signal = this.#signal;
    signal.throwIfAborted();
    let page: PageView<T>;
    try {
      page = await abortable(firstPage, signal);
    } catch (error) {
      const failure = failureOf(error);
      if (failure && isTransient(failure)) return undefined; // the watch reads it again, with backoff
      throw error;
    }
    return this.#strategy.canUse(this.#source.params, page) && this.#source.fresh?.(page) !== false ? page : undefined;
  }

  async #poll(given: PageView<T> | undefined): Promise<T[]> {
    const walk = await this.#walk(given, false);
    if (walk.complete) this.#strategy.settle(walk.items);
    return this.#strategy.arrange(walk.items.filter((item) => this.#strategy.isNew(item))) as T[];
  }

  /**
   * Reads the list in the watch's order from page 1 until a page reaches what was seen (or the
   * end); each id once. A `total` that falls between pages means a delete moved items up past
   * the page boundary, so one may have been skipped: read again from page 1.
   */
  async #walk(given: PageView<T> | undefined, baseline: boolean): Promise<{ items: T[]; complete: boolean }> {
    const byId = new Map<Id, T>();
    for (let reread = 0; ; reread++) {
      let page = given ?? (await this.#fetch(1));
      given = undefined;
      let shifted = false;
      for (;;) {
        for (const item of page.data) {
          const id = this.#idOf(item);
          if (!byId.has(id)) byId.set(id, item);
        }
        const top = baseline ? (byId.values().next().value ?? NO_ITEM) : undefined;
        if (this.#strategy.reached(page.data, top) || !page.hasNextPage()) break;
        const next = await this.#fetch(page.page + 1);
        shifted = next.total < page.total;
        if (shifted) break;
        page = next;
      }
      if (!shifted) return { items: [...byId.values()], complete: true };
      if (reread === MAX_REREADS) return { items: [...byId.values()], complete: false };
    }
  }

  #fetch(page: number): Promise<PageView<T>> {
    // Raced with the signal as well: a fetch that ignores its abort cannot hold the watch open.
    const signal = this.#signal;
    return abortable(Promise.resolve(this.#source.fetchPage({ ...this.#strategy.order, page }, signal)), signal);
  }

  #idOf(item: unknown): Id {
    const id = field(item, this.#source.keys.id);
    if (typeof id === 'string' || typeof id === 'number') return id;
    throw new CommunityServerError(
      `${this.#source.list}: an item has no ${this.#source.keys.id} (${describe(id)}); a watch cannot tell it apart`,
    );
  }

  /** Runs `task` until it succeeds, backing off after each transient failure (the count starts over with each task). */
  async #retrying<R>(task: () => Promise<R>): Promise<R> {
    for (let failures = 1; ; failures++) {
      try {
        return await task();
      } catch (error) {
        const failure = this.#signal.aborted ? undefined : failureOf(error);
        const wait = failure && retryDelay(failure, failures, this.#retries);
        if (wait === undefined) throw error;
        this.#source.log.info?.(`watch of ${this.#source.list}: ${describeThrown(error)}; reading again in ${wait} ms`);
        await sleep(wait, this.#signal);
      }
    }
  }
}

/** Checks `.watch()` options, throwing `InvalidArgumentError` before anything is sent. */
export function checkWatchOptions(options: unknown): WatchOptions {
  checkOptions(options, OPTION_NAMES, 'watch');
  if (options === undefined) return {};
  checkTimeout('intervalMs', options.intervalMs);
  if (options.signal !== undefined) checkRequestOptions({ signal: options.signal });
  return options;
}

/**
 * A poll's error as the retry policy reads it; `undefined` for what is not a failure to retry
 * (a bad page, the caller's abort). Whether it is transient is the policy's call.
 */
function failureOf(error: unknown): Failure | undefined {
  if (error instanceof ConnectionError) return { kind: 'network', detail: error.message };
  if (error instanceof TimeoutError) return { kind: 'timeout' };
  if (error instanceof ApiError) return { kind: 'status', status: error.status, retryAfter: error.headers['retry-after'] };
  return undefined;
}

/** `promise`, or the signal's reason as soon as it aborts. */
function abortable<R>(promise: Promise<R>, signal: AbortSignal): Promise<R> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
