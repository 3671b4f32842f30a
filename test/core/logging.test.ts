/**
 * Logging (issue 14): `logLevel` filters, `logger` receives, every line is redacted. Levels:
 * warn — things to fix; info — waits (retries, rate-limit holds); debug — one line per attempt.
 */
import {
  CommunityServerClient,
  InvalidArgumentError,
  TimeoutError,
  type Logger,
  type LogLevel,
  type RateLimitStore,
} from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE_URL, TOKEN, clientWith, errorBody, json, member, sleep, type Handler } from '../helpers';

type Method = keyof Logger;
const METHODS: Method[] = ['error', 'warn', 'info', 'debug'];

/** A logger that keeps every line with the method it came through. */
function recorder() {
  const lines: { method: Method; line: string }[] = [];
  const logger = Object.fromEntries(
    METHODS.map((method) => [method, (line: string) => void lines.push({ method, line })]),
  ) as unknown as Logger;
  const at = (method: Method) => lines.filter((entry) => entry.method === method).map((entry) => entry.line);
  return { logger, lines, at };
}

/** A client whose fetch is `handler` and whose log goes to a recorder. */
function logged(handler: Handler, options: ConstructorParameters<typeof CommunityServerClient>[0] = {}) {
  const record = recorder();
  const { client, requests } = clientWith(handler, { logger: record.logger, logLevel: 'debug', ...options });
  return { client, requests, ...record };
}

/** Answers `answers[n]` to the n-th attempt, the last one from then on. */
const inTurn =
  (...answers: (() => Response | Promise<Response>)[]): Handler =>
  (_, attempt) =>
    answers[Math.min(attempt, answers.length) - 1]!();

const hang: Handler = (request) =>
  new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('levels', () => {
  // One call that produces a line at each of warn, info and debug: a retried 503, then a body
  // failing its schema under validation: 'warn'.
  const scenario = inTurn(
    () => json(errorBody('unavailable', 'down'), 503, { 'retry-after': '0' }),
    () => json({ ...member('m1'), id: 5 }),
  );
  const expected: Record<LogLevel, Method[]> = {
    off: [],
    error: [],
    warn: ['warn'],
    info: ['warn', 'info'],
    debug: ['warn', 'info', 'debug'],
  };

  it.each(Object.entries(expected) as [LogLevel, Method[]][])("logLevel '%s' lets through %j", async (logLevel, methods) => {
    const { client, lines } = logged(scenario, { logLevel, validation: 'warn' });
    await client.members.get('m1');
    expect([...new Set(lines.map((entry) => entry.method))].sort()).toEqual([...methods].sort());
  });

  it("the default is 'warn', to console", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const { client } = clientWith(scenario, { validation: 'warn' });
    await client.members.get('m1');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(
      /^community-server-sdk: GET \/api\/v1\/server\/members\/m1: the response does not match its schema: id: expected string/,
    );
    expect(info).not.toHaveBeenCalled();
    expect(debug).not.toHaveBeenCalled();
  });

  it('a logger is called as an object: methods of a class (pino, winston) keep their `this`', async () => {
    class Collector implements Logger {
      readonly lines: string[] = [];
      error(line: string) {
        this.lines.push(line);
      }
      warn(line: string) {
        this.lines.push(line);
      }
      info(line: string) {
        this.lines.push(line);
      }
      debug(line: string) {
        this.lines.push(line);
      }
    }
    const logger = new Collector();
    const { client } = clientWith(scenario, { logger, logLevel: 'debug', validation: 'warn' });
    await client.members.get('m1');
    expect(logger.lines).toHaveLength(4);
  });

  it("with logLevel 'off' the logger is not even looked at once the client is built", async () => {
    const reads: PropertyKey[] = [];
    const { logger } = recorder();
    const watched = new Proxy(logger, { get: (target, key) => (reads.push(key), Reflect.get(target, key)) });
    const { client } = clientWith(scenario, { logger: watched, logLevel: 'off', validation: 'warn' });
    reads.length = 0;
    await client.members.get('m1');
    expect(reads).toEqual([]);
  });
});

