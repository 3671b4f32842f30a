/**
 * Proactive rate limiting (`rateLimit: 'wait'`, the default): the client reads
 * `X-RateLimit-Remaining`/`Reset` and waits for the window to reset rather than taking a 429.
 * Checked against the mock's real rate limiter, counting every status on the wire.
 */
import {
  AbortError,
  CommunityServerClient,
  InvalidArgumentError,
  RateLimitError,
  type ClientOptions,
  type RateLimitStore,
} from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN, mockClient } from '../helpers';

/** A client on `mock.fetch` that tallies the statuses it receives. */
function counted(mock: MockApi, options: ClientOptions = {}) {
  const statuses: number[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await mock.fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  const client = mockClient(mock, { fetch, maxRetries: undefined, ...options });
  return { client, statuses, count: (status: number) => statuses.filter((s) => s === status).length };
}

describe("rateLimit: 'wait'", () => {
  it('walks every page with toArray at concurrency 4 and never takes a 429', async () => {
    const mock = createMockApi({ rateLimit: { limit: 8, windowMs: 1000 } });
    const { client, statuses, count } = counted(mock);
    const members = await client.members.list({ pageSize: 10 }).toArray({ concurrency: 4 });
    expect(members).toHaveLength(mock.store.main.members.size);
    expect(statuses).toHaveLength(Math.ceil(mock.store.main.members.size / 10));
    expect(count(429)).toBe(0);
  }, 30_000);

  it('walks page by page with for await, and several lists in parallel, without a 429', async () => {
    const mock = createMockApi({ rateLimit: { limit: 5, windowMs: 1000 } });
    const { client, count } = counted(mock);
    let seen = 0;
    for await (const _ of client.logs.list({ pageSize: 50 })) seen++;
    const [roles, departments] = await Promise.all([
      client.roles.list({ pageSize: 2 }).toArray(),
      client.departments.list({ pageSize: 1 }).toArray({ concurrency: 3 }),
    ]);
    expect(seen).toBe(mock.store.main.logs.size);
    expect(roles).toHaveLength(mock.store.main.roles.size);
    expect(departments).toHaveLength(mock.store.main.departments.size);
    expect(count(429)).toBe(0);
  }, 30_000);

  it("with rateLimit: 'off' the same walk runs into 429s (and retries through them)", async () => {
    const mock = createMockApi({ rateLimit: { limit: 8, windowMs: 1000 } });
    const { client, count } = counted(mock, { rateLimit: 'off', maxRetries: 10 });
    const members = await client.members.list({ pageSize: 10 }).toArray({ concurrency: 4 });
    expect(members).toHaveLength(mock.store.main.members.size);
    expect(count(429)).toBeGreaterThan(0);
  }, 30_000);

  it('fails fast with RateLimitError, sending nothing, when the wait would outlast the timeout', async () => {
    const mock = createMockApi({ rateLimit: { limit: 2, windowMs: 60_000 } });
    const { client, statuses } = counted(mock, { timeout: 2_000 });
    await client.roles.list();
    await client.roles.list();
    const start = performance.now();
    const error = await client.roles.list().catch((e: unknown) => e);
    expect(performance.now() - start).toBeLessThan(200);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_wait_exceeds_timeout' });
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(2);
    expect(statuses).toEqual([200, 200]);
  });

  it('a wait is cut short by abort', async () => {
    const mock = createMockApi({ rateLimit: { limit: 1, windowMs: 60_000 } });
    const { client, statuses } = counted(mock, { timeout: 120_000 });
    await client.roles.list();
    const controller = new AbortController();
    const pending = client.roles.list({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(statuses).toEqual([200]);
  });

  it('does nothing against a service that sends no rate-limit headers', async () => {
    const mock = createMockApi();
    const { client, count } = counted(mock);
    const start = performance.now();
    await client.members.list({ pageSize: 10 }).toArray({ concurrency: 8 });
    expect(performance.now() - start).toBeLessThan(2_000);
    expect(count(200)).toBe(Math.ceil(mock.store.main.members.size / 10));
  });

  it('refuses an unknown mode', () => {
    expect(() => new CommunityServerClient({ token: TOKEN, baseUrl: 'https://x.test', rateLimit: 'queue' as never })).toThrow(
      /rateLimit must be 'wait', 'off' or a RateLimitStore/,
    );
  });
  it('refuses an object that is not a RateLimitStore', () => {
    for (const rateLimit of [{}, { spend: () => 0 }, { spend: 1, record: () => {} }, null]) {
      expect(() => new CommunityServerClient({ token: TOKEN, baseUrl: 'https://x.test', rateLimit: rateLimit as never })).toThrow(
        InvalidArgumentError,
      );
    }
  });

  it('a 1-second window walks at its floor: the reset is read to the millisecond, not rounded to whole seconds', async () => {
    // 30 pages at 10 per second: the floor is (ceil(30 / 10) − 1) × 1 s = 2 s. Rounding the
    // reset up to whole seconds, as X-RateLimit-Reset alone forces, costs up to a second a window.
    const mock = createMockApi({ rateLimit: { limit: 10, windowMs: 1000 }, counts: { members: 300 } });
    const { client, count } = counted(mock);
    const start = performance.now();
    let seen = 0;
    for await (const _ of client.members.list({ pageSize: 10 })) seen++;
    const elapsed = performance.now() - start;
    expect(seen).toBe(300);
    expect(count(429)).toBe(0);
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    expect(elapsed).toBeLessThan(2000 * 1.25);
  }, 30_000);
});

describe("rateLimit: 'wait' at the window's edge", () => {
  afterEach(() => vi.restoreAllMocks());

  it('a request held while the window is spent goes once it resets, even when its reset falls between two readings of the clock', async () => {
    // The gate reads the clock to decide that a request cannot go (the window not yet over) and
    // again to arm the timer for the reset: a millisecond between the two readings once found the
    // window over at the second, armed no timer, and held the request until its timeout (CI: 30 s).
    // Here the clock moves a millisecond at every reading, so some reset falls between two.
    let clock = performance.now();
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 1));
    const mock = createMockApi();
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await mock.fetch(input, init);
      const headers = new Headers(response.headers);
      headers.set('x-ratelimit-remaining', '0');
      headers.set('x-ratelimit-reset-after', String(resetAfterMs / 1000));
      return new Response(response.body, { status: response.status, headers });
    };
    let resetAfterMs = 1;
    const client = mockClient(mock, { fetch, timeout: 5_000 });
    for (; resetAfterMs <= 40; resetAfterMs++) {
      const start = Date.now();
      await client.roles.list();
      await client.roles.list();
      expect(Date.now() - start, `a window of ${resetAfterMs} ms`).toBeLessThan(1_000);
    }
  }, 60_000);
});

