/**
 * The mock's behaviour beyond the happy path: auth texts and shapes, scoping, permissions,
 * suspension, rate limits, the token lifecycle, paging and ordering, path checks, latency,
 * health, store writes and reset. Raw requests go through `mock.fetch`, so what is checked is
 * what any client would see on the wire; SDK calls show how it surfaces.
 */
import { AbortError, AuthenticationError, InvalidArgumentError, NotFoundError, RateLimitError } from 'community-server-sdk';
import { createMockApi, type MockOptions } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { mockClient, rawAnswer } from '../../../helpers';

/** A mock with a hand-driven clock. */
function clocked(options: MockOptions = {}) {
  const clock = { now: Date.UTC(2026, 10, 20, 12, 0, 0) };
  const mock = createMockApi({ ...options, now: () => clock.now });
  return { mock, clock };
}

describe('authentication (spec Part 5)', () => {
  const mock = createMockApi();

  it('401 "authorization header is required" without the header', async () => {
    const answer = await rawAnswer(mock, '/api/v1/server/members', { token: null });
    expect(answer).toMatchObject({ status: 401, json: { error: 'authorization header is required' } });
  });

  it('401 "invalid or expired token" for malformed, unknown, expired and revoked tokens', async () => {
    const malformed = ['Token abc', 'Bearer', 'Bearer  two-spaces', 'Bearer a b', 'Basic dXNlcjpwYXNz', `bearer${mock.tokens.main}`];
    for (const authorization of malformed) {
      const answer = await rawAnswer(mock, '/api/v1/server/members', { token: null, headers: { authorization } });
      expect(answer, authorization).toMatchObject({ status: 401, json: { error: 'invalid or expired token' } });
    }
    for (const token of ['cst_nope', mock.tokens.expired, mock.tokens.revoked]) {
      expect(await rawAnswer(mock, '/api/v1/server/members', { token })).toMatchObject({
        status: 401,
        json: { error: 'invalid or expired token' },
      });
    }
  });

  it('authErrorShape "object" gives 401 and 403 the object shape with a code', async () => {
    const objectMock = createMockApi({ authErrorShape: 'object' });
    expect((await rawAnswer(objectMock, '/api/v1/server/members', { token: null })).json).toEqual({
      error: { code: 'authorization_required', message: 'authorization header is required' },
    });
    expect((await rawAnswer(objectMock, '/api/v1/server/members', { token: 'x' })).json).toEqual({
      error: { code: 'invalid_token', message: 'invalid or expired token' },
    });
    const forbidden = await rawAnswer(objectMock, '/api/v1/tokens', {
      token: objectMock.tokens.readOnly,
      method: 'POST',
      body: '{"name":"x"}',
    });
    expect(forbidden).toMatchObject({
      status: 403,
      json: { error: { code: 'insufficient_permissions', message: 'insufficient permissions for this operation' } },
    });
  });

  it('the SDK surfaces either shape as the same AuthenticationError', async () => {
    for (const authErrorShape of ['string', 'object'] as const) {
      const shaped = createMockApi({ authErrorShape });
      const error = await mockClient(shaped, { token: shaped.tokens.revoked })
        .members.list()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({
        status: 401,
        message: 'invalid or expired token',
        code: authErrorShape === 'object' ? 'invalid_token' : 'unknown',
      });
    }
  });

  it('health probes need no token', async () => {
    for (const path of ['/health', '/livez', '/metrics', '/readyz']) {
      expect((await rawAnswer(mock, path, { token: null })).status).toBe(200);
    }
  });
});

