/**
 * `mock.clock`: the `now` option plus what `advance(ms)` adds. Advancing it ages everything the
 * mock times (token expiry, rate-limit windows, suspensions, the rows it writes, the journal)
 * without waiting; `reset()` takes the advance back. Also `mock.setRateLimit`, the rate limit
 * changed at run time.
 */
import { AuthenticationError, InvalidArgumentError } from 'community-server-sdk';
import { createMockApi, type MockOptions, type RateLimitOptions } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { mockClient, rawAnswer } from '../../helpers';

/** A fixed instant after the seeded world: 2026-11-20 12:00 UTC. */
const NOON = Date.UTC(2026, 10, 20, 12, 0, 0);
const DAY = 86_400_000;

/** The latest time a row holds, in seconds (the year 5138). */
const MAX_SECONDS = 1e11;
/** The longest time past now the mock writes: a token's longest lifetime, 36 500 days. */
const LONGEST_TOKEN_S = 36_500 * 86_400;
/** The clock's end: the latest time a row holds, less the longest time the mock writes past now. */
const CLOCK_END = (MAX_SECONDS - LONGEST_TOKEN_S) * 1000;
/** The furthest an advance goes: a year short of the end, so the clock runs on after it. */
const ADVANCE_END = CLOCK_END - 366 * DAY;

/** A mock whose clock's source stands still, so only `advance` moves it. */
const frozen = (options: MockOptions = {}) => createMockApi({ ...options, now: () => NOON });

