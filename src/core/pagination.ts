/**
 * Paged lists: a `Page` of results, and the `PagePromise` every list method returns, which
 * awaits to the first page and also walks items or pages lazily, or collects them. The walks
 * (`pages()`, `for await`, `toArray()`) are `page-walk.ts`, loaded the first time a list is walked:
 * a call that awaits its first page never runs them.
 * @module
 */
import { APIPromise, type WithResponse } from './api-promise';
import { brand } from './brand';
import { CommunityServerError } from './error-base';
import { Watch, type WatchOptions, type WatchRun } from './watch/watch';
import type { PageEnvelope } from '../schemas/common';

/** `page-walk.ts`, once loaded: an `import()` of a loaded module still costs a trip through the loader. */
let walksLoaded: Promise<typeof import('./page-walk')> | undefined;

/**
 * The walks' module, for a walk of `list`. Its first page may fail while the module loads: the
 * walk reports that when it awaits the page, so it is not an unhandled rejection meanwhile.
 */
function walksOf(list: Promise<unknown>): Promise<typeof import('./page-walk')> {
  list.catch(() => undefined);
  return (walksLoaded ??= import('./page-walk'));
}

/** Fetches another page of the same list, with the same parameters. */
export type PageFetcher<T> = (page: number) => PagePromise<T>;

/**
 * Starts a watch of a list whose first page is `first` (`list.ts` makes one per list). A method,
 * so that a `PagePromise<Member>` stays a `PagePromise<{ id: string }>`. @internal
 */
export interface WatchStarter<T> {
  start(first: PagePromise<T>, options: WatchOptions | undefined): WatchRun<T> | Promise<WatchRun<T>>;
}

/**
 * One page of a list.
 * @example
 * let page = await client.members.list({ pageSize: 100 });
 * while (true) {
 *   for (const member of page.data) console.log(member.id);
 *   if (!page.hasNextPage()) break;
 *   page = await page.getNextPage();
 * }
 */
export class Page<T> {
  /** The items of this page. */
  readonly data: T[];
  /** This page's number, 1-based. */
  readonly page: number;
  /** Items per page. */
  readonly pageSize: number;
  /** Items in the whole list. */
  readonly total: number;
  /** Pages in the whole list. */
  readonly totalPages: number;
  readonly #fetchPage: PageFetcher<T>;

  static {
    brand(this, 'Page');
  }

  /** @internal list methods build pages; callers receive them. */
  constructor(envelope: PageEnvelope<T>, fetchPage: PageFetcher<T>) {
    this.data = envelope.data;
    this.page = envelope.page;
    this.pageSize = envelope.pageSize;
    this.total = envelope.total;
    this.totalPages = envelope.totalPages;
    this.#fetchPage = fetchPage;
  }

  /**
   * Whether a later page exists. Decided from `totalPages`, so walking a list never spends a
   * request on an empty page past the end; an empty page also ends it, whatever the envelope
   * claims, so a service that miscounts cannot cause an endless walk.
   * @example
   * let page = await client.members.list({ pageSize: 100 });
   * while (page.hasNextPage()) page = await page.getNextPage();
   */
  hasNextPage(): boolean {
    return this.data.length > 0 && this.page < this.totalPages;
  }

  /**
   * Fetches the next page. Rejects with `CommunityServerError` when there is none.
   * @example
   * const first = await client.logs.list({ pageSize: 50 });
   * const second = first.hasNextPage() ? await first.getNextPage() : undefined;
   */
  getNextPage(): PagePromise<T> {
    if (!this.hasNextPage()) {
      const error = new CommunityServerError(`there is no page after page ${this.page} of ${this.totalPages}`);
      return new PagePromise<T>(Promise.reject(error), this.#fetchPage, error);
    }
    return this.#fetchPage(this.page + 1);
  }
}

/**
 * Options of {@link PagePromise.toArray}.
 * @example
 * const first200 = await client.logs.list({ pageSize: 100 }).toArray({ limit: 200, concurrency: 2 });
 */
export interface ToArrayOptions {
  /** Collect at most this many items; pages beyond them are never requested. */
  limit?: number | undefined;
  /** Pages requested at once after the first (default 4). */
  concurrency?: number | undefined;
}

/**
 * What a list method returns: `await` it for the first {@link Page}, `for await` it for every
 * item of every page, `.pages()` for whole pages, or `.toArray()` to collect.
 * @example
 * for await (const member of client.members.list()) console.log(member.id);
 * const first50 = await client.logs.list({ pageSize: 25 }).toArray({ limit: 50 });
 */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  readonly #fetchPage: PageFetcher<T>;
  /** How `watch()` starts; the error instead when the list's own arguments were bad. */
  readonly #watch: WatchStarter<T> | Error;

  static {
    brand(this, 'PagePromise');
  }

  /** @internal list methods return these; callers never build one. */
  constructor(result: Promise<WithResponse<Page<T>>>, fetchPage: PageFetcher<T>, watch: WatchStarter<T> | Error) {
    super(result);
    this.#fetchPage = fetchPage;
    this.#watch = watch;
  }

  /**
   * Follows the list: the items that enter it after this call, each once, oldest first, found
   * by polling every `intervalMs` (see {@link Watch}). This page is the baseline: its items are
   * not yielded. Bad options (or bad list arguments) throw `InvalidArgumentError` here, before
   * any request of the watch.
   * @example
   * for await (const log of client.logs.list().watch({ intervalMs: 5_000 })) console.log(log.username, log.text);
   */
  watch(options?: WatchOptions): Watch<T> {
    const start = this.#watch;
    if (start instanceof Error) {
      this.withResponse().catch(() => undefined); // reported here, not as an unhandled rejection
      throw start;
    }
    return new Watch(() => start.start(this, options));
  }

  /** Every item of every page, fetching each page only when the previous one is used up. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /**
   * Every page in turn, starting with this one, fetched lazily.
   * @example
   * for await (const page of client.members.list({ pageSize: 100 }).pages()) await saveBatch(page.data);
   */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    yield* (await walksOf(this)).pages<T, Page<T>>(this);
  }

  /**
   * Collects the items into an array. Once the first page tells how many pages there are,
   * the rest are fetched `concurrency` at a time and kept in order; with `limit`, only the
   * pages that hold the first `limit` items are fetched. Like the iterator, it stops at an
   * empty page or at a page that says it is the last, whatever the first page claimed: memory
   * follows the items received and `concurrency`, never the page count a service announces.
   * Bad options reject with `InvalidArgumentError` before any request.
   * @example
   * const roles = await client.roles.list().toArray();
   * const recent = await client.logs.list({ pageSize: 100 }).toArray({ limit: 300, concurrency: 2 });
   */
  async toArray(options: ToArrayOptions = {}): Promise<T[]> {
    return (await walksOf(this)).collectItems(this, options, this.#fetchPage);
  }
}