describe('scoping and permissions', () => {
  const mock = createMockApi();

  it('a token sees only its own server', async () => {
    const main = await mockClient(mock).members.list();
    const noCad = await mockClient(mock, { token: mock.tokens.noCad }).members.list();
    expect(main.total).toBe(mock.store.main.members.size);
    expect(noCad.total).toBe(mock.store.noCad.members.size);
    expect(noCad.data.every((m) => m.serverId === mock.store.noCad.info.id)).toBe(true);
    await expect(mockClient(mock, { token: mock.tokens.noCad }).members.get(main.data[0]!.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await rawAnswer(mock, `/api/v1/admin/server/${mock.store.noCad.info.id}/rate-limit`)).json.error.code).toBe('server_not_found');
  });

  it('the read-only token reads everything, tokens included, but manages nothing', async () => {
    const readOnly = mockClient(mock, { token: mock.tokens.readOnly });
    expect((await readOnly.cad.calls.list()).total).toBeGreaterThan(0);
    expect(await readOnly.tokens.current()).toMatchObject({ name: 'readOnly', permissions: ['read'] });
    expect(Array.isArray(await readOnly.tokens.list())).toBe(true);
    for (const [path, method] of [
      ['/api/v1/tokens', 'POST'],
      ['/api/v1/tokens/some-id', 'DELETE'],
      [`/api/v1/admin/server/${mock.store.main.info.id}/rate-limit`, 'GET'],
    ] as const) {
      const answer = await rawAnswer(mock, path, {
        token: mock.tokens.readOnly,
        method,
        body: method === 'POST' ? '{"name":"x"}' : undefined!,
      });
      expect(answer, `${method} ${path}`).toMatchObject({ status: 403, json: { error: 'insufficient permissions for this operation' } });
    }
  });
});

describe('suspension after repeated authentication failures', () => {
  it('suspends only the failing token, for the stated time, and the admin endpoint shows it', async () => {
    const { mock, clock } = clocked({ authFailureLimit: { failures: 3, durationMs: 30_000 } });
    const bad = 'cst_guessing';
    for (let i = 0; i < 3; i++) {
      expect((await rawAnswer(mock, '/api/v1/server/members', { token: bad })).json.error).toBe('invalid or expired token');
    }
    const suspended = await rawAnswer(mock, '/api/v1/server/members', { token: bad, headers: {} });
    expect(suspended.status).toBe(401);
    expect(suspended.json.error).toBe('token suspended after repeated authentication failures');
    expect(suspended.headers.get('retry-after')).toBe('30');
    // The valid token is untouched, and reports no failures.
    expect((await rawAnswer(mock, '/api/v1/server/members')).status).toBe(200);
    const report = (await rawAnswer(mock, `/api/v1/admin/server/${mock.store.main.info.id}/rate-limit`)).json;
    expect(report.tokens.find((t: { name: string }) => t.name === 'main')).toMatchObject({ authFailures: 0, suspendedUntil: null });
    clock.now += 29_000;
    expect((await rawAnswer(mock, '/api/v1/server/members', { token: bad })).headers.get('retry-after')).toBe('1');
    clock.now += 1_000;
    expect((await rawAnswer(mock, '/api/v1/server/members', { token: bad })).json.error).toBe('invalid or expired token');
  });

  it('a number means that many failures and a 60 s suspension; the object shape carries the code', async () => {
    const { mock } = clocked({ authFailureLimit: 1, authErrorShape: 'object' });
    await rawAnswer(mock, '/api/v1/server/members', { token: mock.tokens.expired });
    const answer = await rawAnswer(mock, '/api/v1/server/members', { token: mock.tokens.expired });
    expect(answer.json.error).toMatchObject({ code: 'token_suspended', details: { retryAfter: 60 } });
    const report = (await rawAnswer(mock, `/api/v1/admin/server/${mock.store.main.info.id}/rate-limit`)).json;
    expect(report.tokens.find((t: { name: string }) => t.name === 'expired').suspendedUntil).toBeGreaterThan(0);
  });
});

