/**
 * Items of a list gathered over time (pages fetched one after another, a watch's finds before
 * the first page): the same item can come twice when the list moved in between, and a view of
 * them shows it once.
 * @module
 */

/**
 * `items` in order with each value of the field `id` once: the first copy wins. Items without the
 * field are not told apart (a list's items all have it: the schema requires it), so the first
 * stands for them all, as it always did in a live list, whose kept items would otherwise come
 * back with each refetch.
 */
export function onceEach<Item>(items: readonly Item[], id: string): Item[] {
  const seen = new Set<unknown>();
  return items.filter((item) => {
    const key = (item as Record<string, unknown>)[id];
    return !seen.has(key) && seen.add(key);
  });
}
