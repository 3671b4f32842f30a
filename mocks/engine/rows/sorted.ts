/**
 * A sorted sequence that stays sorted as values come and go, and reads by position: what a
 * table's orderings and index buckets are kept in, so that a write costs O(log n) in the table's
 * size and a page O(log n + page), where re-sorting the table after each write cost O(n log n).
 *
 * It is a treap: a binary search tree by `compare` whose nodes also form a heap by a random
 * priority, which keeps its depth O(log n) in expectation whatever the order of the writes; each
 * node counts the nodes under it, so the k-th value is found by walking one path.
 * @module
 */

interface Node<T> {
  readonly value: T;
  readonly priority: number;
  /** Nodes in this subtree, this one included. */
  size: number;
  left: Node<T> | undefined;
  right: Node<T> | undefined;
}

const sizeOf = (node: Node<unknown> | undefined) => node?.size ?? 0;

function counted<T>(node: Node<T>): Node<T> {
  node.size = 1 + sizeOf(node.left) + sizeOf(node.right);
  return node;
}

const leaf = <T>(value: T): Node<T> => ({ value, priority: Math.random(), size: 1, left: undefined, right: undefined });

/** `node`'s values before `value`, and the rest. */
function split<T>(node: Node<T> | undefined, value: T, compare: (a: T, b: T) => number): [Node<T> | undefined, Node<T> | undefined] {
  if (!node) return [undefined, undefined];
  if (compare(node.value, value) < 0) {
    const [before, rest] = split(node.right, value, compare);
    node.right = before;
    return [counted(node), rest];
  }
  const [before, rest] = split(node.left, value, compare);
  node.left = rest;
  return [before, counted(node)];
}

/** One tree of `before`'s values then `after`'s (every one of `before` comes first). */
function merge<T>(before: Node<T> | undefined, after: Node<T> | undefined): Node<T> | undefined {
  if (!before) return after;
  if (!after) return before;
  if (before.priority > after.priority) {
    before.right = merge(before.right, after);
    return counted(before);
  }
  after.left = merge(before, after.left);
  return counted(after);
}

function insert<T>(node: Node<T> | undefined, fresh: Node<T>, compare: (a: T, b: T) => number): Node<T> {
  if (!node) return fresh;
  if (fresh.priority > node.priority) {
    [fresh.left, fresh.right] = split(node, fresh.value, compare);
    return counted(fresh);
  }
  if (compare(fresh.value, node.value) < 0) node.left = insert(node.left, fresh, compare);
  else node.right = insert(node.right, fresh, compare);
  return counted(node);
}

/** The subtree of `nodes` (sorted, each a leaf) that has a heap's shape by priority: a Cartesian tree, built in O(n). */
function heapOf<T>(nodes: readonly Node<T>[]): Node<T> | undefined {
  const spine: Node<T>[] = [];
  for (const node of nodes) {
    let below: Node<T> | undefined;
    while (spine.length && spine[spine.length - 1]!.priority < node.priority) below = spine.pop();
    node.left = below;
    if (spine.length) spine[spine.length - 1]!.right = node;
    spine.push(node);
  }
  const root = spine[0];
  const count = (node: Node<T> | undefined): number => (node ? (node.size = 1 + count(node.left) + count(node.right)) : 0);
  count(root);
  return root;
}

/**
 * Values kept in `compare`'s order, where no two compare equal (a table's orderings break ties by
 * its key). Insert and remove cost O(log n); reading `count` values from a position costs
 * O(log n + count).
 */
export class SortedList<T> {
  #root: Node<T> | undefined;

  /** `sorted` must already be in `compare`'s order: it is taken as it is, in O(n). */
  constructor(
    private readonly compare: (a: T, b: T) => number,
    sorted: readonly T[] = [],
  ) {
    this.#root = heapOf(sorted.map(leaf));
  }

  get size(): number {
    return sizeOf(this.#root);
  }

  insert(value: T): void {
    this.#root = insert(this.#root, leaf(value), this.compare);
  }

  /**
   * Removes `value` itself (not another value that compares equal), found where `compare` places
   * it. `false` when it is not there: it was never inserted, or it changed in place since and is
   * now out of order, and the list can no longer be trusted.
   */
  remove(value: T): boolean {
    const path: Node<T>[] = [];
    let node = this.#root;
    while (node) {
      const order = this.compare(value, node.value);
      if (order === 0) break;
      path.push(node);
      node = order < 0 ? node.left : node.right;
    }
    if (!node || node.value !== value) return false;
    const rest = merge(node.left, node.right);
    const parent = path[path.length - 1];
    if (!parent) this.#root = rest;
    else if (parent.left === node) parent.left = rest;
    else parent.right = rest;
    for (const above of path) above.size--;
    return true;
  }

  /** The value at position `index` (0-based), if there is one. */
  at(index: number): T | undefined {
    let node = this.#root;
    let skip = index;
    while (node) {
      const before = sizeOf(node.left);
      if (skip < before) node = node.left;
      else if (skip > before) {
        skip -= before + 1;
        node = node.right;
      } else return node.value;
    }
    return undefined;
  }

  /** The values at positions `start` (0-based) to `end` (excluded), in order. */
  slice(start: number, end: number = this.size): T[] {
    const values: T[] = [];
    const count = Math.min(end, this.size) - start;
    if (count <= 0) return values;
    // Down to the value at `start`, keeping every node still to come after it.
    const ahead: Node<T>[] = [];
    let node = this.#root;
    let skip = start;
    while (node) {
      const before = sizeOf(node.left);
      if (skip < before) {
        ahead.push(node);
        node = node.left;
      } else if (skip > before) {
        skip -= before + 1;
        node = node.right;
      } else {
        ahead.push(node);
        break;
      }
    }
    while (values.length < count) {
      const next = ahead.pop()!;
      values.push(next.value);
      for (let after = next.right; after; after = after.left) ahead.push(after);
    }
    return values;
  }
}