describe('mock.clock', () => {
  it('reads the now option plus every advance; advance returns the new now; reset() takes the advance back', () => {
    const mock = frozen();
    expect(mock.clock.now()).toBe(NOON);
    expect(mock.clock.advance(1_500)).toBe(NOON + 1_500);
    expect(mock.clock.advance(0)).toBe(NOON + 1_500);
    expect(mock.clock.advance(DAY)).toBe(NOON + 1_500 + DAY);
    expect(mock.clock.now()).toBe(NOON + 1_500 + DAY);
    mock.reset();
    expect(mock.clock.now()).toBe(NOON);
  });

  it('runs on Date.now without a now option', () => {
    const mock = createMockApi();
    const before = Date.now();
    const read = mock.clock.advance(60_000);
    expect(read).toBeGreaterThanOrEqual(before + 60_000);
    expect(read).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it.each([[-1], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY], ['10'], [undefined], [Number.MAX_SAFE_INTEGER + 1]])(
    'advance(%j) throws InvalidArgumentError and moves nothing',
    (ms) => {
      const mock = frozen();
      expect(() => mock.clock.advance(ms as number)).toThrow(InvalidArgumentError);
      expect(() => mock.clock.advance(ms as number)).toThrow('clock.advance(ms): ms must be an integer of milliseconds ≥ 0');
      expect(mock.clock.now()).toBe(NOON);
    },
  );

  it('goes no further than the latest time a row holds, so the world it ages stays servable', () => {
    const mock = frozen();
    const century = 100 * 365 * DAY;
    mock.clock.advance(century);
    expect(mock.clock.now()).toBe(NOON + century);
    const [event] = mock.activity.step(1); // rows written a century on are still seconds
    expect(event!.row).toBeDefined();
    expect(() => mock.clock.advance(Number.MAX_SAFE_INTEGER)).toThrow(
      new InvalidArgumentError(
        `clock.advance(ms): an advance goes as far as ${ADVANCE_END} ms (the year 5037), a year short of where the clock stops so that it keeps running (${CLOCK_END} ms, the year 5038: rows hold times up to 100000000000 s, and the mock writes times up to ${LONGEST_TOKEN_S} s past now); it can move at most ${ADVANCE_END - NOON - century} ms further, got ${Number.MAX_SAFE_INTEGER}`,
      ),
    );
    expect(mock.clock.now()).toBe(NOON + century);
    mock.clock.advance(ADVANCE_END - NOON - century);
    expect(mock.activity.step(3)).toHaveLength(3);
  });
  it('a token expires once the clock passes its expiresAt, and is valid again after reset()', async () => {
    const mock = frozen();
    const created = await mockClient(mock).tokens.create({ name: 'day pass', expiresInDays: 1 });
    const dayPass = mockClient(mock, { token: String(created.token) });
    expect((await dayPass.tokens.current()).name).toBe('day pass');
    mock.clock.advance(DAY - 1_000);
    expect((await dayPass.tokens.current()).name).toBe('day pass');
    mock.clock.advance(1_000);
    await expect(dayPass.tokens.current()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('a rate-limit window reopens once the clock passes its end', async () => {
    const mock = frozen({ rateLimit: { limit: 2, windowMs: 60_000 } });
    const roles = () => rawAnswer(mock, '/api/v1/server/roles');
    await roles();
    await roles();
    const spent = await roles();
    expect([spent.status, spent.headers.get('retry-after')]).toEqual([429, '60']);
    mock.clock.advance(30_000);
    expect((await roles()).headers.get('retry-after')).toBe('30');
    mock.clock.advance(30_000);
    const reopened = await roles();
    expect([reopened.status, reopened.headers.get('x-ratelimit-remaining')]).toEqual([200, '1']);
  });

  it('a clock that goes back (reset() taking an advance back under a request in flight, a now option) never stretches a window (issue 23, hardening 2)', async () => {
    let source = NOON + 60_000;
    const mock = createMockApi({
      now: () => source,
      rateLimit: { limit: 1, windowMs: 500 },
      authFailureLimit: { failures: 1, durationMs: 1_000 },
    });
    const roles = () => rawAnswer(mock, '/api/v1/server/roles');
    const wrong = () => rawAnswer(mock, '/api/v1/server/roles', { token: 'cs_not_a_token_at_all' });
    expect((await roles()).status).toBe(200); // a window opens at NOON + 60 s
    await wrong();
    source = NOON; // a minute back
    const after = await roles();
    // The window read 60.5 s ahead, and 429 Retry-After 61: a client, or a fleet through Redis, held everything that long.
    expect([after.status, after.headers.get('x-ratelimit-reset-after')]).toEqual([200, '0.500']);
    expect((await wrong()).headers.get('retry-after')).toBe('1');
  });

  it('a suspension ends once the clock passes it', async () => {
    const mock = frozen({ authFailureLimit: { failures: 1, durationMs: 30_000 } });
    const wrong = { token: 'cs_not_a_token' };
    expect((await rawAnswer(mock, '/api/v1/server/roles', wrong)).json.error).toBe('invalid or expired token');
    const suspended = await rawAnswer(mock, '/api/v1/server/roles', wrong);
    expect([suspended.status, suspended.headers.get('retry-after')]).toEqual([401, '30']);
    mock.clock.advance(29_000);
    expect((await rawAnswer(mock, '/api/v1/server/roles', wrong)).headers.get('retry-after')).toBe('1');
    mock.clock.advance(1_000);
    expect((await rawAnswer(mock, '/api/v1/server/roles', wrong)).json.error).toBe('invalid or expired token');
  });

  it('the rows the mock writes, lastUsedAt and the journal follow it', async () => {
    const mock = frozen();
    const client = mockClient(mock);
    mock.clock.advance(10 * DAY);
    const later = NOON + 10 * DAY;
    const created = await client.tokens.create({ name: 'later' });
    expect(created.createdAt).toBe(later / 1000);
    expect((await client.tokens.current()).lastUsedAt).toBe(later / 1000);
    mock.clock.advance(DAY);
    expect((await client.tokens.deactivate(created.id!)).deactivatedAt).toBe((later + DAY) / 1000);
    expect(mock.requests.map((row) => row.at)).toEqual([later, later, later + DAY]);
  });

  it('activity events are timed by it', () => {
    const mock = frozen();
    mock.clock.advance(365 * DAY);
    const [event] = mock.activity.step();
    const row = event!.row as { createdAt?: number; timestamp?: number };
    expect(row.createdAt ?? row.timestamp).toBe((NOON + 365 * DAY) / 1000);
  });

  it('the admin rate-limit report reads it', async () => {
    const mock = frozen({ rateLimit: { limit: 5, windowMs: 60_000 } });
    const client = mockClient(mock);
    await client.roles.list();
    // The status is an open object to the SDK; the mock's report lists each token's counters.
    const mine = async () => {
      const { tokens } = (await client.admin.rateLimit(mock.store.main.info.id)) as { tokens: { name: string }[] };
      return tokens.find((token) => token.name === 'main');
    };
    expect(await mine()).toMatchObject({ used: 2, resetAt: NOON / 1000 + 60 });
    mock.clock.advance(60_000);
    // A new window opened with this very request: the report sees it alone.
    expect(await mine()).toMatchObject({ used: 1, resetAt: NOON / 1000 + 120 });
  });
});

describe('mock.setRateLimit', () => {
  it('turns a rate limit on, changes it and turns it off while the mock runs; reset() returns to the option', async () => {
    const mock = frozen();
    const roles = () => rawAnswer(mock, '/api/v1/server/roles');
    expect((await roles()).headers.get('x-ratelimit-limit')).toBeNull();
    mock.setRateLimit({ limit: 1, windowMs: 1_000 });
    expect((await roles()).headers.get('x-ratelimit-limit')).toBe('1');
    expect((await roles()).status).toBe(429);
    // A new limit starts every token on a fresh window.
    mock.setRateLimit({ limit: 2, windowMs: 1_000 });
    expect([(await roles()).status, (await roles()).status, (await roles()).status]).toEqual([200, 200, 429]);
    mock.setRateLimit(null);
    expect((await roles()).status).toBe(200);
    mock.setRateLimit({ limit: 1, windowMs: 60_000 });
    mock.reset();
    expect((await roles()).headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('reset() brings back the rateLimit option after a change', async () => {
    const mock = frozen({ rateLimit: { limit: 3, windowMs: 60_000 } });
    mock.setRateLimit(null);
    mock.reset();
    expect((await rawAnswer(mock, '/api/v1/server/roles')).headers.get('x-ratelimit-limit')).toBe('3');
  });

  it.each<[unknown, string]>([
    [{ limit: 0, windowMs: 1_000 }, 'setRateLimit(rateLimit): rateLimit.limit must be an integer ≥ 1, got 0'],
    [{ limit: 1 }, 'setRateLimit(rateLimit): rateLimit.windowMs is required'],
    [{ limit: 1, windowMs: 1.5 }, 'setRateLimit(rateLimit): rateLimit.windowMs must be an integer ≥ 1, got 1.5'],
    [{ limit: 1, windowMs: 1_000, burst: 3 }, 'setRateLimit(rateLimit): unknown key "burst" in rateLimit; accepted: limit, windowMs'],
    [10, 'setRateLimit(rateLimit): rateLimit must be an object or null, got number'],
    [undefined, 'setRateLimit(rateLimit): rateLimit must be an object or null, got undefined'],
  ])('%j is refused with InvalidArgumentError, and the limit stays', async (value, message) => {
    const mock = frozen({ rateLimit: { limit: 4, windowMs: 60_000 } });
    expect(() => mock.setRateLimit(value as RateLimitOptions)).toThrow(InvalidArgumentError);
    expect(() => mock.setRateLimit(value as RateLimitOptions)).toThrow(message);
    expect((await rawAnswer(mock, '/api/v1/server/roles')).headers.get('x-ratelimit-limit')).toBe('4');
  });
});

describe('issue 23 #4 and #9: at the clock’s end, everything the mock derives from now is still a time a row holds', () => {
  it('tokens.create({ expiresInDays: 36500 }) answers 201 a millisecond before the end, and at it', async () => {
    // Real time takes the clock to its end, a year after the furthest advance.
    let source = CLOCK_END - 1;
    const mock = createMockApi({ now: () => source });
    const client = mockClient(mock);
    const almost = await client.tokens.create({ name: 'century', expiresInDays: 36_500 });
    expect(almost.expiresAt).toBe(Math.floor((CLOCK_END - 1) / 1000) + LONGEST_TOKEN_S);
    source += 1;
    expect(() => mock.clock.advance(1)).toThrow(InvalidArgumentError); // the end: the clock goes no further
    const atEnd = await client.tokens.create({ name: 'century', expiresInDays: 36_500 });
    expect(atEnd.expiresAt).toBe(MAX_SECONDS);
    // The token works: its lifetime is a time the store holds, and it has not expired.
    expect((await mockClient(mock, { token: String(atEnd.token) }).tokens.current()).name).toBe('century');
  });

  it('activity.step() makes every kind of event a day before the end, and at it', () => {
    for (const before of [DAY, 0]) {
      const mock = createMockApi({ now: () => CLOCK_END - before });
      expect(() => mock.clock.advance(1)).toThrow(InvalidArgumentError); // past the furthest advance
      const kinds = new Set(mock.activity.step(2_000).map((event) => event.kind));
      expect(kinds.size).toBeGreaterThan(10);
      expect(kinds).toContain('loas');
    }
  });

  it('real time runs the clock on after the furthest advance, and no further than its end', () => {
    let source = NOON;
    const mock = createMockApi({ now: () => source });
    mock.clock.advance(ADVANCE_END - NOON);
    source += 60_000;
    expect(mock.clock.now()).toBe(ADVANCE_END + 60_000);
    source += 366 * DAY;
    expect(mock.clock.now()).toBe(CLOCK_END);
  });

  it('after an advance as far as it goes, the clock keeps running: a spent rate-limit window ends (issue 23, hardening 2)', async () => {
    const mock = createMockApi({ rateLimit: { limit: 1, windowMs: 200 } }); // on real time
    const room = Number(
      /at most (\d+) ms further/.exec(
        String(
          (() => {
            try {
              mock.clock.advance(Number.MAX_SAFE_INTEGER);
            } catch (error) {
              return error;
            }
          })(),
        ),
      )![1],
    );
    mock.clock.advance(room - 1_000); // the clock ran on since it said so
    const roles = () => rawAnswer(mock, '/api/v1/server/roles');
    expect((await roles()).status).toBe(200);
    const spent = await roles();
    expect([spent.status, spent.headers.get('retry-after')]).toEqual([429, '1']);
    // At the end the clock stood still: the window never ended, and Retry-After said 1 s for good.
    const deadline = performance.now() + 10_000;
    let reopened = spent.status;
    while (reopened === 429 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      reopened = (await roles()).status;
    }
    expect(reopened).toBe(200);
  });

  it('a now option past the end is named, not turned into rows the tables refuse', async () => {
    const mock = createMockApi({ now: () => CLOCK_END + 1 });
    expect(() => mock.clock.now()).toThrow(
      `the mock's clock (options.now) must return milliseconds up to ${CLOCK_END}, got ${CLOCK_END + 1}`,
    );
  });
});
