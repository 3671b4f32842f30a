/**
 * Items of a list gathered over time (pages fetched one after another, a watch's finds before
 * the first page): the same item can come twice when the list moved in between, and a view of
 * them shows it once.
 * @module
 */

/**
 * `items` in order with each value of the field `id` once: the first copy wins. An item without
 * that field is kept: nothing says it repeats another.
 */
export function onceEach<Item>(items: readonly Item[], id: string): Item[] {
  const seen = new Set<unknown>();
  return items.filter((item) => {
    const key = (item as Record<string, unknown>)[id];
    return key == null || (!seen.has(key) && seen.add(key));
  });
}
