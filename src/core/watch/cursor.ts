/**
 * A watch's position as plain JSON (`watch.cursor`), and the check of one handed back: its shape,
 * the list it belongs to, and bounds that keep a cursor from doing what no watch could have saved
 * (a time in the far future, after which nothing is ever new; a time ≤ 0, before which everything
 * is; ids past what memory should hold). A checked cursor goes to its strategy's `restore`.
 * @module
 */
import { describe, isPlainObject } from '../arguments';
import { InvalidArgumentError } from '../error-base';
import type { WatchCursor, WatchKeys } from '../types';
import type { Id } from './strategy';

/** Ids a cursor may hold: past them, the position is not one a watch saved but a way to fill memory. */
export const MAX_CURSOR_IDS = 100_000;
/** Characters an id may have in a cursor. */
const MAX_ID_LENGTH = 1024;
/** How far ahead of this machine's clock a cursor's time may be (a service's clock ahead, a mock's clock moved on). */
const MAX_LEAD_MS = 366 * 86_400_000;
/** Below this a time counts seconds, as `toDate` reads it (1e11 s is the year 5138; 1e11 ms, March 1973). */
const SECONDS_BELOW = 1e11;

const isId = (id: unknown) => (typeof id === 'string' && id.length <= MAX_ID_LENGTH) || (typeof id === 'number' && Number.isFinite(id));
const isIds = (value: unknown): value is Id[] => Array.isArray(value) && value.length <= MAX_CURSOR_IDS && value.every(isId);

/**
 * Checks `cursor` (anything, as parsed from where it was stored) against the list `list` whose
 * items are kept apart by `keys`, and gives it as a strategy restores it; `InvalidArgumentError`
 * says what is wrong, before the watch sends anything.
 */
export function checkCursor(cursor: unknown, list: string, keys: WatchKeys): WatchCursor {
  const bad = (what: string) => new InvalidArgumentError(`watch cursor ${what}; pass a watch.cursor from a watch of ${list}`);
  if (!isPlainObject(cursor)) throw bad(`must be an object, got ${describe(cursor)}`);
  if (cursor.v !== 1) throw bad(`has version ${describe(cursor.v)}, expected 1`);
  if (cursor.list !== list) throw bad(`belongs to ${describe(cursor.list)}, not to this list`);
  const expected = keys.time === undefined ? ['v', 'list', 'seen'] : ['v', 'list', 'after'];
  const extra = Object.keys(cursor).find((key) => !expected.includes(key));
  if (extra !== undefined) throw bad(`has an unexpected field "${extra}"`);
  const ids = `an array of at most ${MAX_CURSOR_IDS} ids (strings of up to ${MAX_ID_LENGTH} characters, or finite numbers)`;
  if (keys.time === undefined) {
    if (!isIds(cursor.seen)) throw bad(`needs "seen": ${ids}`);
    return { v: 1, list, seen: cursor.seen };
  }
  const after = cursor.after;
  if (!isPlainObject(after) || Object.keys(after).some((key) => key !== 'time' && key !== 'ids')) throw bad('needs "after": { time, ids }');
  const { time } = after;
  if (!(time === null || (typeof time === 'number' && Number.isFinite(time)))) throw bad('needs "after.time": a number or null');
  if (time !== null && time <= 0) throw bad(`has "after.time" ${time}: a time must be after 1970, else every item of the list is new`);
  if (time !== null && (time < SECONDS_BELOW ? time * 1000 : time) > Date.now() + MAX_LEAD_MS) {
    throw bad(`has "after.time" ${time}, more than a year ahead of this clock: no item would ever be new`);
  }
  if (!isIds(after.ids)) throw bad(`needs "after.ids": ${ids}`);
  return { v: 1, list, after: { time, ids: after.ids } };
}