describe('env COMMUNITY_SERVER_LOG', () => {
  it('sets the level when the option is absent', async () => {
    vi.stubEnv('COMMUNITY_SERVER_LOG', 'debug');
    const { client, at } = logged(() => json(member('m1')), { logLevel: undefined });
    await client.members.get('m1');
    expect(at('debug')).toHaveLength(1);
  });

  it('yields to the option', async () => {
    vi.stubEnv('COMMUNITY_SERVER_LOG', 'debug');
    const { client, lines } = logged(() => json(member('m1')), { logLevel: 'warn' });
    await client.members.get('m1');
    expect(lines).toEqual([]);
  });

  it.each(['DEBUG', ' debug ', 'Debug\n'])('is read in any case and with spaces around it: %j', async (value) => {
    vi.stubEnv('COMMUNITY_SERVER_LOG', value);
    const { client, at } = logged(() => json(member('m1')), { logLevel: undefined });
    await client.members.get('m1');
    expect(at('debug')).toHaveLength(1);
  });

  it('an unknown value is a warning naming the variable, once per process, and the default level; no constructor throws', async () => {
    vi.stubEnv('COMMUNITY_SERVER_LOG', 'verbose-typo');
    const first = logged(() => json(member('m1')), { logLevel: undefined });
    const second = logged(() => json(member('m1')), { logLevel: undefined });
    await first.client.members.get('m1');
    await second.client.members.get('m1');
    expect(first.at('warn')).toEqual([
      `community-server-sdk: env COMMUNITY_SERVER_LOG is "verbose-typo", not one of 'off', 'error', 'warn', 'info', 'debug'; logging at 'warn'`,
    ]);
    expect(second.lines).toEqual([]); // warned once; and at 'warn', a call that succeeds logs nothing
    expect(first.at('debug')).toEqual([]);
  });
});

describe('bad options throw InvalidArgumentError before anything is sent', () => {
  it.each([
    [{ logLevel: 'verbose' }, `logLevel must be one of 'off', 'error', 'warn', 'info', 'debug', got "verbose"`],
    [{ logLevel: 'DEBUG' }, `logLevel must be one of 'off', 'error', 'warn', 'info', 'debug', got "DEBUG"`],
    [{ logLevel: 3 }, `logLevel must be one of 'off', 'error', 'warn', 'info', 'debug', got 3`],
    [{ logLevel: null }, `logLevel must be one of 'off', 'error', 'warn', 'info', 'debug', got null`],
    [{ logger: 'console' }, 'logger must be an object with error, warn, info and debug methods, got "console"'],
    [{ logger: null }, 'logger must be an object with error, warn, info and debug methods, got null'],
    [{ logger: {} }, 'logger must have error, warn, info and debug methods; it lacks error, warn, info, debug'],
    [{ logger: { error() {}, warn() {}, info: 'yes' } }, 'logger must have error, warn, info and debug methods; it lacks info, debug'],
  ])('%j', (options, message) => {
    const fetch = vi.fn();
    const build = () => new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, ...(options as object) });
    expect(build).toThrow(InvalidArgumentError);
    expect(build).toThrow(message);
    expect(fetch).not.toHaveBeenCalled();
  });
});

/** `… → 200 in 3 ms (attempt 1)`: an attempt's debug line, as a pattern. */
const attempt = (target: string, outcome: string, n: number) =>
  new RegExp(`^community-server-sdk: ${escape(target)} → ${outcome} (?:in|after) \\d+ ms \\(attempt ${n}\\)$`);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The milliseconds an info line announces (`… in 480 ms` or `holding 850 ms …`). */
const waitOf = (line: string) => Number(/(?:in|holding) (\d+) ms/.exec(line)?.[1]);

