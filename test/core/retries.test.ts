import {
  AbortError,
  ConnectionError,
  InternalServerError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
} from 'community-server-sdk';
import { describe, expect, it } from 'vitest';
import { clientWith, errorBody, json, member, sleep } from '../helpers';

const ok = () => json(member('m1'));
/** Fails the first `failures` attempts with `fail`, then answers `ok`. */
const flaky = (failures: number, fail: () => Response | Promise<Response>) => (_: Request, attempt: number) =>
  attempt <= failures ? fail() : ok();
const status =
  (code: number, headers: Record<string, string> = {}) =>
  () =>
    json(errorBody('e', `status ${code}`), code, headers);
const networkDown = () => Promise.reject(new TypeError('fetch failed'));
const elapsed = async (run: () => Promise<unknown>) => {
  const start = performance.now();
  await run();
  return performance.now() - start;
};

describe('GET retries', () => {
  it.each([408, 429, 500, 502, 503, 504, 599])('retries a %i and succeeds on the next attempt', async (code) => {
    const { client, requests } = clientWith(flaky(2, status(code, { 'retry-after': '0' })));
    await expect(client.members.get('m1')).resolves.toMatchObject({ id: 'm1' });
    expect(requests).toHaveLength(3);
  });

  it('gives up after maxRetries + 1 attempts with the last typed error', async () => {
    const { client, requests } = clientWith(status(503, { 'retry-after': '0' }), { maxRetries: 3 });
    await expect(client.members.get('m1')).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(requests).toHaveLength(4);
  });

  it('retries network errors with backoff, then reports ConnectionError', async () => {
    const { client, requests } = clientWith(networkDown, { maxRetries: 2 });
    let error: unknown;
    const ms = await elapsed(() => client.members.get('m1').catch((e: unknown) => (error = e)));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe('GET /api/v1/server/members/m1 failed: fetch failed');
    expect(requests).toHaveLength(3);
    // Equal-jitter backoff: attempt 1 waits 250–500 ms, attempt 2 waits 500–1000 ms.
    expect(ms).toBeGreaterThanOrEqual(740);
    expect(ms).toBeLessThan(2500);
  });

  it('does not retry a 4xx other than 408 and 429', async () => {
    for (const code of [400, 401, 403, 404, 409]) {
      const { client, requests } = clientWith(status(code));
      await expect(client.members.get('m1')).rejects.toMatchObject({ status: code });
      expect(requests).toHaveLength(1);
    }
  });

  it('honours Retry-After in seconds', async () => {
    const { client, requests } = clientWith(flaky(1, status(429, { 'retry-after': '1' })));
    const ms = await elapsed(() => client.members.get('m1'));
    expect(requests).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(2500);
  });

  it('honours Retry-After as an HTTP date', async () => {
    // HTTP dates have 1 s resolution: aim 2 s ahead so the wait is between 1 and 2 s.
    const { client, requests } = clientWith((_, attempt) =>
      attempt === 1 ? status(503, { 'retry-after': new Date(Date.now() + 2000).toUTCString() })() : ok(),
    );
    const ms = await elapsed(() => client.members.get('m1'));
    expect(requests).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3000);
  });

  it('does not wait out a Retry-After longer than a minute: the caller gets the RateLimitError', async () => {
    const { client, requests } = clientWith(status(429, { 'retry-after': '3600' }));
    const error = await client.members.get('m1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(3600);
    expect(requests).toHaveLength(1);
  });

  it('maxRetries per call overrides the client', async () => {
    const { client, requests } = clientWith(status(500, { 'retry-after': '0' }), { maxRetries: 5 });
    await expect(client.members.get('m1', { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(requests).toHaveLength(1);
  });

  it('health probes report at once by default, and retry when asked', async () => {
    const { client, requests } = clientWith(status(503, { 'retry-after': '0' }));
    await expect(client.health.live()).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(requests).toHaveLength(1);
    await expect(client.health.live({ maxRetries: 2 })).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(requests).toHaveLength(4);
  });
});

describe('POST and DELETE are never retried', () => {
  const calls = {
    'tokens.create': (c: ReturnType<typeof clientWith>['client']) => c.tokens.create({ name: 'ci' }),
    'tokens.deactivate': (c: ReturnType<typeof clientWith>['client']) => c.tokens.deactivate('tok_1'),
  };
  for (const [name, call] of Object.entries(calls)) {
    it.each([
      ['503', status(503, { 'retry-after': '0' }), ServiceUnavailableError],
      ['429', status(429, { 'retry-after': '0' }), RateLimitError],
      ['network error', networkDown, ConnectionError],
    ] as const)(`${name}: %s → one attempt`, async (_, fail, ErrorClass) => {
      const { client, requests } = clientWith(fail, { maxRetries: 5 });
      await expect(call(client)).rejects.toBeInstanceOf(ErrorClass);
      expect(requests).toHaveLength(1);
    });
  }
});

/** A server that never answers, but lets go when the request is aborted. */
const hang = (request: Request) =>
  new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));

describe('timeouts', () => {
  it('each attempt gets its own timeout; a GET is retried, then fails with TimeoutError', async () => {
    const { client, requests } = clientWith(hang, { timeout: 100, maxRetries: 1 });
    let error: unknown;
    const ms = await elapsed(() => client.members.get('m1').catch((e: unknown) => (error = e)));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('GET /api/v1/server/members/m1 timed out after 100 ms per attempt');
    expect(requests).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(100 + 250 + 100 - 10);
    expect(ms).toBeLessThan(2000);
  });

  it('a per-call timeout overrides the client', async () => {
    const { client, requests } = clientWith(hang, { timeout: 60_000 });
    const ms = await elapsed(() => expect(client.members.get('m1', { timeout: 50, maxRetries: 0 })).rejects.toBeInstanceOf(TimeoutError));
    expect(requests).toHaveLength(1);
    expect(ms).toBeLessThan(1000);
  });

  it('a POST that times out is not retried', async () => {
    const { client, requests } = clientWith(hang, { timeout: 50, maxRetries: 3 });
    await expect(client.tokens.create({ name: 'ci' })).rejects.toBeInstanceOf(TimeoutError);
    expect(requests).toHaveLength(1);
  });

  it('a slow answer within the timeout succeeds', async () => {
    const { client } = clientWith(async () => (await sleep(50), ok()), { timeout: 1000 });
    await expect(client.members.get('m1')).resolves.toMatchObject({ id: 'm1' });
  });
});

describe('abort', () => {
  it('aborting an in-flight request rejects with AbortError carrying the reason, without retrying', async () => {
    const { client, requests } = clientWith(hang, { maxRetries: 3 });
    const controller = new AbortController();
    const call = client.members.get('m1', { signal: controller.signal });
    setTimeout(() => controller.abort('user left'), 20);
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe('user left');
    expect(requests).toHaveLength(1);
  });

  it('an already-aborted signal sends nothing', async () => {
    const { client, requests } = clientWith(ok);
    await expect(client.members.get('m1', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(requests).toHaveLength(0);
  });

  it('aborting during the backoff between retries stops at once', async () => {
    const { client, requests } = clientWith(networkDown, { maxRetries: 5 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const ms = await elapsed(() => expect(client.members.get('m1', { signal: controller.signal })).rejects.toBeInstanceOf(AbortError));
    expect(requests).toHaveLength(1);
    expect(ms).toBeLessThan(240);
  });
});

describe('issue 10 hardening: client — item 3: an unreadable Retry-After is treated as absent', () => {
  const unreadable: [string, Record<string, string>][] = [
    ['a word', { 'retry-after': 'tomorrow' }],
    ['an overflowing number', { 'retry-after': '1e999' }],
    ['a negative number', { 'retry-after': '-5' }],
    ['a number with junk', { 'retry-after': '2 seconds' }],
    ['a bare year (Date.parse would take it)', { 'retry-after': '2099' + 'x' }],
    ['Infinity', { 'retry-after': 'Infinity' }],
    ['a day and a year, which Date.parse would take as a date', { 'retry-after': 'Sun 2030' }],
    // ky would read these when Retry-After is absent (as epoch times: a 60 s wait); the SDK does not
    ['no Retry-After, but RateLimit-Reset', { 'ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600) }],
    ['no Retry-After, but X-RateLimit-Reset', { 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600) }],
  ];

  it.each(unreadable)('%s: the retry waits the normal backoff (250–500 ms), not 60 s', async (_, headers) => {
    const { client, requests } = clientWith(flaky(1, status(429, headers)), { maxRetries: 1 });
    const ms = await elapsed(() => client.members.get('m1'));
    expect(requests).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(200);
    expect(ms).toBeLessThan(2000);
  });

  it.each(unreadable)('%s: RateLimitError.retryAfter is null', async (_, headers) => {
    const { client } = clientWith(status(429, headers), { maxRetries: 0 });
    await expect(client.members.get('m1')).rejects.toMatchObject({ name: 'RateLimitError', retryAfter: null });
  });

  it.each(['Sun, 06 Nov 2094 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 2094'])(
    'each of the three HTTP-date forms is read (%s)',
    (date) => {
      const expected = Math.max(0, Math.ceil((Date.parse(date) - Date.now()) / 1000));
      const error = new RateLimitError({
        status: 429,
        code: 'x',
        message: 'x',
        details: undefined,
        headers: { 'retry-after': date },
        method: 'GET',
        path: '/',
      });
      expect(error.retryAfter).toBeGreaterThanOrEqual(expected - 1);
      expect(error.retryAfter).toBeLessThanOrEqual(expected);
    },
  );

  it('a date in the past is readable: 0 s, retried at once', async () => {
    const past = new Date(Date.now() - 60_000).toUTCString();
    const { client, requests } = clientWith(flaky(1, status(503, { 'retry-after': past })), { maxRetries: 1 });
    expect(await elapsed(() => client.members.get('m1'))).toBeLessThan(200);
    expect(requests).toHaveLength(2);
    const { client: once } = clientWith(status(429, { 'retry-after': past }), { maxRetries: 0 });
    await expect(once.members.get('m1')).rejects.toMatchObject({ retryAfter: 0 });
  });
});

describe('a Retry-After of more digits than a number holds', () => {
  it('is a wait longer than any, so the 429 is not retried at once', async () => {
    const { client, requests } = clientWith(() => json(errorBody('rate_limited', 'slow down'), 429, { 'retry-after': '9'.repeat(30) }));
    const error = await client.members.get('m1').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(2 ** 31);
    expect(requests).toHaveLength(1);
  });
});