describe('rateLimit: a RateLimitStore', () => {
  afterEach(() => vi.restoreAllMocks());

  /** An in-memory store that follows the protocol, counting its calls. */
  function memoryStore() {
    const windows = new Map<string, { remaining: number; resetAt: number }>();
    const calls = { spend: 0, record: 0, keys: new Set<string>() };
    const store: RateLimitStore = {
      async spend(key) {
        calls.spend++;
        calls.keys.add(key);
        const window = windows.get(key);
        if (!window || Date.now() >= window.resetAt) return 0;
        if (window.remaining > 0) return (window.remaining--, 0);
        return window.resetAt - Date.now();
      },
      async record(key, window) {
        calls.record++;
        if (window) windows.set(key, { remaining: window.remaining, resetAt: Date.now() + window.resetInMs });
      },
    };
    return { store, calls };
  }

  it('spends and records through the store, keyed by a hash that is not the token', async () => {
    const mock = createMockApi({ rateLimit: { limit: 5, windowMs: 500 } });
    const { store, calls } = memoryStore();
    const { client, count } = counted(mock, { rateLimit: store });
    for await (const _ of client.roles.list({ pageSize: 1 })) void _;
    const requests = mock.store.main.roles.size;
    expect(count(429)).toBe(0);
    expect(calls.record).toBe(requests);
    expect(calls.spend).toBeGreaterThanOrEqual(requests);
    expect(calls.keys.size).toBe(1);
    const [key] = calls.keys;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(key).not.toContain(mock.tokens.main);
  }, 30_000);

  it('a store that throws or answers nonsense: the client goes on locally, warns once, and the token stays out of the warning', async () => {
    const mock = createMockApi({ rateLimit: { limit: 4, windowMs: 300 } });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const spend of [
      async () => Promise.reject(new Error(`refused for Bearer ${mock.tokens.main}`)),
      async () => Number.NaN,
      async () => -5,
    ]) {
      warn.mockClear();
      const store: RateLimitStore = { spend, record: async () => {} };
      const { client, count } = counted(mock, { rateLimit: store });
      const roles = await client.roles.list({ pageSize: 1 }).toArray({ concurrency: 3 });
      expect(roles).toHaveLength(mock.store.main.roles.size);
      expect(count(429)).toBe(0);
      const warnings = warn.mock.calls.map((call) => String(call[0]));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/rate-limit store failed/);
      expect(warnings[0]).not.toContain(mock.tokens.main);
      mock.reset();
    }
  }, 30_000);

  it('a store that never answers holds the first request no longer than its timeout, and the rest not at all', async () => {
    const mock = createMockApi();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const store: RateLimitStore = { spend: () => new Promise(() => {}), record: () => new Promise(() => {}) };
    const { client } = counted(mock, { rateLimit: store });
    const timed = async () => {
      const start = performance.now();
      await client.roles.list();
      return performance.now() - start;
    };
    expect(await timed()).toBeLessThan(1_000);
    expect(Math.max(await timed(), await timed(), await timed())).toBeLessThan(100);
  });
});