describe('debug: one line per attempt', () => {
  it('a success: method, path with query, status, milliseconds, attempt', async () => {
    const { client, lines } = logged(() => json({ data: [member('m1')], page: 2, pageSize: 5, total: 6, totalPages: 2 }));
    await client.members.list({ page: 2, pageSize: 5 });
    expect(lines.map((entry) => entry.method)).toEqual(['debug']);
    expect(lines[0]!.line).toMatch(attempt('GET /api/v1/server/members?page=2&pageSize=5', '200', 1));
  });

  it('a retried 503: each attempt, and between them (info) why and how long the wait is', async () => {
    const { client, lines } = logged(
      inTurn(
        () => json(errorBody('unavailable', 'down'), 503),
        () => json(member('m1')),
      ),
    );
    await client.members.get('m1');
    expect(lines.map((entry) => entry.method)).toEqual(['debug', 'info', 'debug']);
    const [first, retry, second] = lines.map((entry) => entry.line);
    expect(first).toMatch(attempt('GET /api/v1/server/members/m1', '503', 1));
    expect(retry).toMatch(/^community-server-sdk: GET \/api\/v1\/server\/members\/m1: 503; retry 1 of 2 in \d+ ms$/);
    // The first backoff: 500 ms with equal jitter.
    expect(waitOf(retry!)).toBeGreaterThanOrEqual(250);
    expect(waitOf(retry!)).toBeLessThanOrEqual(500);
    expect(second).toMatch(attempt('GET /api/v1/server/members/m1', '200', 2));
  });

  it('a 429 with Retry-After: the wait is what the service asked', async () => {
    const { client, lines } = logged(
      inTurn(
        () => json(errorBody('rate_limited', 'slow down'), 429, { 'retry-after': '1' }),
        () => json(member('m1')),
      ),
    );
    const start = performance.now();
    await client.members.get('m1');
    expect(performance.now() - start).toBeGreaterThanOrEqual(990);
    expect(lines.map((entry) => entry.line)).toEqual([
      expect.stringMatching(attempt('GET /api/v1/server/members/m1', '429', 1)),
      'community-server-sdk: GET /api/v1/server/members/m1: 429, Retry-After 1; retry 1 of 2 in 1000 ms',
      expect.stringMatching(attempt('GET /api/v1/server/members/m1', '200', 2)),
    ]);
  });

  it('a timeout, retried, then given up', async () => {
    const { client, lines } = logged(hang, { timeout: 100, maxRetries: 1 });
    await expect(client.members.get('m1')).rejects.toBeInstanceOf(TimeoutError);
    expect(lines.map((entry) => entry.method)).toEqual(['debug', 'info', 'debug']);
    const [first, retry, second] = lines.map((entry) => entry.line);
    expect(first).toMatch(attempt('GET /api/v1/server/members/m1', 'timed out', 1));
    expect(retry).toMatch(/: timed out; retry 1 of 1 in \d+ ms$/);
    expect(second).toMatch(attempt('GET /api/v1/server/members/m1', 'timed out', 2));
    // Each attempt's line tells the time it took: about the timeout.
    expect(Number(/after (\d+) ms/.exec(first!)?.[1])).toBeGreaterThanOrEqual(95);
  });

  it('a network error says what failed', async () => {
    const { client, lines } = logged(() => Promise.reject(new TypeError('fetch failed')), { maxRetries: 0 });
    await expect(client.members.get('m1')).rejects.toThrow('fetch failed');
    expect(lines.map((entry) => entry.line)).toEqual([
      expect.stringMatching(attempt('GET /api/v1/server/members/m1', 'network error \\(fetch failed\\)', 1)),
    ]);
  });

  it('a POST is logged, and not retried', async () => {
    const { client, lines, requests } = logged(() => json(errorBody('unavailable', 'down'), 503));
    await expect(client.tokens.create({ name: 'ci' })).rejects.toThrow();
    expect(requests).toHaveLength(1);
    expect(lines.map((entry) => entry.line)).toEqual([expect.stringMatching(attempt('POST /api/v1/tokens', '503', 1))]);
  });

  it('a rate-limit hold (info) says how long, before the held attempt', async () => {
    const mock = createMockApi({ rateLimit: { limit: 2, windowMs: 1000 } });
    const { logger, lines } = recorder();
    const client = new CommunityServerClient({
      token: mock.tokens.main,
      baseUrl: 'https://community.test',
      fetch: mock.fetch,
      logger,
      logLevel: 'debug',
    });
    for (let page = 1; page <= 3; page++) await client.roles.list({ page, pageSize: 1 });
    expect(lines.map((entry) => entry.method)).toEqual(['debug', 'debug', 'info', 'debug']);
    // Named with its query, like the attempts: in a concurrent walk, the page that waits.
    const hold = lines[2]!.line;
    expect(hold).toMatch(
      /^community-server-sdk: GET \/api\/v1\/server\/roles\?page=3&pageSize=1: the rate-limit window is spent; holding \d+ ms until it resets$/,
    );
    expect(waitOf(hold)).toBeGreaterThan(0);
    expect(waitOf(hold)).toBeLessThanOrEqual(1000);
    expect(lines[3]!.line).toMatch(attempt('GET /api/v1/server/roles?page=3&pageSize=1', '200', 1));
  });
});

