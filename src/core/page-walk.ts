/**
 * The walks of a list past its first page: `.pages()` (and so `for await`) and `.toArray()`.
 * Awaiting a list for its first page runs none of this, so `PagePromise` loads it the first time
 * a list is walked (a dynamic import, a chunk of its own); the walk awaits it once, before its
 * first page, and then runs as it always has.
 * @module
 */
import { InvalidArgumentError } from './error-base';

const DEFAULT_CONCURRENCY = 4;

/** A page as the walks read it: what `Page` is (named here, so that this module imports nothing of the one that loads it). */
export interface WalkedPage<T> {
  readonly data: T[];
  readonly page: number;
  readonly pageSize: number;
  readonly totalPages: number;
  hasNextPage(): boolean;
  getNextPage(): PromiseLike<WalkedPage<T>>;
}

/** Every page in turn, starting with `first`'s, fetched lazily. */
export async function* pages<T, P extends WalkedPage<T>>(first: PromiseLike<P>): AsyncGenerator<P, void, undefined> {
  let page = await first;
  yield page;
  while (page.hasNextPage()) {
    page = (await page.getNextPage()) as P;
    yield page;
  }
}

/** `first`'s items and those of the pages after it, collected as `PagePromise.toArray` says. */
export async function collectItems<T>(
  first: PromiseLike<WalkedPage<T>>,
  options: { limit?: number | undefined; concurrency?: number | undefined },
  fetchPage: (page: number) => PromiseLike<WalkedPage<T>>,
): Promise<T[]> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!(limit === Number.POSITIVE_INFINITY || (Number.isSafeInteger(limit) && limit >= 0))) {
    throw new InvalidArgumentError(`toArray limit must be a whole number ≥ 0, got ${String(limit)}`);
  }
  if (!(Number.isSafeInteger(concurrency) && concurrency >= 1)) {
    throw new InvalidArgumentError(`toArray concurrency must be a whole number ≥ 1, got ${String(concurrency)}`);
  }
  const page1 = await first;
  let lastPage = page1.hasNextPage() ? page1.totalPages : page1.page;
  if (limit !== Number.POSITIVE_INFINITY) {
    const missing = Math.max(0, limit - page1.data.length);
    lastPage = Math.min(lastPage, page1.page + Math.ceil(missing / Math.max(1, page1.pageSize)));
  }
  const items = page1.data.slice(0, limit);
  for await (const page of inOrder(page1.page + 1, lastPage, concurrency, fetchPage)) {
    // One push per item: spreading a page's items as arguments would overflow the stack on a big page.
    for (const item of page.data) if (items.length < limit) items.push(item);
    if (!page.hasNextPage() || items.length >= limit) break;
  }
  return items;
}

/**
 * The pages `from`..`to` in order, with up to `concurrency` requests in flight ahead of the
 * consumer. Only that window is held, so a claim of a billion pages costs nothing until they
 * arrive; when the consumer stops, pages still in flight are left to settle unobserved.
 */
async function* inOrder<T>(
  from: number,
  to: number,
  concurrency: number,
  fetchPage: (page: number) => PromiseLike<WalkedPage<T>>,
): AsyncGenerator<WalkedPage<T>> {
  const window: Promise<WalkedPage<T>>[] = [];
  let next = from;
  while (true) {
    while (window.length < concurrency && next <= to) {
      const pending = Promise.resolve(fetchPage(next++));
      pending.catch(() => {}); // observed below when its turn comes; abandoned ones must not be unhandled
      window.push(pending);
    }
    const head = window.shift();
    if (head === undefined) return;
    yield await head;
  }
}
