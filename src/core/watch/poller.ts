/**
 * The polling loop behind every watch: the starting point (the list's own first page, a
 * baseline read in the watch's order, or a cursor), then one poll per interval, each a walk of
 * the list newest first until it reaches what was seen. A local `Watch` yields what it finds; a
 * fleet's leaseholder publishes it (`community-server-sdk/redis`). How new items are told from
 * seen ones is the list's strategy (`time.ts`, `diff.ts`), picked by its `WatchKeys`.
 *
 * Between the pages of one poll, an insert shifts items down (the repeat is dropped by id) and a
 * delete shifts them up, which could skip one: a poll that sees the envelope's `total` fall
 * reads again from page 1. Limits: an item that appears later with a time older than the
 * position (a clock behind, a late commit) is not seen; an item deleted before a poll saw it is
 * not yielded.
 * @module
 */
import { describe } from '../arguments';
import { ApiError, CommunityServerError, ConnectionError, TimeoutError } from '../error-classes';
import { describeThrown } from '../describe';
import { isTransient, retryDelay, type Failure, type RetryPolicy } from '../retry-policy';
import { abortable, sleep } from '../sleep';
import type { Log } from '../log';
import type { ListParams, PageView, WatchCursor, WatchKeys } from '../types';
import { checkCursor } from './cursor';
import { DiffStrategy } from './diff';
import { field, NO_ITEM, type Id, type Strategy } from './strategy';
import { TimeStrategy } from './time';

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
  /** A hash naming the client's token and service, never the token: what a fleet keys the list by. */
  identity(): Promise<string>;
  /** Whether a page of the list is fresh enough to start from (one the cache answered may be older than the watch). */
  fresh?(page: PageView<T>): boolean;
  /** Told of each item as it is yielded (the cache keeps it as its `get`'s answer). */
  readonly yielded?: ((item: unknown) => void) | undefined;
}

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

/** The strategy of a list with these keys, at `cursor` (checked: `InvalidArgumentError` when it is not one of `list`'s). */
export function strategyAt(list: string, keys: WatchKeys, cursor: unknown): Strategy {
  const strategy = keys.time === undefined ? new DiffStrategy(keys.id) : new TimeStrategy(keys.id, keys.time, keys.newestFirst === true);
  if (cursor !== undefined) strategy.restore(checkCursor(cursor, list, keys));
  return strategy;
}

/**
 * Polls one list. Built with the list's own first page (a baseline may start from it) or none
 * (the walk reads page 1 itself), and the cursor to resume from, if any; the starting point is
 * taken at once. {@link Poller.batches} then gives each poll's new items; the caller marks each
 * one it hands on, so that {@link Poller.cursor} says exactly what was handed on.
 */
export class Poller<T> {
  readonly #source: WatchSource<T>;
  readonly #intervalMs: number;
  readonly #retries: RetryPolicy;
  readonly #strategy: Strategy;
  readonly #signal: AbortSignal;
  readonly #ready: Promise<PageView<T> | undefined | null>;
  #started: boolean;

  /** `cursor` is checked here (`InvalidArgumentError`), before anything is sent. */
  constructor(
    source: WatchSource<T>,
    first: PromiseLike<PageView<T>> | undefined,
    options: { intervalMs: number; cursor: WatchCursor | undefined; signal: AbortSignal },
  ) {
    this.#source = source;
    this.#intervalMs = options.intervalMs;
    this.#retries = pollRetries(options.intervalMs);
    this.#signal = options.signal;
    this.#strategy = strategyAt(source.list, source.keys, options.cursor);
    this.#started = options.cursor !== undefined;
    const firstPage = first && Promise.resolve(first);
    firstPage?.catch(() => undefined); // read (or not) later; never an unhandled rejection
    this.#ready = this.#begin(firstPage);
    this.#ready.catch(() => undefined); // reported by the first batch
  }

  /** Exactly what was marked so far; `undefined` until the starting point is known. */
  get cursor(): WatchCursor | undefined {
    return this.#started ? this.#strategy.cursor(this.#source.list) : undefined;
  }

  /** Counts `item` (one of a batch) as handed on: the cursor moves past it. */
  mark(item: T): void {
    this.#strategy.mark(item);
  }

  /**
   * Each poll's new items, oldest first, one array per poll, every interval; the first at once
   * when resuming from a cursor, or an empty one as soon as a baseline is taken (the cursor is
   * then known; the first poll waits an interval). Ends when the signal aborts (by throwing its
   * reason); a 401, 403 or 404 ends it by throwing; transient failures only delay it.
   */
  async *batches(): AsyncGenerator<T[], never, undefined> {
    const signal = this.#signal;
    let given = await abortable(this.#ready, signal);
    if (given === null) {
      yield [];
      await sleep(this.#intervalMs, signal);
    }
    for (;;) {
      const page = given ?? undefined;
      given = undefined;
      yield await this.#retrying(() => this.#poll(page));
      await sleep(this.#intervalMs, signal);
    }
  }

  /**
   * Takes the starting point: the list's own page, or a baseline read in the watch's order.
   * Resolves to a page the first poll can start from when resuming from a cursor (at once),
   * or to `null` after a baseline (the first poll waits an interval).
   */
  async #begin(firstPage: Promise<PageView<T>> | undefined): Promise<PageView<T> | undefined | null> {
    const given = firstPage && (await this.#given(firstPage));
    if (this.#started) return given;
    const baseline = await this.#retrying(() => this.#walk(given, true));
    this.#strategy.begin(baseline.items);
    this.#started = true;
    return null;
  }

  /** The list's own first page, when it can serve as the first page of a walk; else nothing. */
  async #given(firstPage: Promise<PageView<T>>): Promise<PageView<T> | undefined> {
    const page = await givenPage(firstPage, this.#signal);
    return page && this.#strategy.canUse(this.#source.params, page) && this.#source.fresh?.(page) !== false ? page : undefined;
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

/**
 * The list's own first page, or `undefined` when reading it failed for a while (the watch reads
 * the list again, with backoff); a failure that is not transient (401, 403, 404…) is thrown.
 */
export async function givenPage<T>(firstPage: PromiseLike<PageView<T>>, signal: AbortSignal): Promise<PageView<T> | undefined> {
  signal.throwIfAborted();
  try {
    return await abortable(Promise.resolve(firstPage), signal);
  } catch (error) {
    const failure = failureOf(error);
    if (failure && isTransient(failure)) return undefined;
    throw error;
  }
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