describe('info: a rate-limit store', () => {
  it('that asks for a wait: the hold and its length', async () => {
    const waits = [120, 0];
    const store: RateLimitStore = { spend: async () => waits.shift() ?? 0, record: async () => {} };
    const { client, lines } = logged(() => json(member('m1')), { logLevel: 'info', rateLimit: store });
    await client.members.get('m1');
    expect(lines).toEqual([
      { method: 'info', line: 'community-server-sdk: GET /api/v1/server/members/m1: the rate-limit store says wait; holding 120 ms' },
    ]);
  });

  it('that fails, then answers again: a warning, then (info) its return', async () => {
    let failures = 1;
    const store: RateLimitStore = {
      spend: async () => (failures-- > 0 ? Promise.reject(new Error('ECONNRESET')) : 0),
      record: async () => {},
    };
    const { client, lines } = logged(() => json(member('m1')), { logLevel: 'info', rateLimit: store });
    await client.members.get('m1');
    // The store is tried again in the background, at most every 500 ms, beside later requests.
    await sleep(550);
    await client.members.get('m1');
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    expect(lines).toEqual([
      {
        method: 'warn',
        line: "community-server-sdk: the rate-limit store failed (ECONNRESET); counting this client's budget in-process until it answers again",
      },
      { method: 'info', line: 'community-server-sdk: the rate-limit store answers again; counting the budget in it' },
    ]);
  });
});

describe('info: a watch waiting after a failed poll', () => {
  it('says what failed and how long until it reads again', async () => {
    const empty = () => json({ data: [], page: 1, pageSize: 10, total: 0, totalPages: 0 });
    // The list call (the baseline), then a failing poll, then quiet polls.
    const { client, at } = logged(
      inTurn(empty, () => json(errorBody('unavailable', 'down for maintenance'), 503), empty),
      { logLevel: 'info', maxRetries: 0 },
    );
    const watch = client.logs.list().watch({ intervalMs: 20 });
    const next = watch.next();
    await vi.waitFor(() => expect(at('info')).toHaveLength(1));
    watch.close();
    await expect(next).resolves.toEqual({ done: true, value: undefined });
    expect(at('info')[0]).toMatch(
      /^community-server-sdk: watch of GET \/api\/v1\/server\/logs: down for maintenance; reading again in \d+ ms$/,
    );
    // The first backoff: the interval with equal jitter.
    expect(waitOf(at('info')[0]!)).toBeGreaterThanOrEqual(10);
    expect(waitOf(at('info')[0]!)).toBeLessThanOrEqual(20);
  });
});

describe('the token never reaches a line', () => {
  it('even when the service echoes it in headers, body and error text, the fetch quotes it, and it is an id', async () => {
    const echo = { 'x-echo': `Bearer ${TOKEN}`, 'www-authenticate': `Bearer token="${TOKEN}"` };
    const { client, lines } = logged(
      inTurn(
        () => json(errorBody('unavailable', `token ${TOKEN} is throttled`, { token: TOKEN }), 503, { ...echo, 'retry-after': '0' }),
        () => Promise.reject(new TypeError(`connect failed (Authorization: Bearer ${TOKEN})`)),
        () => json({ id: TOKEN, [TOKEN]: TOKEN }, 200, echo),
      ),
      { validation: 'warn', maxRetries: 2 },
    );
    await client.members.get(TOKEN);
    expect(lines.map((entry) => entry.method)).toEqual(['debug', 'info', 'debug', 'info', 'debug', 'warn']);
    for (const { line } of lines) expect(line).not.toContain(TOKEN);
    // The fetch's message and the id reached the log, redacted: the redaction ran, not luck.
    expect(lines.filter(({ line }) => line.includes('[redacted]'))).toHaveLength(lines.length);
    expect(lines[2]!.line).toContain('network error (connect failed (Authorization: Bearer [redacted]))');
  });

  it('nor from a failing rate-limit store whose message quotes it', async () => {
    const { logger, at } = recorder();
    const store: RateLimitStore = { spend: () => Promise.reject(new Error(`refused for ${TOKEN}`)), record: async () => {} };
    const { client } = clientWith(() => json(member('m1')), { logger, rateLimit: store });
    await client.members.get('m1');
    expect(at('warn')).toEqual([
      "community-server-sdk: the rate-limit store failed (refused for [redacted]); counting this client's budget in-process until it answers again",
    ]);
  });
});

