/**
 * `mock.faults`: rules that make requests fail with a status, fail the connection, or come late,
 * for the next `times` requests of an endpoint (or of every one), on every door. Checked through
 * the SDK client (what a bot sees), raw requests (what is on the wire) and the journal.
 */
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  InternalServerError,
  InvalidArgumentError,
  RateLimitError,
  ServiceUnavailableError,
} from 'community-server-sdk';
import { createMockApi, type FaultRule } from 'community-server-sdk/mock';
import { setupMockServer, startMockHttpServer } from 'community-server-sdk/mock/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockClient, rawAnswer, rawRequest } from '../../helpers';

const mock = createMockApi({ seed: 3 });
const client = mockClient(mock);
const memberId = () => mock.store.main.members.all()[0]!.id;
const journal = () => mock.requests.map((row) => [row.endpoint, row.status]);

afterEach(() => mock.reset());

describe('a status fault', () => {
  it('answers the status with the spec’s error body and a stable code, then the request is answered again', async () => {
    mock.faults.add({ endpoint: 'members.get', status: 503, times: 2 });
    for (let i = 0; i < 2; i++) {
      const error = await client.members.get(memberId()).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect(error).toMatchObject({ status: 503, code: 'service_unavailable' });
    }
    expect((await client.members.get(memberId())).id).toBe(memberId());
    expect(journal()).toEqual([
      ['members.get', 503],
      ['members.get', 503],
      ['members.get', 200],
    ]);
  });

  it.each([
    [500, 'internal_error', InternalServerError],
    [502, 'bad_gateway', InternalServerError],
    [404, 'not_found', ApiError],
    [418, 'http_418', ApiError],
  ])('%i has the code %s', async (status, code, kind) => {
    mock.faults.add({ endpoint: 'roles.list', status, times: 1 });
    const answer = await rawAnswer(mock, '/api/v1/server/roles');
    expect(answer.status).toBe(status);
    expect(answer.json).toEqual({ error: { code, message: expect.any(String) } });
    mock.faults.add({ endpoint: 'roles.list', status, times: 1 });
    await expect(client.roles.list()).rejects.toBeInstanceOf(kind);
  });

  it('429 carries Retry-After and the rate-limit headers, which the SDK reads', async () => {
    const now = Date.UTC(2026, 0, 1);
    const limited = createMockApi({ now: () => now, rateLimit: { limit: 50, windowMs: 60_000 } });
    limited.faults.add({ status: 429, times: 2 });
    const answer = await rawAnswer(limited, '/api/v1/server/roles');
    expect(answer.status).toBe(429);
    expect(Object.fromEntries(answer.headers)).toMatchObject({
      'retry-after': '1',
      'x-ratelimit-limit': '50',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(now / 1000 + 1),
      'x-ratelimit-reset-after': '1.000',
    });
    expect(answer.json).toEqual({ error: { code: 'rate_limited', message: 'too many requests', details: { retryAfter: 1 } } });
    const error = await mockClient(limited)
      .roles.list()
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(1);
  });

  it('401 and 403 take the mock’s authErrorShape, as every 401 and 403 does', async () => {
    mock.faults.add({ status: 401, times: 1 });
    expect((await rawAnswer(mock, '/api/v1/server/roles')).json).toEqual({ error: 'invalid or expired token' });
    const objects = createMockApi({ authErrorShape: 'object' });
    objects.faults.add({ status: 403, times: 1 });
    expect((await rawAnswer(objects, '/api/v1/server/roles')).json).toEqual({
      error: { code: 'insufficient_permissions', message: 'insufficient permissions for this operation' },
    });
  });

  it('answers before authentication and the rate limit, and counts against neither', async () => {
    const limited = createMockApi({ rateLimit: { limit: 1, windowMs: 60_000 }, authFailureLimit: 1 });
    limited.faults.add({ status: 503, times: 2 });
    expect((await rawAnswer(limited, '/api/v1/server/roles', { token: null })).status).toBe(503);
    expect((await rawAnswer(limited, '/api/v1/server/roles', { token: 'not-a-token' })).status).toBe(503);
    // Neither the window's one request nor a failed authentication was spent by the faults.
    const answer = await rawAnswer(limited, '/api/v1/server/roles');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await rawAnswer(limited, '/api/v1/server/roles', { token: 'not-a-token' })).json.error).toBe('invalid or expired token');
  });

  it('a HEAD gets the status without a body', async () => {
    mock.faults.add({ endpoint: 'roles.list', status: 503, times: 1 });
    const answer = await rawAnswer(mock, '/api/v1/server/roles', { method: 'HEAD' });
    expect([answer.status, answer.text]).toEqual([503, '']);
  });
});

