/**
 * Paged lists: a `Page` of results, and the `PagePromise` every list method returns, which
 * awaits to the first page and also walks items or pages lazily, or collects them.
 * @module
 */
import { APIPromise, type WithResponse } from './api-promise';
import { CommunityServerError, InvalidArgumentError } from './errors';
import type { PageEnvelope } from '../schemas/common';

/** Fetches another page of the same list, with the same parameters. */
export type PageFetcher<T> = (page: number) => PagePromise<T>;

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
   */
  hasNextPage(): boolean {
    return this.data.length > 0 && this.page < this.totalPages;
  }

  /** Fetches the next page. Rejects with `CommunityServerError` when there is none. */
  getNextPage(): PagePromise<T> {
    if (!this.hasNextPage()) {
      const error = new CommunityServerError(`there is no page after page ${this.page} of ${this.totalPages}`);
      return new PagePromise<T>(Promise.reject(error), this.#fetchPage);
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

const DEFAULT_CONCURRENCY = 4;

/**
 * What a list method returns: `await` it for the first {@link Page}, `for await` it for every
 * item of every page, `.pages()` for whole pages, or `.toArray()` to collect.
 * @example
 * for await (const member of client.members.list()) console.log(member.id);
 * const first50 = await client.logs.list({ pageSize: 25 }).toArray({ limit: 50 });
 */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  readonly #fetchPage: PageFetcher<T>;

  /** @internal list methods return these; callers never build one. */
  constructor(result: Promise<WithResponse<Page<T>>>, fetchPage: PageFetcher<T>) {
    super(result);
    this.#fetchPage = fetchPage;
  }

  /** Every item of every page, fetching each page only when the previous one is used up. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every page in turn, starting with this one, fetched lazily. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> = await this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  /**
   * Collects the items into an array. Once the first page tells how many pages there are,
   * the rest are fetched `concurrency` at a time and kept in order; with `limit`, only the
   * pages that hold the first `limit` items are fetched.
   */
  async toArray(options: ToArrayOptions = {}): Promise<T[]> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    if (!(limit === Number.POSITIVE_INFINITY || (Number.isSafeInteger(limit) && limit >= 0))) {
      throw new InvalidArgumentError(`toArray limit must be a whole number ≥ 0, got ${String(limit)}`);
    }
    if (!(Number.isSafeInteger(concurrency) && concurrency >= 1)) {
      throw new InvalidArgumentError(`toArray concurrency must be a whole number ≥ 1, got ${String(concurrency)}`);
    }
    const first: Page<T> = await this;
    let lastPage = first.hasNextPage() ? first.totalPages : first.page;
    if (limit !== Number.POSITIVE_INFINITY) {
      const missing = Math.max(0, limit - first.data.length);
      lastPage = Math.min(lastPage, first.page + Math.ceil(missing / Math.max(1, first.pageSize)));
    }
    const pageNumbers = Array.from({ length: lastPage - first.page }, (_, index) => first.page + 1 + index);
    const rest = await mapConcurrently(pageNumbers, concurrency, async (n) => (await this.#fetchPage(n)).data);
    return first.data.concat(...rest).slice(0, limit);
  }
}

/** Maps `items` with at most `concurrency` calls of `fn` in flight, keeping order. */
async function mapConcurrently<I, O>(items: I[], concurrency: number, fn: (item: I) => Promise<O>): Promise<O[]> {
  const results = new Array<O>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as I);
      } catch (error) {
        failed = true; // stop the other workers from starting new pages
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