describe("the SDK's warnings go to the logger, not to console", () => {
  it('plain-http baseUrl, validation warnings and a failing rate-limit store', async () => {
    const consoles = (['log', 'error', 'warn', 'info', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => {}),
    );
    const { logger, at, lines } = recorder();
    const store: RateLimitStore = { spend: () => Promise.reject(new Error('ECONNREFUSED')), record: async () => {} };
    const { client } = clientWith(() => json({ ...member('m1'), id: 5 }), {
      baseUrl: 'http://logging-test.example:8080',
      logger,
      validation: 'warn',
      rateLimit: store,
    });
    await client.members.get('m1');
    expect(at('warn')).toEqual([
      'community-server-sdk: baseUrl http://logging-test.example:8080 is plain http to a non-loopback host; the service requires https, and your token would travel unencrypted',
      "community-server-sdk: the rate-limit store failed (ECONNREFUSED); counting this client's budget in-process until it answers again",
      "community-server-sdk: GET /api/v1/server/members/m1: the response does not match its schema: id: expected string (validation: 'warn', returning the body unchecked)",
    ]);
    expect(lines).toHaveLength(3);
    for (const spy of consoles) expect(spy).not.toHaveBeenCalled();
  });
});

/** A logger each of whose methods throws, counting the lines it was offered. */
function throwingLogger() {
  let offered = 0;
  const fail = () => {
    offered++;
    throw new Error('log sink down');
  };
  const logger: Logger = { error: fail, warn: fail, info: fail, debug: fail };
  return { logger, offered: () => offered };
}

describe('a logger that throws does not fail the call', () => {
  it('a retried GET at debug still returns its answer', async () => {
    const { logger, offered } = throwingLogger();
    const { client, requests } = clientWith(
      (_, attempt) => (attempt === 1 ? json(errorBody('unavailable', 'down'), 503, { 'retry-after': '0' }) : json(member('m1'))),
      { logLevel: 'debug', logger, validation: 'warn' },
    );
    await expect(client.members.get('m1')).resolves.toMatchObject({ id: 'm1' });
    expect(requests).toHaveLength(2);
    expect(offered()).toBeGreaterThanOrEqual(3); // two attempts and the retry's wait were offered
  });

  it('nor does an async one that rejects: no unhandled rejection', async () => {
    const rejected: unknown[] = [];
    const record = (reason: unknown) => void rejected.push(reason);
    process.on('unhandledRejection', record);
    try {
      const fail = () => Promise.reject(new Error('log sink down'));
      // What the rule warns of is the case under test: an async writer where a sync one is typed.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises
      const logger: Logger = { error: fail, warn: fail, info: fail, debug: fail };
      const { client } = clientWith(() => json(member('m1')), { logLevel: 'debug', logger });
      await expect(client.members.get('m1')).resolves.toMatchObject({ id: 'm1' });
      await sleep(50); // past the turn Node reports unhandled rejections in
      expect(rejected).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('nor does one at warn, for a plain-http baseUrl', () => {
    const { logger, offered } = throwingLogger();
    expect(() => clientWith(() => json(member('m1')), { baseUrl: 'http://api.test', logger })).not.toThrow();
    expect(offered()).toBe(1);
  });
});

describe('issue 23 hardening 2: a hostile service writes no control character, and no long line, into the log', () => {
  const ESCAPE = '\x1b[2J\x1b[31mPWNED\x07';

  it.each([
    ['terminal escapes in Retry-After', ESCAPE],
    ['a Retry-After of 100 000 characters', 'x'.repeat(100_000)],
  ])('%s: the retry line and the retry event quote it escaped and cut short', async (_, retryAfter) => {
    const reasons: string[] = [];
    const { client, lines } = logged(
      inTurn(
        () => json(errorBody('down', 'down'), 503, { 'retry-after': retryAfter }),
        () => json(member('m1')),
      ),
      { maxRetries: 1 },
    );
    client.on('retry', ({ reason }) => void reasons.push(reason));
    await client.members.get('m1');
    expect(reasons).toHaveLength(1);
    for (const text of [...lines.map((entry) => entry.line), ...reasons]) {
      expect(text).not.toMatch(/\p{Cc}/u);
      expect(text.length).toBeLessThan(200);
    }
    expect(reasons[0]).toMatch(/^503, Retry-After "/);
  });

  it('a line of the SDK holding what a service chose (a fetch error quoting it) escapes its control characters', async () => {
    const { client, at } = logged(() => Promise.reject(new TypeError(`fetch failed\n${ESCAPE}`)), { maxRetries: 0 });
    await client.members.get('m1').catch(() => {});
    const [line] = at('debug');
    expect(line).toContain('fetch failed\\n\\u001b[2J\\u001b[31mPWNED\\u0007');
    expect(line).not.toMatch(/\p{Cc}/u);
  });
});