describe('rate limiting', () => {
  it('counts per token in windows opened by the first request, with X-RateLimit-* on every answer and 429 + Retry-After past the limit', async () => {
    const { mock, clock } = clocked({ rateLimit: { limit: 3, windowMs: 10_000 } });
    const resetAt = String(Math.ceil((clock.now + 10_000) / 1000)); // the window opens with the first request
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await rawAnswer(mock, '/api/v1/server/roles');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('3');
      expect(answer.headers.get('x-ratelimit-reset')).toBe(resetAt);
      remaining.push(answer.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    clock.now += 4_000;
    const limited = await rawAnswer(mock, '/api/v1/server/roles');
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toBe('6');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another token has its own window; errors carry the headers too.
    expect((await rawAnswer(mock, '/api/v1/server/roles', { token: mock.tokens.readOnly })).status).toBe(200);
    expect((await rawAnswer(mock, '/api/v1/server/members/nope')).headers.get('x-ratelimit-limit')).toBe('3');
    const error = await mockClient(mock)
      .roles.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(6);
    clock.now += 6_000;
    expect((await rawAnswer(mock, '/api/v1/server/roles')).headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('the admin endpoint reports the real counters', async () => {
    const { mock } = clocked({ rateLimit: { limit: 50, windowMs: 60_000 } });
    for (let i = 0; i < 4; i++) await rawAnswer(mock, '/api/v1/server/members');
    const report = (await rawAnswer(mock, `/api/v1/admin/server/${mock.store.main.info.id}/rate-limit`)).json;
    expect(report).toMatchObject({ enabled: true, limit: 50, windowSeconds: 60 });
    expect(report.tokens.find((t: { name: string }) => t.name === 'main')).toMatchObject({ used: 5, remaining: 45 });
    expect(JSON.stringify(report)).not.toContain(mock.tokens.main);
  });

  it('without rateLimit there are no rate-limit headers', async () => {
    const answer = await rawAnswer(createMockApi(), '/api/v1/server/members');
    expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('tokens (requests 55–58)', () => {
  it('create → 201 with the secret shown once, usable at once, inheriting server and permissions', async () => {
    const { mock, clock } = clocked();
    const created = await rawAnswer(mock, '/api/v1/tokens', { method: 'POST', json: { name: 'ci bot', expiresInDays: 2 } });
    expect(created.status).toBe(201);
    const { token: secret, ...info } = created.json;
    expect(secret).toMatch(/^cst_[A-Za-z0-9]{40}$/);
    expect(info).toMatchObject({ name: 'ci bot', serverId: mock.store.main.info.id, permissions: ['read', 'manage_tokens'], active: true });
    expect(info.expiresAt).toBe(Math.floor(clock.now / 1000) + 2 * 86_400);
    const listed = await rawAnswer(mock, '/api/v1/tokens');
    expect(listed.json.map((t: { id: string }) => t.id)).toContain(info.id);
    expect(listed.text).not.toContain(secret);
    expect((await rawAnswer(mock, '/api/v1/tokens/current', { token: secret })).json).toMatchObject({ id: info.id, name: 'ci bot' });
    expect((await rawAnswer(mock, '/api/v1/tokens/current', { token: secret })).text).not.toContain(secret);
    // Past its lifetime it is refused.
    clock.now += 2 * 86_400_000;
    expect((await rawAnswer(mock, '/api/v1/server/members', { token: secret })).status).toBe(401);
  });

  it('a token made by the noCad token belongs to noCad, so CAD is 404 for it too', async () => {
    const mock = createMockApi();
    const created = await mockClient(mock, { token: mock.tokens.noCad }).tokens.create({ name: 'no cad helper' });
    expect(created.serverId).toBe(mock.store.noCad.info.id);
    await expect(mockClient(mock, { token: String(created.token) }).cad.calls.list()).rejects.toMatchObject({
      status: 404,
      code: 'cad_not_found',
    });
  });

  it('deactivate → 200, then 401 for that token; again → 200; another server’s token → 404', async () => {
    const mock = createMockApi();
    const sdk = mockClient(mock);
    const created = await sdk.tokens.create({ name: 'short-lived' });
    const helper = mockClient(mock, { token: String(created.token) });
    expect((await helper.members.list()).total).toBeGreaterThan(0);
    expect(await sdk.tokens.deactivate(String(created.id))).toMatchObject({ id: created.id, active: false });
    await expect(helper.members.list()).rejects.toBeInstanceOf(AuthenticationError);
    expect(await sdk.tokens.deactivate(String(created.id))).toMatchObject({ active: false });
    const noCadToken = mock.store.tokens.all().find((t) => t.name === 'noCad')!;
    await expect(sdk.tokens.deactivate(noCadToken.id)).rejects.toMatchObject({ status: 404, code: 'token_not_found' });
    // A token may deactivate itself; it is refused from then on.
    const self = mockClient(mock, { token: String((await sdk.tokens.create({ name: 'self' })).token) });
    const current = await self.tokens.current();
    await self.tokens.deactivate(String(current.id));
    await expect(self.tokens.current()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('the list and current token never show a secret', async () => {
    const mock = createMockApi();
    const texts = [(await rawAnswer(mock, '/api/v1/tokens')).text, (await rawAnswer(mock, '/api/v1/tokens/current')).text];
    for (const secret of Object.values(mock.tokens)) for (const text of texts) expect(text).not.toContain(secret);
  });
});

describe('paging and ordering', () => {
  const mock = createMockApi();
  const members = mock.store.main.members;

  it('defaults to page 1 of 10; limit is an alias; pageSize wins; at most 100', async () => {
    expect((await rawAnswer(mock, '/api/v1/server/members')).json).toMatchObject({
      page: 1,
      pageSize: 10,
      total: members.size,
      totalPages: Math.ceil(members.size / 10),
    });
    expect((await rawAnswer(mock, '/api/v1/server/members?limit=25')).json.data).toHaveLength(25);
    expect((await rawAnswer(mock, '/api/v1/server/members?limit=25&pageSize=7')).json.pageSize).toBe(7);
    expect((await rawAnswer(mock, '/api/v1/server/members?pageSize=100')).json.data).toHaveLength(100);
  });

  it('a page past the end is empty with the right total', async () => {
    const answer = await rawAnswer(mock, '/api/v1/server/members?page=999');
    expect(answer.json).toMatchObject({ data: [], page: 999, total: members.size });
    expect((await rawAnswer(mock, '/api/v1/server/members?page=9007199254740991')).json.data).toEqual([]);
  });

  it('bad paging is a 400 naming the parameter', async () => {
    const bad: [string, string][] = [
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=1.5', 'page'],
      ['page=abc', 'page'],
      ['page=', 'page'],
      ['page=1e3', 'page'],
      ['page=99999999999999999', 'page'],
      ['page=1&page=2', 'page'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=101', 'pageSize'],
      ['limit=0', 'limit'],
      ['limit=%20', 'limit'],
      ['sort=up', 'sort'],
      ['orderBy=name', 'orderBy'],
      ['orderBy=__proto__', 'orderBy'],
      ['orderBy=constructor', 'orderBy'],
    ];
    for (const [query, parameter] of bad) {
      const answer = await rawAnswer(mock, `/api/v1/server/members?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json.error, query).toMatchObject({ code: 'invalid_parameter', details: { parameter } });
    }
  });

  it('unknown query parameters are ignored', async () => {
    expect((await rawAnswer(mock, '/api/v1/server/members?foo=bar&page=2')).json.page).toBe(2);
  });

  it('orders by createdAt and id, either way; newest first by default', async () => {
    const times = (await rawAnswer(mock, '/api/v1/server/members?pageSize=100')).json.data.map((m: { createdAt: number }) => m.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const ascending = (await rawAnswer(mock, '/api/v1/server/members?pageSize=100&orderBy=createdAt&sort=asc')).json.data.map(
      (m: { createdAt: number }) => m.createdAt,
    );
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    const ids = (await rawAnswer(mock, '/api/v1/server/logs?pageSize=100&orderBy=id&sort=asc')).json.data.map((l: { id: string }) => l.id);
    expect(ids).toEqual([...ids].sort());
    // Audit logs order by their `timestamp`; `createdAt` names it too.
    const events = (await rawAnswer(mock, '/api/v1/server/audit-logs?orderBy=createdAt&sort=asc&pageSize=50')).json.data.map(
      (e: { timestamp: number }) => e.timestamp,
    );
    expect(events).toEqual([...events].sort((a, b) => a - b));
  });

  it('walking every page visits every row exactly once, in any order', async () => {
    for (const params of [{}, { orderBy: 'id', sort: 'asc' }, { orderBy: 'createdAt', sort: 'asc', pageSize: 7 }] as const) {
      const all = await mockClient(mock).members.list(params).toArray();
      expect(all).toHaveLength(members.size);
      expect(new Set(all.map((m) => m.id)).size).toBe(members.size);
    }
  });

  it('filtered lists hold only matching rows; an unknown filter value is an empty page', async () => {
    const log = mock.store.main.logs.all()[5]!;
    const byUser = await mockClient(mock).logs.byUser(log.username).toArray();
    expect(byUser.length).toBe(mock.store.main.logs.all().filter((l) => l.username === log.username).length);
    expect(byUser.every((l) => l.username === log.username)).toBe(true);
    expect(await mockClient(mock).shifts.byMember('nobody')).toMatchObject({ data: [], total: 0, totalPages: 0 });
  });
});

describe('paths', () => {
  const mock = createMockApi();

  it('400 for a non-integer or out-of-range unitId/groupId; 404 for an integer nobody has', async () => {
    for (const id of ['abc', '1.5', '2147483648', '99999999999', '0x10']) {
      const answer = await rawAnswer(mock, `/api/v1/server/cad/units/${id}`);
      expect(answer.status, id).toBe(400);
      expect(answer.json.error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'unitId' } });
    }
    expect((await rawAnswer(mock, '/api/v1/server/cad/unit-groups/x')).json.error.details.parameter).toBe('groupId');
    expect((await rawAnswer(mock, '/api/v1/server/cad/units/-1')).json.error.code).toBe('unit_not_found');
  });

  it('an id is one segment, decoded: "a/b" is looked up as such and not found', async () => {
    const answer = await rawAnswer(mock, '/api/v1/server/members/a%2Fb');
    expect(answer.json.error).toMatchObject({ code: 'member_not_found', message: 'member "a/b" not found' });
  });

  it('unknown routes are 404, other methods 405, broken escapes 400 — never a 500', async () => {
    expect((await rawAnswer(mock, '/api/v1/server/nothing-here')).json.error.code).toBe('route_not_found');
    const wrongMethod = await rawAnswer(mock, '/api/v1/server/members', { method: 'POST', body: '{}' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
    expect((await rawAnswer(mock, '/api/v1/server/members/%E0%A4%A')).json.error.code).toBe('invalid_path');
    const odd = [
      '/api/v1/server/members//chat',
      '/api/v1/tokens/current/x',
      '/api/v1/server/cad/units/%00',
      '/api/v1/server/departments/x%2Fy/members',
      '/api/',
    ];
    for (const path of odd) {
      const answer = await rawAnswer(mock, path);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.json.error.code, path).toBeTypeOf('string');
    }
    expect((await rawAnswer(mock, '/api/v1/server/members/', {})).status).toBe(200); // a trailing slash is the same list
    expect((await rawAnswer(mock, '/api/v1/server/logs/user/%F0%9F%92%A9')).json).toMatchObject({ data: [], total: 0 });
  });
});

describe('latency', () => {
  it('waits the configured time before answering, and stops waiting on abort', async () => {
    const mock = createMockApi({ latency: 40 });
    const start = performance.now();
    await mockClient(mock).roles.list();
    expect(performance.now() - start).toBeGreaterThanOrEqual(35);
    const controller = new AbortController();
    const pending = mockClient(mock).roles.list({}, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
  });

  it('a [min, max] range draws each delay from the seeded stream', async () => {
    const mock = createMockApi({ latency: [5, 25] });
    const start = performance.now();
    for (let i = 0; i < 5; i++) await rawAnswer(mock, '/livez');
    const elapsed = performance.now() - start;
    expect(elapsed).toBeGreaterThanOrEqual(24);
    expect(elapsed).toBeLessThan(1000);
  });
});

describe('health (requests 61–64)', () => {
  it('setHealth drives /health, /readyz and /metrics; reset() restores them', async () => {
    const mock = createMockApi();
    mock.setHealth({ cache: false });
    expect(await rawAnswer(mock, '/health', { token: null })).toMatchObject({ status: 503, text: 'cache unavailable' });
    expect((await rawAnswer(mock, '/health', { token: null })).headers.get('content-type')).toContain('text/plain');
    mock.setHealth({ cache: true, ready: false });
    expect((await rawAnswer(mock, '/health', { token: null })).status).toBe(200);
    expect(await rawAnswer(mock, '/readyz', { token: null })).toMatchObject({
      status: 503,
      json: { status: 'not ready', checks: { service: 'starting' } },
    });
    expect((await rawAnswer(mock, '/livez', { token: null })).json).toEqual({ status: 'ok' });
    mock.reset();
    expect((await rawAnswer(mock, '/readyz', { token: null })).json).toMatchObject({ status: 'ready' });
  });

  it('/metrics counts the answers it has served, by status', async () => {
    const mock = createMockApi();
    await rawAnswer(mock, '/api/v1/server/members');
    await rawAnswer(mock, '/api/v1/server/members/missing');
    const metrics = (await rawAnswer(mock, '/metrics', { token: null })).json;
    expect(metrics).toMatchObject({ status: 'ok', databasePoolSize: 10, requestsServed: { 200: 1, 404: 1 } });
  });

  it('setHealth refuses unknown switches and non-booleans', () => {
    const mock = createMockApi();
    expect(() => mock.setHealth({ databse: false } as never)).toThrow(
      'setHealth(health): unknown key "databse" in health; accepted: database, cache, ready',
    );
    expect(() => mock.setHealth({ database: 'no' } as never)).toThrow(/boolean/);
    expect(() => mock.setHealth('down' as never)).toThrow('setHealth(health): health must be an object, got string');
    for (const bad of [{ databse: false }, { database: 'no' }, 'down', null]) {
      expect(() => mock.setHealth(bad as never)).toThrow(InvalidArgumentError);
    }
  });
});

describe('the store and reset()', () => {
  it('writes to the store are served at once, and reset() puts everything back', async () => {
    const mock = createMockApi();
    const sdk = mockClient(mock);
    const before = mock.store.main.members.size;
    const first = mock.store.main.members.all()[0]!;
    mock.store.main.members.insert({ id: 'mem_new', serverId: mock.store.main.info.id, roles: [], createdAt: 1_800_000_000 });
    expect(await sdk.members.get('mem_new')).toMatchObject({ id: 'mem_new' });
    expect((await sdk.members.list()).data[0]!.id).toBe('mem_new'); // newest first
    const role = mock.store.main.roles.all()[0]!.id;
    mock.store.main.members.update(first.id, { roles: [role] });
    expect((await sdk.members.get(first.id)).roles).toEqual([role]);
    mock.store.main.members.delete(first.id);
    await expect(sdk.members.get(first.id)).rejects.toBeInstanceOf(NotFoundError);
    const created = await sdk.tokens.create({ name: 'temp' });

    mock.reset();
    expect(mock.store.main.members.size).toBe(before);
    expect((await sdk.members.get(first.id)).roles).toEqual(first.roles);
    await expect(sdk.members.get('mem_new')).rejects.toBeInstanceOf(NotFoundError);
    await expect(mockClient(mock, { token: String(created.token) }).members.list()).rejects.toBeInstanceOf(AuthenticationError);
    // The runtime stream restarts too: the next token made is the same one as before.
    expect((await sdk.tokens.create({ name: 'temp' })).token).toBe(created.token);
  });

  it('reset() clears rate-limit windows and suspensions', async () => {
    const { mock } = clocked({ rateLimit: { limit: 1, windowMs: 60_000 }, authFailureLimit: 1 });
    await rawAnswer(mock, '/api/v1/server/roles');
    expect((await rawAnswer(mock, '/api/v1/server/roles')).status).toBe(429);
    await rawAnswer(mock, '/api/v1/server/roles', { token: 'bad' });
    mock.reset();
    expect((await rawAnswer(mock, '/api/v1/server/roles')).status).toBe(200);
    expect((await rawAnswer(mock, '/api/v1/server/roles', { token: 'bad' })).json.error).toBe('invalid or expired token');
  });
});

describe('options', () => {
  it('refuses what it cannot honour, with a message that says why', () => {
    const bad: [unknown, RegExp][] = [
      [{ sed: 1 }, /unknown mock option "sed"/],
      [{ seed: 1.5 }, /seed must be an integer/],
      [{ latency: -1 }, /latency/],
      [{ latency: [20, 10] }, /latency/],
      [{ rateLimit: { limit: 0, windowMs: 1000 } }, /rateLimit/],
      [{ rateLimit: 10 }, /rateLimit/],
      [{ authFailureLimit: 0 }, /authFailureLimit/],
      [{ authErrorShape: 'text' }, /authErrorShape/],
      [{ counts: { member: 10 } }, /unknown counts option "member"/],
      [{ counts: { members: -1 } }, /counts.members/],
      [{ now: 5 }, /now must be a function/],
      [{ rateLimit: { limit: 1, windowMs: 1000, burst: 2 } }, /unknown key "burst" in rateLimit/],
      [null, /options must be an object/],
      ['fast', /mock options must be an object/],
    ];
    for (const [options, message] of bad) {
      expect(() => createMockApi(options as MockOptions), JSON.stringify(options)).toThrow(message);
      expect(() => createMockApi(options as MockOptions), JSON.stringify(options)).toThrow(InvalidArgumentError);
    }
  });

  it('mock.fetch takes a bare path too', async () => {
    const mock = createMockApi();
    const response = await mock.fetch('/livez');
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
