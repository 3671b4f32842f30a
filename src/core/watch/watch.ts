/**
 * `PagePromise.watch()`: following a list by polling, since the API has no events (spec Part 6).
 * This module is the public `Watch` and its options; the watch at work (its checks, its poller,
 * its fleet) is `run.ts`, which a `CommunityServerClient` carries and a bundle of
 * `community-server-sdk/core` loads the first time it watches a list (a dynamic import): there,
 * `.watch()` returns at once and its options are checked as the module arrives, a bad one
 * rejecting the first `next()` rather than throwing.
 * @module
 */
import type { WatchCursor } from '../types';
import type { FleetDelivery, WatchFleet } from './fleet';

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

/** A watch at work (`run.ts`): what the public {@link Watch} drives. @internal */
export interface WatchRun<T> {
  readonly iterator: AsyncGenerator<T, void, undefined>;
  cursor(): WatchCursor | undefined;
  close(): void;
  /** The caller's signal, held so that it is not collected while the watch runs. */
  readonly held: AbortSignal | undefined;
}

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
  #run: WatchRun<T> | undefined;
  /** While the watch's module loads (a bundle of `/core`): the run it will be. */
  readonly #starting: Promise<WatchRun<T>> | undefined;
  #closed = false;

  /** @internal `PagePromise.watch()` builds watches: `start` gives the run, at once or once its module loads. */
  constructor(start: () => WatchRun<T> | Promise<WatchRun<T>>) {
    const run = start();
    if (run instanceof Promise) {
      this.#starting = run.then((started) => {
        this.#run = started;
        if (this.#closed) started.close();
        return started;
      });
      this.#starting.catch(() => {}); // a bad option: reported by next(), not as an unhandled rejection
    } else this.#run = run;
  }

  /**
   * Where the watch stands: exactly what it has yielded so far (JSON-serialisable). `undefined`
   * until it knows its starting point, i.e. before the list's first page has been read. With a
   * fleet: this process's place in the fleet's order, `'every'` exactly what it has yielded,
   * `'once'` a place before which every item has been handed to some process of the fleet.
   */
  get cursor(): WatchCursor | undefined {
    return this.#run?.cursor();
  }

  /**
   * Ends the watch at once: aborts its request or wait in flight; a pending `next()` resolves done.
   * @example
   * const feed = client.members.list().watch();
   * setTimeout(() => feed.close(), 60_000); // the loop below then ends
   * for await (const member of feed) console.log('joined', member.id);
   */
  close(): void {
    this.#closed = true;
    this.#run?.close();
  }

  /** The next new item, waiting (and polling) as long as it takes. */
  next(): Promise<IteratorResult<T, void>> {
    return this.#run ? this.#run.iterator.next() : this.#starting!.then((run) => run.iterator.next());
  }

  /** Ends the watch (what `break` out of `for await` calls). */
  return(): Promise<IteratorResult<T, void>> {
    this.close();
    const done = (run: WatchRun<T>) => run.iterator.return(undefined);
    return this.#run ? done(this.#run) : this.#starting!.then(done, () => ({ done: true, value: undefined }));
  }

  /** A watch is its own iterator: iterate it once. */
  [Symbol.asyncIterator](): this {
    return this;
  }
}