describe("issue 23 hardening: client — item 20: the mock's clock and the client's gate", () => {
  it('the MockClock example, as written: a client that lets the mock count is admitted at once after advance', async () => {
    const mock = createMockApi({ rateLimit: { limit: 1, windowMs: 60_000 } });
    const client = new CommunityServerClient({
      token: mock.tokens.main,
      baseUrl: 'https://community.test',
      fetch: mock.fetch,
      rateLimit: 'off',
      maxRetries: 0,
    });
    await client.roles.list();
    await expect(client.roles.list()).rejects.toMatchObject({ code: 'rate_limited' }); // the window is spent
    mock.clock.advance(60_000); // the window is over: the next request is admitted at once
    const start = performance.now();
    const { response } = await client.roles.list().withResponse();
    expect(performance.now() - start).toBeLessThan(1_000);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0'); // a new window, this request its first
    expect(mock.requests.map((request) => request.status)).toEqual([200, 429, 200]);
  });

  it('a client on its own gate keeps real time: after advance it still refuses, sending nothing, what the window it learned would hold past its timeout', async () => {
    const mock = createMockApi({ rateLimit: { limit: 1, windowMs: 60_000 } });
    const client = mockClient(mock);
    await client.roles.list();
    mock.clock.advance(60_000);
    await expect(client.roles.list()).rejects.toMatchObject({ code: 'rate_limit_wait_exceeds_timeout' });
    expect(mock.requests).toHaveLength(1);
  });
});

