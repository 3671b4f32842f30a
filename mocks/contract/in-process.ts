/**
 * The calls of a mock in-process (`mock.faults.add(rule)`, `mock.clock.advance(ms)`, …), derived
 * from the control API's table: the same operations `connectMock` calls over HTTP, with the same
 * arguments, checks and documentation, answered at once instead of as a promise.
 * @module
 */
import type { ActivityFailure } from './activity';
import type { ControlApi, ControlOperation } from './operations';

/** The in-process method of each operation of `Table`: the call's own arguments and result. */
export type InProcessCalls<Table> = {
  readonly [Name in keyof Table]: Table[Name] extends ControlOperation<infer Args, infer Result>
    ? (...args: Args) => Result
    : InProcessCalls<Table[Name]>;
};

/**
 * The faults of one mock: `mock.faults`. Rules are tried in the order they were added, the
 * first matching one acts, and a rule whose `times` are used up disappears. A fault answers
 * before authentication and the rate limit, as a failure upstream of the service would: a
 * faulted request needs no valid token, and does not count against the window.
 * `mock.reset()` clears them.
 * @example
 * mock.faults.add({ endpoint: 'members.list', status: 503, times: 1 });
 * await expect(client.members.list()).rejects.toBeInstanceOf(ServiceUnavailableError);
 * await client.members.list(); // answered normally
 */
export interface MockFaults extends InProcessCalls<ControlApi['faults']> {}

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
export interface MockClock extends InProcessCalls<ControlApi['clock']> {
  /**
   * The mock's "now", in milliseconds: the `now` option's reading plus every `advance` since
   * the last `reset()`, never past the clock's end (the year 5038), where it stays. An advance
   * stops a year short of it, so the clock runs on after one.
   * @example
   * const before = mock.clock.now();
   * mock.clock.advance(1000);
   * expect(mock.clock.now()).toBeGreaterThanOrEqual(before + 1000);
   */
  now(): number;
}

/**
 * `mock.activity`: the mock's world changing by itself, as a community does, so that code that
 * follows activity (polls, `watch()`) can be tried offline. Every event is drawn from the mock's
 * seed: the same seed, the same clock and the same starting data give the same events.
 * @example
 * const mock = createMockApi({ seed: 1 });
 * const events = mock.activity.step(3); // three new rows, returned as { kind, row }
 * mock.activity.start({ intervalMs: 1_000 }); // one event a second, until stop() or reset()
 * mock.activity.stop();
 */
export interface MockActivity extends InProcessCalls<Pick<ControlApi['activity'], 'step' | 'start' | 'stop'>> {
  /** Whether the timer runs. */
  readonly running: boolean;
  /**
   * Why the timer stopped by itself, or `null`: an event it could not make (a row a test wrote
   * with a time at the very end of what rows hold, a `now` option that throws…). The timer never
   * throws: it stops, and says why here. `start()` and `mock.reset()` clear it.
   * @example
   * mock.activity.start({ intervalMs: 100 });
   * // … later
   * if (mock.activity.failure) console.error(`the activity stopped: ${mock.activity.failure.message}`);
   */
  readonly failure: ActivityFailure | null;
}
