/**
 * The strategy of lists whose items carry a time (`createdAt`; `timestamp` for audit logs):
 * polled newest first, `orderBy=<time>&sort=desc`. The position is the newest time yielded and
 * the ids yielded at that time, so the state is bounded by how many items share one timestamp,
 * never by the watch's age. A poll reads pages until one reaches an item older than that
 * position: a poll with nothing new costs one request (two only if a whole page shares it).
 * @module
 */
import { describe } from '../arguments';
import { CommunityServerError } from '../error-classes';
import type { ListParams, PageView, WatchCursor } from '../types';
import { field, NO_ITEM, type Id, type Strategy } from './strategy';

export class TimeStrategy implements Strategy {
  readonly order: ListParams;
  #after: { time: number | null; ids: Set<Id> } = { time: null, ids: new Set() };

  constructor(
    private readonly id: string,
    private readonly time: string,
    private readonly newestFirst: boolean,
  ) {
    this.order = { orderBy: time, sort: 'desc' };
  }

  restore(cursor: WatchCursor): void {
    if ('after' in cursor) this.#after = { time: cursor.after.time, ids: new Set(cursor.after.ids) };
  }

  canUse(params: ListParams, page: PageView<unknown>): boolean {
    // Only a first page asked for in the watch's order, or in a default order declared newest
    // first, holds the newest items. The order of the data is checked too, against a service
    // whose default is another, but it cannot tell: one item, or items of one second, look
    // ordered in any order.
    const orderBy = params.orderBy ?? (this.newestFirst ? this.time : undefined);
    const sort = params.sort ?? (this.newestFirst && params.orderBy === undefined ? 'desc' : undefined);
    const ordered = orderBy === this.time && sort === 'desc' && page.page === 1;
    return ordered && page.data.every((item, i) => i === 0 || this.timeOf(item) <= this.timeOf(page.data[i - 1]));
  }

  reached(items: readonly unknown[], top: unknown): boolean {
    // A baseline reads on only while whole pages share the newest time (their ids are the position).
    const limit = top === undefined ? this.#after.time : top === NO_ITEM ? null : this.timeOf(top);
    return limit !== null && items.some((item) => this.timeOf(item) < limit);
  }

  isNew(item: unknown): boolean {
    const { time, ids } = this.#after;
    const t = this.timeOf(item);
    return time === null || t > time || (t === time && !ids.has(field(item, this.id) as Id));
  }

  begin(items: readonly unknown[]): void {
    // Items newer than the walk's first one arrived while the baseline was read: they are new.
    const top = items.length > 0 ? this.timeOf(items[0]) : null;
    for (const item of items) if (this.timeOf(item) === top && this.isNew(item)) this.mark(item);
  }

  settle(): void {}

  arrange(items: unknown[]): unknown[] {
    // The walk read newest first; reversed, equal times keep the service's order, oldest first.
    return items.reverse().sort((a, b) => this.timeOf(a) - this.timeOf(b));
  }

  mark(item: unknown): void {
    const t = this.timeOf(item);
    const id = field(item, this.id) as Id;
    if (this.#after.time === null || t > this.#after.time) this.#after = { time: t, ids: new Set([id]) };
    else if (t === this.#after.time) this.#after.ids.add(id);
  }

  cursor(list: string): WatchCursor {
    return { v: 1, list, after: { time: this.#after.time, ids: [...this.#after.ids] } };
  }

  timeOf(item: unknown): number {
    const t = field(item, this.time);
    if (typeof t === 'number' && Number.isFinite(t)) return t;
    throw new CommunityServerError(
      `an item ${describe(field(item, this.id))} has no ${this.time} (${describe(t)}); a watch cannot place it in time`,
    );
  }
}
