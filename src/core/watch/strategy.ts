/**
 * What a watch asks of the way it tells new items from seen ones: the contract between the
 * polling loop (`watch.ts`) and the two strategies (`time.ts`, `diff.ts`).
 *
 * The order in which a watch calls a strategy:
 * 1. `order`, read for every request the watch sends;
 * 2. `restore(cursor)`, once, when the watch resumes from a cursor (the cursor already checked);
 * 3. `canUse(params, page)`, once, on the list's own first page: whether a walk may start from it;
 * 4. for a watch not resumed, its baseline: `reached(items, top)` after each page the baseline
 *    walk reads (`top`: the walk's first item), then `begin(items)` once, with every item read;
 * 5. each poll: `reached(items, undefined)` after each page; `settle(items)` once the walk read
 *    the list consistently; `isNew(item)` for every item read; `arrange(newItems)` once; then
 *    `mark(item)` for each new item, just before it is yielded;
 * 6. `cursor(list)`, whenever `watch.cursor` is read (any time after 2 or 4).
 * @module
 */
import type { ListParams, PageView, WatchCursor } from '../types';

/** An item's id as a cursor stores it. */
export type Id = string | number;

/** How new items are told from seen ones: by position in time, or by a diff of ids. */
export interface Strategy {
  /** Order parameters every request of the watch sends. */
  readonly order: ListParams;
  /** Takes the position a cursor saved (a cursor of this strategy's kind: `cursor.ts` checked it). */
  restore(cursor: WatchCursor): void;
  /** Whether a page fetched in that order shows the caller's page can serve as the first one read. */
  canUse(params: ListParams, page: PageView<unknown>): boolean;
  /**
   * Whether the walk can stop after this page: it reached what was seen, or for a baseline
   * (`top`: the walk's first item, `NO_ITEM` for an empty list), what is older than the newest items.
   */
  reached(items: readonly unknown[], top: unknown): boolean;
  /** Sets the position from a baseline's items: they count as seen. */
  begin(items: readonly unknown[]): void;
  /** After a complete, consistent walk: forget ids no longer listed (diff only). */
  settle(items: readonly unknown[]): void;
  isNew(item: unknown): boolean;
  /** The new items of a walk, in the order they are yielded (oldest first). */
  arrange(items: unknown[]): unknown[];
  mark(item: unknown): void;
  cursor(list: string): WatchCursor;
}

/** A baseline walk's first item when the list is empty. */
export const NO_ITEM = Symbol('no item');

/** `item[name]`, or `undefined` for what is not an object. */
export function field(item: unknown, name: string): unknown {
  return typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[name] : undefined;
}
