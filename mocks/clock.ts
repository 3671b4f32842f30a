/**
 * The mock's one clock: the `now` option (default `Date.now`) plus an offset that
 * `mock.clock.advance(ms)` moves forward and `mock.reset()` sets back to 0. Everything in the mock
 * that depends on the time reads it here, so a test can age the world without waiting.
 * @module
 */
import { describe } from '../src/core/arguments';
import { InvalidArgumentError } from '../src/core/errors';
import { MAX_SECONDS } from './row-rules';

/**
 * The furthest the clock goes: the latest time a row may hold (in seconds, as rows hold them).
 * Past it, the activity would write times its own tables refuse as milliseconds.
 */
const LATEST_MS = MAX_SECONDS * 1000;

/**
 * The mock's clock, in milliseconds since the epoch: `mock.clock`. It moves token expiry,
 * rate-limit windows, auth-failure suspensions, the timestamps of rows the mock writes (activity
 * events, created and deactivated tokens, `lastUsedAt`) and the journal's `at`. Latency and
 * `activity.start` timers still wait in real time, and so does a client's own rate-limit gate
 * (`rateLimit: 'wait'`, the default): once an answer told it the window is spent, it holds its
 * requests until that window ends by its clock, whatever this one says (and refuses, with
 * `rate_limit_wait_exceeds_timeout`, one the wait would outlast). A test that moves this clock
 * past rate-limit windows gives its client `rateLimit: 'off'`, so that the mock alone counts.
 * @example
 * const mock = createMockApi({ rateLimit: { limit: 1, windowMs: 60_000 } });
 * const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://community.test', fetch: mock.fetch, rateLimit: 'off', maxRetries: 0 });
 * await client.roles.list();
 * await expect(client.roles.list()).rejects.toMatchObject({ code: 'rate_limited' }); // the window is spent
 * mock.clock.advance(60_000); // the window is over: the next request is admitted at once
 * await client.roles.list();
 */
export interface MockClock {
  /**
   * The mock's "now", in milliseconds: the `now` option's reading plus every `advance` since
   * the last `reset()`.
   * @example
   * const before = mock.clock.now();
   * mock.clock.advance(1000);
   * expect(mock.clock.now()).toBeGreaterThanOrEqual(before + 1000);
   */
  now(): number;
  /**
   * Moves the clock forward by `ms` (an integer ≥ 0, as far as the year 5138: the latest time
   * a row holds) and returns the new now; anything else throws `InvalidArgumentError` and moves
   * nothing. The clock never goes back but by `reset()`.
   * @example
   * mock.clock.advance(25 * 3_600_000); // a day and an hour later: a one-day token has expired
   * await expect(client.members.list()).rejects.toBeInstanceOf(AuthenticationError);
   */
  advance(ms: number): number;
}

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
    // A source that returns no number would otherwise become rows and windows of NaN.
    if (!Number.isFinite(ms)) {
      throw new InvalidArgumentError(`the mock's clock (options.now) must return milliseconds, got ${describe(ms)}`);
    }
    return ms + offset;
  };
  return {
    clock: {
      now,
      advance(ms) {
        if (!(typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= 0)) {
          throw new InvalidArgumentError(`clock.advance(ms): ms must be an integer of milliseconds ≥ 0, got ${describe(ms)}`);
        }
        const next = offset + ms;
        const room = LATEST_MS - now();
        if (ms > room) {
          throw new InvalidArgumentError(
            `clock.advance(ms): the mock's times are Unix seconds up to ${MAX_SECONDS} (the year 5138); the clock can move at most ${Math.max(0, room)} ms further, got ${ms}`,
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
