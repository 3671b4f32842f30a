/**
 * The strategy of lists whose items carry no time (departments, ranks, CAD units and unit
 * groups): each poll reads the whole list (`orderBy=<id>&sort=asc`, ⌈total / pageSize⌉
 * requests) and diffs its ids; the position is the set of ids present, bounded by the list's size.
 * @module
 */
import type { ListParams, PageView, WatchCursor } from '../types';
import { field, type Id, type Strategy } from './strategy';

export class DiffStrategy implements Strategy {
  readonly order: ListParams;
  #seen = new Set<Id>();

  constructor(private readonly id: string) {
    this.order = { orderBy: id, sort: 'asc' };
  }

  restore(cursor: WatchCursor): void {
    if ('seen' in cursor) this.#seen = new Set(cursor.seen);
  }

  canUse(params: ListParams, page: PageView<unknown>): boolean {
    // Any order will do for a list of one page; pages after the first must be in the watch's order.
    const ordered = params.orderBy === this.id && params.sort === 'asc';
    return page.page === 1 && (ordered || !page.hasNextPage());
  }

  reached(): boolean {
    return false;
  }

  isNew(item: unknown): boolean {
    return !this.#seen.has(this.#idOf(item));
  }

  begin(items: readonly unknown[]): void {
    for (const item of items) this.mark(item);
  }

  settle(items: readonly unknown[]): void {
    // Ids no longer listed are forgotten (the set stays the list's size); new ones join as yielded.
    const listed = new Set(items.map((item) => this.#idOf(item)));
    this.#seen = new Set([...this.#seen].filter((id) => listed.has(id)));
  }

  arrange(items: unknown[]): unknown[] {
    return items;
  }

  mark(item: unknown): void {
    this.#seen.add(this.#idOf(item));
  }

  cursor(list: string): WatchCursor {
    return { v: 1, list, seen: [...this.#seen] };
  }

  #idOf(item: unknown): Id {
    return field(item, this.id) as Id;
  }
}