describe('a network fault', () => {
  it('rejects mock.fetch as undici does, and the SDK reports a ConnectionError', async () => {
    mock.faults.add({ endpoint: 'members.list', network: true, times: 2 });
    const thrown = await rawRequest(mock, '/api/v1/server/members').catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(TypeError);
    expect(thrown).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNRESET' } });
    await expect(client.members.list()).rejects.toBeInstanceOf(ConnectionError);
    expect((await client.members.list()).total).toBe(mock.store.main.members.size);
  });

  it('is journaled with status 0, and a HEAD fails the same way', async () => {
    mock.faults.add({ network: true, times: 2 });
    await expect(rawRequest(mock, '/api/v1/server/roles')).rejects.toThrow('fetch failed');
    await expect(rawRequest(mock, '/api/v1/server/roles', { method: 'HEAD' })).rejects.toThrow('fetch failed');
    expect(mock.requests.map((row) => [row.method, row.endpoint, row.status])).toEqual([
      ['GET', 'roles.list', 0],
      ['HEAD', 'roles.list', 0],
    ]);
  });
});

describe('a latency fault', () => {
  it('holds the answer back, then answers normally', async () => {
    mock.faults.add({ endpoint: 'roles.list', latencyMs: 150, times: 1 });
    const started = performance.now();
    expect((await client.roles.list()).total).toBeGreaterThan(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    const again = performance.now();
    await client.roles.list();
    expect(performance.now() - again).toBeLessThan(140);
  });

  it('with a status, answers the status after the delay', async () => {
    mock.faults.add({ latencyMs: 120, status: 504, times: 1 });
    const started = performance.now();
    expect((await rawAnswer(mock, '/api/v1/server/roles')).json.error.code).toBe('gateway_timeout');
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('gives up with the request: an aborted call rejects as aborted, and nothing is journaled', async () => {
    mock.faults.add({ latencyMs: 60_000, times: 1 });
    const controller = new AbortController();
    const call = mock.fetch('https://community.test/api/v1/server/roles', {
      headers: { authorization: `Bearer ${mock.tokens.main}` },
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(mock.requests).toEqual([]); // no answer was given
  });
});

describe('which rule acts', () => {
  it('a rule with an endpoint hits that endpoint only; without one, every request of the API', async () => {
    mock.faults.add({ endpoint: 'members.get', status: 500 });
    expect((await rawAnswer(mock, '/api/v1/server/roles')).status).toBe(200);
    expect((await rawAnswer(mock, `/api/v1/server/members/${memberId()}`)).status).toBe(500);
    mock.faults.clear();
    mock.faults.add({ status: 503 });
    for (const path of ['/api/v1/server/roles', '/api/v1/server/info', '/livez', '/metrics']) {
      expect((await rawAnswer(mock, path)).status, path).toBe(503);
    }
    // A path no request of the API has is not one of them: still the mock's 404.
    expect((await rawAnswer(mock, '/api/v1/nowhere')).json.error.code).toBe('route_not_found');
  });

  it('rules act in the order added; a spent rule makes way for the next', async () => {
    mock.faults.add({ endpoint: 'roles.list', status: 502, times: 1 });
    mock.faults.add({ status: 503, times: 2 });
    mock.faults.add({ endpoint: 'roles.list', status: 500, times: 1 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await rawAnswer(mock, '/api/v1/server/roles')).status);
    expect(statuses).toEqual([502, 503, 503, 500, 200]);
  });

  it('without times, a rule stays until clear(); add returns a new id each time', async () => {
    const first = mock.faults.add({ endpoint: 'roles.list', status: 500 });
    const second = mock.faults.add({ endpoint: 'roles.get', status: 500 });
    expect(first).toEqual(expect.any(String));
    expect(second).not.toBe(first);
    for (let i = 0; i < 3; i++) expect((await rawAnswer(mock, '/api/v1/server/roles')).status).toBe(500);
    mock.faults.clear();
    expect((await rawAnswer(mock, '/api/v1/server/roles')).status).toBe(200);
  });

  it('reset() clears them', async () => {
    mock.faults.add({ status: 500 });
    mock.reset();
    expect((await rawAnswer(mock, '/api/v1/server/roles')).status).toBe(200);
  });
});

describe('a bad rule', () => {
  it.each<[unknown, string]>([
    [{ endpoint: 'members.fetch', status: 500 }, 'endpoint must be a client method name such as "members.get", got "members.fetch"'],
    [{ endpoint: 'members', status: 500 }, 'endpoint must be a client method name'],
    [{ status: 200 }, 'status must be an HTTP error status from 400 to 599, got 200'],
    [{ status: 503.5 }, 'status must be an HTTP error status'],
    [{ status: '503' }, 'status must be an HTTP error status from 400 to 599, got "503"'],
    [{ network: false }, 'network must be true (or left out), got false'],
    [{ status: 503, network: true }, 'status and network'],
    [{ latencyMs: 0 }, 'latencyMs must be an integer of milliseconds from 1'],
    [{ latencyMs: -5, status: 500 }, 'latencyMs must be an integer'],
    [{ status: 500, times: 0 }, 'times must be an integer ≥ 1, got 0'],
    [{ status: 500, times: 1.5 }, 'times must be an integer ≥ 1'],
    [{}, 'a fault rule needs status, network or latencyMs'],
    [{ endpoint: 'members.get' }, 'a fault rule needs status, network or latencyMs'],
    [{ status: 500, count: 2 }, 'faults.add(rule): unknown key "count" in rule; accepted: endpoint, status, network, latencyMs, times'],
    [null, 'faults.add(rule): rule must be an object, got null'],
    [undefined, 'faults.add(rule): rule must be an object, got undefined'],
  ])('%j is refused, naming the field, and adds nothing', async (rule, message) => {
    expect(() => mock.faults.add(rule as FaultRule)).toThrow(InvalidArgumentError);
    expect(() => mock.faults.add(rule as FaultRule)).toThrow(message);
    expect((await rawAnswer(mock, '/api/v1/server/roles')).status).toBe(200);
  });
});

describe('every door', () => {
  describe('msw/node (setupMockServer)', () => {
    const server = setupMockServer(mock);
    beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
    afterAll(() => server.close());
    const intercepted = mockClient(mock, { baseUrl: 'https://api.example.com' });

    it('a status fault reaches the SDK’s own fetch', async () => {
      mock.faults.add({ endpoint: 'members.list', status: 503, times: 1 });
      await expect(intercepted.members.list()).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect((await intercepted.members.list()).total).toBeGreaterThan(0);
    });

    it('a network fault fails the fetch', async () => {
      mock.faults.add({ network: true, times: 1 });
      await expect(fetch('https://api.example.com/livez')).rejects.toBeInstanceOf(TypeError);
      mock.faults.add({ network: true, times: 1 });
      await expect(intercepted.members.list()).rejects.toBeInstanceOf(ConnectionError);
      expect(journal()).toEqual([
        ['health.live', 0],
        ['members.list', 0],
      ]);
    });
  });

  describe('the HTTP server (startMockHttpServer)', () => {
    let http: Awaited<ReturnType<typeof startMockHttpServer>>;
    beforeAll(async () => {
      http = await startMockHttpServer({ mock });
    });
    afterAll(() => http.close());

    it('status and latency faults are answered over the wire', async () => {
      const remote = mockClient(mock, { baseUrl: http.url });
      mock.faults.add({ endpoint: 'tokens.current', status: 401, times: 1 });
      await expect(remote.tokens.current()).rejects.toBeInstanceOf(AuthenticationError);
      mock.faults.add({ endpoint: 'tokens.current', latencyMs: 100, times: 1 });
      const started = performance.now();
      await remote.tokens.current();
      expect(performance.now() - started).toBeGreaterThanOrEqual(90);
      expect(journal()).toEqual([
        ['tokens.current', 401],
        ['tokens.current', 200],
      ]);
    });
  });
});
