/**
 * A first-in, first-out queue for requests held by the rate limit: O(1) push and shift at any
 * length (an array's `shift` moves every element), and removal from the middle (an abort) that
 * costs nothing until the item would reach the front. Tens of thousands of held requests (a
 * `Promise.all` over a long list of ids) stay cheap.
 * @module
 */

/** An item the queue can drop in place: `removed` once taken out of the middle. */
export interface Queued {
  removed?: boolean;
}

export class Queue<Item extends Queued> implements Iterable<Item> {
  #items: Item[] = [];
  #head = 0;
  #size = 0;

  /** Items still queued. */
  get size(): number {
    return this.#size;
  }

  push(item: Item): void {
    this.#items.push(item);
    this.#size++;
  }

  /** The first item still queued, left in place. */
  peek(): Item | undefined {
    while (this.#head < this.#items.length && this.#items[this.#head]!.removed) this.#head++;
    this.#compact();
    return this.#items[this.#head];
  }

  /** Takes `item` out, wherever it stands; false when it was not queued. */
  remove(item: Item): boolean {
    if (item.removed || this.#size === 0) return false;
    item.removed = true;
    this.#size--;
    return true;
  }

  *[Symbol.iterator](): Iterator<Item> {
    for (let i = this.#head; i < this.#items.length; i++) if (!this.#items[i]!.removed) yield this.#items[i]!;
  }

  /** Drops the consumed front once it is most of the array, so memory follows what is queued. */
  #compact(): void {
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }
}
