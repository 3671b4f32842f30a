/**
 * The watch keys a list's line names (`list('logs.list', path, Item, created)`): how `watch()` tells the
 * list's items apart and finds new ones. See `src/core/watch.ts` for what each strategy costs.
 * @module
 */
import type { WatchKeys } from '../core/types';

/** Items with an `id` and a `createdAt`, listed newest first: polled newest first. */
export const created: WatchKeys = { id: 'id', time: 'createdAt', newestFirst: true };
/** The same, on a list whose default order is another (roles, call notes: oldest first; department members: by rank). */
export const createdListedOtherwise: WatchKeys = { id: 'id', time: 'createdAt' };
/** Audit log events: `id` and `timestamp`, newest first. */
export const stamped: WatchKeys = { id: 'id', time: 'timestamp', newestFirst: true };
/** Join requests: one per user, so keyed by `userId`; newest first. */
export const joinRequest: WatchKeys = { id: 'userId', time: 'createdAt', newestFirst: true };
/** Items without a time (departments, ranks, CAD units and groups): diffed by `id`, reading the whole list each poll. */
export const byId: WatchKeys = { id: 'id' };
