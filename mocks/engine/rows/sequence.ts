/**
 * Lists read by position, for drawing rows from: an array is one, and so is a view of a table's
 * ordering (`Collection.sequence`), read in O(log n) without copying the table. A factory or the
 * activity that picks a member of a server of 100k members so costs what it costs on a small one.
 * @module
 */

/**
 * A list read by position.
 * @example
 * const ids: Sequence<string> = ['a', 'b'];
 * ids.at(ids.length - 1); // 'b'
 */
export interface Sequence<T> {
  /** How many items it holds. */
  readonly length: number;
  /**
   * The item at `index`, from 0 to `length - 1`.
   * @example
   * const members = mock.store.main.members.sequence();
   * const oldest = members.at(members.length - 1);
   */
  at(index: number): T | undefined;
}

/** `items` with `map` applied to each, as each is read. */
export const mapped = <From, To>(items: Sequence<From>, map: (item: From) => To): Sequence<To> => ({
  get length() {
    return items.length;
  },
  at: (index) => {
    const item = items.at(index);
    return item === undefined ? undefined : map(item);
  },
});

/** The first `count(length)` items of `items`, however long `items` is when read. */
export function prefix<T>(items: Sequence<T>, count: (length: number) => number): Sequence<T> {
  const length = () => Math.min(items.length, count(items.length));
  return {
    get length() {
      return length();
    },
    at: (index) => (index < length() ? items.at(index) : undefined),
  };
}

/** The items of `items` in an array: `items` itself when it is one, else a copy (O(n): for short lists). */
export const toArray = <T>(items: Sequence<T>): readonly T[] =>
  Array.isArray(items) ? (items as readonly T[]) : Array.from({ length: items.length }, (_, index) => items.at(index)!);
