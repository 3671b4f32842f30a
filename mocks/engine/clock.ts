/**
 * The mock's one clock: the `now` option (default `Date.now`) plus an offset that
 * `mock.clock.advance(ms)` moves forward and `mock.reset()` sets back to 0. Everything in the mock
 * that depends on the time reads it here, so a test can age the world without waiting.
 * @module
 */
import type * as z from 'zod/mini';
import { describe } from '../../src/core/arguments';
import { InvalidArgumentError } from '../../src/core/errors';
import type { MockClock } from '../contract/in-process';
import { CreateTokenRequestSchema } from '../../src/schemas/tokens';
import { ACTIVITY_REACH_DAYS } from './activity/index';
import { MAX_SECONDS } from './rows/rules';

const DAY_SECONDS = 86_400;

/**
 * The largest whole number `schema` accepts, found by parsing: the schema's own rule, whatever
 * it is written as. It must accept 1 and every number up to its largest.
 */
function largestAccepted(schema: z.ZodMiniType): number {
  let [accepted, refused] = [1, Number.MAX_SAFE_INTEGER + 1];
  while (refused - accepted > 1) {
    const middle = accepted + Math.floor((refused - accepted) / 2);
    if (schema.safeParse(middle).success) accepted = middle;
    else refused = middle;
  }
  return accepted;
}

/**
 * How far past "now" the mock writes a time, at most, for each time it derives from its clock:
 * a created token's `expiresAt` (now plus `expiresInDays`, at most what `tokens.create`'s schema
 * accepts: 36 500 days) and the activity's LOAs and temporary bans. Created rows, `lastUsedAt`,
 * `deactivatedAt`, the activity's own timestamps and the journal hold now itself.
 */
const AHEAD_SECONDS = Math.max(
  largestAccepted(CreateTokenRequestSchema.shape.expiresInDays) * DAY_SECONDS,
  ACTIVITY_REACH_DAYS * DAY_SECONDS,
);

/**
 * The furthest the clock goes, in milliseconds: short of the latest time a row may hold
 * ({@link MAX_SECONDS}) by the furthest the mock writes past now, so every time it derives from
 * the clock is one its tables take (the year 5038).
 */
const LATEST_MS = (MAX_SECONDS - AHEAD_SECONDS) * 1000;

/**
 * The furthest an advance goes: a year short of {@link LATEST_MS}, so real time runs on after
 * it. At its end the clock stands still, and what waits on it never comes: a spent rate-limit
 * window stayed spent, answering `Retry-After: 1` for good, and a suspension never ended.
 */
const ADVANCE_LIMIT_MS = LATEST_MS - 366 * DAY_SECONDS * 1000;

/** The year of `ms`, for messages. */
const yearOf = (ms: number) => new Date(ms).getUTCFullYear();

/** The clock of one mock, and the reset that `mock.reset()` calls. */
export interface ClockControl {
  readonly clock: MockClock;
  /** Sets the offset back to 0: the clock reads its source again. */
  reset(): void;
}

/** A clock reading `source` (the `now` option) plus the offset that `advance` builds up. */
export function createClock(source: () => number): ClockControl {
  let offset = 0;
  const now = () => {
    const ms = source();
    // A source that returns no number would otherwise become rows and windows of NaN; one past
    // the clock's end, times the tables refuse.
    if (!(Number.isFinite(ms) && ms <= LATEST_MS)) {
      throw new InvalidArgumentError(`the mock's clock (options.now) must return milliseconds up to ${LATEST_MS}, got ${describe(ms)}`);
    }
    // Real time goes on after an advance to the end: the clock stays at its end.
    return Math.min(ms + offset, LATEST_MS);
  };
  return {
    clock: {
      now,
      // `ms` meets its schema (the call checked it); how far the clock may go, the clock says.
      advance(ms) {
        const next = offset + ms;
        const room = Math.max(0, ADVANCE_LIMIT_MS - now());
        if (ms > room) {
          throw new InvalidArgumentError(
            `clock.advance(ms): an advance goes as far as ${ADVANCE_LIMIT_MS} ms (the year ${yearOf(ADVANCE_LIMIT_MS)}), a year short of where the clock stops so that it keeps running (${LATEST_MS} ms, the year ${yearOf(LATEST_MS)}: rows hold times up to ${MAX_SECONDS} s, and the mock writes times up to ${AHEAD_SECONDS} s past now); it can move at most ${room} ms further, got ${ms}`,
          );
        }
        offset = next;
        return now();
      },
    },
    reset() {
      offset = 0;
    },
  };
}