describe('issue 23 hardening 2: no header, clock or store locks the client out', () => {
  afterEach(() => vi.restoreAllMocks());

  const PAGE = { data: [], page: 1, pageSize: 10, total: 0, totalPages: 0 };
  /** A client whose service answers each request with `headers(n)` (n from 1), counting what it was sent. */
  function serviceWith(headers: (n: number) => Record<string, string>, options: ClientOptions = {}) {
    let sent = 0;
    const client = new CommunityServerClient({
      token: TOKEN,
      baseUrl: 'https://api.test',
      maxRetries: 0,
      timeout: 5_000,
      fetch: async () => new Response(JSON.stringify(PAGE), { headers: { 'content-type': 'application/json', ...headers(++sent) } }),
      ...options,
    });
    return { client, sent: () => sent };
  }
  /** The spent window a broken service reports once, then an open one. */
  const spentOnce = (spent: Record<string, string>) => (n: number) =>
    n === 1 ? { 'x-ratelimit-remaining': '0', ...spent } : { 'x-ratelimit-remaining': '9', 'x-ratelimit-reset-after': '1' };

  it.each([
    ['X-RateLimit-Reset in milliseconds (the year 58 000 as seconds)', () => ({ 'x-ratelimit-reset': String(Date.now() + 1_000) })],
    ['X-RateLimit-Reset-After of 1e308 seconds', () => ({ 'x-ratelimit-reset-after': '1e308' })],
    ['X-RateLimit-Reset-After of a week', () => ({ 'x-ratelimit-reset-after': String(7 * 86_400) })],
  ])('%s: a window past a day is not believed, and the next requests are sent', async (_, spent) => {
    const { client, sent } = serviceWith(spentOnce(spent()));
    await client.members.list();
    await client.members.list();
    await client.members.list();
    expect(sent()).toBe(3);
  });

  it.each([
    ['a blank X-RateLimit-Remaining (Number reads it as 0: spent)', { 'x-ratelimit-remaining': '', 'x-ratelimit-reset-after': '30' }],
    ['a hexadecimal X-RateLimit-Reset-After', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '0x10' }],
    ['an exponent in X-RateLimit-Reset-After', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '3e1' }],
  ])('%s is unreadable, not a window: the next request is sent', async (_, spent) => {
    const { client, sent } = serviceWith((n) => (n === 1 ? spent : {}));
    await client.members.list();
    await client.members.list();
    expect(sent()).toBe(2);
  });

  it('nor handed to a store, where a whole fleet would wait for it', async () => {
    const recorded: unknown[] = [];
    const store: RateLimitStore = { spend: async () => 0, record: async (_key, window) => void recorded.push(window) };
    const { client, sent } = serviceWith(spentOnce({ 'x-ratelimit-reset': String(Date.now() + 1_000) }), { rateLimit: store });
    await client.members.list();
    await client.members.list();
    expect(sent()).toBe(2);
    expect(recorded).toEqual([null, { remaining: 9, resetInMs: expect.closeTo(1_000, -2) }]);
  });

  it('a wall clock that steps back an hour mid-window holds the next request for the window, not the hour', async () => {
    let offset = 0;
    const wall = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => wall() + offset);
    const { client, sent } = serviceWith(spentOnce({ 'x-ratelimit-reset-after': '0.2' }));
    await client.members.list();
    offset = -3_600_000; // NTP, a VM resumed, a person setting the clock
    const started = performance.now();
    await client.members.list();
    expect(sent()).toBe(2);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it.each([
    ['-1 (what some services send for unlimited)', { 'x-ratelimit-remaining': '-1' }],
    ['unlimited', { 'x-ratelimit-remaining': 'unlimited', 'x-ratelimit-reset': 'never' }],
  ])('rate-limit headers that do not read (%s) tell a store what they tell the client: no limit shown', async (_, headers) => {
    // Recorded as a failed request, each answer freed the probe and the next went alone: with
    // redisRateLimitStore, one request at a time for the whole fleet (10x slower), none held in-process.
    const recorded: unknown[] = [];
    const store: RateLimitStore = { spend: async () => 0, record: async (_key, window) => void recorded.push(window) };
    const { client } = serviceWith(() => headers, { rateLimit: store });
    await client.members.list();
    expect(recorded).toEqual([null]);
  });

  it('a store whose record() throws at once, not in a promise: calls go on, and it is warned about once', async () => {
    const warnings: string[] = [];
    const store = {
      spend: async () => 0,
      record: () => {
        throw new Error('record exploded');
      },
    } as unknown as RateLimitStore;
    const logger = { error() {}, warn: (line: string) => void warnings.push(line), info() {}, debug() {} };
    const { client, sent } = serviceWith(() => ({ 'x-ratelimit-remaining': '5', 'x-ratelimit-reset-after': '1' }), {
      rateLimit: store,
      logger,
    });
    for (let n = 0; n < 3; n++) await client.members.list();
    expect(sent()).toBe(3);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/rate-limit store failed \(record exploded\)/);
  });
});
