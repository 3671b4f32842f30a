/**
 * The mock's control API over HTTP (`/__mock/*` on startMockHttpServer): the admin token, every
 * route, each one agreeing with the in-process call it stands for (a twin mock driven by `mock.*`
 * answers the API alike), bad bodies (400 naming the field, nothing applied), and control
 * requests kept out of the journal and the rate limit.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { ConnectionError, InvalidArgumentError, ServiceUnavailableError } from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockClient, readAnswer, sleep } from '../../../helpers';

const SEED = 5;
/** A fixed clock, so two mocks built alike write the same timestamps. */
const NOW = Date.UTC(2026, 0, 1);
const twin = () => createMockApi({ seed: SEED, now: () => NOW });

let mock: MockApi;
let http: MockHttpServer;
beforeAll(async () => {
  mock = twin();
  http = await startMockHttpServer({ mock });
});
afterEach(() => mock.reset());
afterAll(() => http.close());

/** A control request with the admin token (or `token`), its body as JSON unless a string. */
async function control(method: string, path: string, body?: unknown, token: string | null = http.adminToken) {
  const response = await fetch(`${http.url}${path}`, {
    method,
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const { status, headers, json } = await readAnswer(response);
  return { status, headers, body: json as unknown };
}

/** What the API answers the main token at `path` over HTTP: status and body. */
async function api(path: string, token = mock.tokens.main) {
  const { status, json } = await readAnswer(await fetch(`${http.url}${path}`, { headers: { authorization: `Bearer ${token}` } }));
  return { status, body: json as unknown };
}

describe('the admin token', () => {
  it('alone opens /__mock: none, a wrong one and every API token get 401 in the spec’s object shape', async () => {
    const none = await control('POST', '/__mock/reset', undefined, null);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ error: { code: 'admin_token_required', message: expect.stringContaining('Bearer <admin token>') } });
    for (const token of ['not-the-admin-token-at-all', ...Object.values(mock.tokens)]) {
      const refused = await control('GET', '/__mock/requests', undefined, token);
      expect(refused.status, token).toBe(401);
      expect(refused.body).toMatchObject({ error: { code: 'invalid_admin_token' } });
      expect(JSON.stringify(refused.body)).not.toContain(token);
    }
    // Refused before routing: an unknown route does not tell an outsider what exists.
    expect((await control('GET', '/__mock/nothing-here', undefined, null)).status).toBe(401);
    expect((await control('GET', '/__mock/requests')).status).toBe(200);
  });

  it('is read from the header as the API reads a token: any case of the scheme, any number of spaces', async () => {
    for (const header of [`bearer ${http.adminToken}`, `BEARER ${http.adminToken}`, `Bearer  ${http.adminToken}`]) {
      const answer = await fetch(`${http.url}/__mock/requests`, { headers: { authorization: header } });
      expect(answer.status, header.replace(http.adminToken, '<admin>')).toBe(200);
      // The API takes each form of a header alike.
      const api = await fetch(`${http.url}/api/v1/server/info`, {
        headers: { authorization: header.replace(http.adminToken, mock.tokens.main) },
      });
      expect(api.status).toBe(200);
    }
    for (const header of [`Basic ${http.adminToken}`, `Bearer ${http.adminToken} extra`, `Bearer${http.adminToken}`]) {
      const answer = await fetch(`${http.url}/__mock/requests`, { headers: { authorization: header } });
      expect(answer.status, header.replace(http.adminToken, '<admin>')).toBe(401);
    }
  });

  it('opens no request of the API (401 there), and the journal never holds it', async () => {
    expect(await api('/api/v1/server/members', http.adminToken)).toMatchObject({ status: 401 });
    expect(mock.requests.map((row) => row.token)).toEqual(['unknown']);
    expect(JSON.stringify(mock.requests)).not.toContain(http.adminToken);
  });

  it('cannot be made an API token: no row of the control API holds it, and the API refuses it whatever the store holds', async () => {
    const refused = await control('POST', '/__mock/store/tokens', { name: 'sneaky', secret: http.adminToken });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: expect.stringContaining('secret must not hold the admin token') } },
    });
    expect(JSON.stringify(refused.body)).not.toContain(http.adminToken);
    expect(mock.store.tokens.where('secret', http.adminToken)).toEqual([]);
    // In any row (the API would serve it to every API token), and anywhere inside a value.
    const inName = await control('POST', '/__mock/store/main.members', { username: `x-${http.adminToken}-x` });
    expect(inName).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('username must not hold') } } });
    // As a key, or half a million levels deep: found without overflowing the stack, the path cut short.
    expect((await control('POST', '/__mock/store/main.logs', { [http.adminToken]: 1 })).status).toBe(400);
    const depth = 200_000;
    const deep = `{"a":${'['.repeat(depth)}"${http.adminToken}"${']'.repeat(depth)}}`;
    const buried = await control('POST', '/__mock/store/main.logs', deep);
    expect(buried).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', message: expect.stringMatching(/^a\.0\.0\.0.*… must not hold/) } },
    });
    expect(JSON.stringify(buried.body).length).toBeLessThan(1000);
    expect((await control('POST', '/__mock/store/main.logs', deep.replace(http.adminToken, 'harmless'))).status).toBe(400);
    // Nor in-process: the server reserves it in the store, across resets.
    expect(() => mock.store.tokens.create({ secret: http.adminToken })).toThrow(/secret/);
    mock.reset();
    expect(() => mock.store.tokens.create({ secret: http.adminToken })).toThrow(/secret/);
    // Presented to the API, it opens nothing: 401, journaled as unknown.
    for (const scheme of ['Bearer', 'bearer']) {
      const api = await fetch(`${http.url}/api/v1/server/info`, { headers: { authorization: `${scheme} ${http.adminToken}` } });
      expect(api.status, scheme).toBe(401);
    }
    expect(mock.requests.map((row) => [row.token, row.status])).toEqual([
      ['unknown', 401],
      ['unknown', 401],
    ]);
  });

  it('a key that holds it is refused without the answer showing it, or a head of it where the path is cut (issue 23, hardening 2)', async () => {
    const admin = http.adminToken;
    for (const key of [admin, `${'k'.repeat(60)}${admin}`, `lead.${admin}.tail`]) {
      const refused = await control('POST', '/__mock/store/main.logs', { nested: { [key]: 1 } });
      expect(refused).toMatchObject({
        status: 400,
        body: { error: { message: expect.stringContaining('must not hold the admin token') } },
      });
      expect(JSON.stringify(refused.body)).not.toContain(admin.slice(0, 16));
    }
  });

  it('nor the admin token of another HTTP server of the same mock (issue 23, hardening 2)', async () => {
    const other = await startMockHttpServer({ mock });
    try {
      const refused = await control('POST', '/__mock/store/main.logs', { username: `x ${other.adminToken}` });
      // Taken, it was served to every API token of the mock.
      expect(refused).toMatchObject({
        status: 400,
        body: { error: { message: expect.stringContaining('must not hold the admin token') } },
      });
      expect(JSON.stringify(refused.body)).not.toContain(other.adminToken);
    } finally {
      await other.close();
    }
  });

  it('is generated from a secure random source unless given: never the seed’s, never twice the same', async () => {
    const other = await startMockHttpServer({ mock: twin() });
    await other.close();
    expect(other.adminToken).not.toBe(http.adminToken);
    expect(http.adminToken.length).toBeGreaterThanOrEqual(32);
    const fixed = await startMockHttpServer({ mock: twin(), adminToken: 'a-fixed-admin-token-for-ci' });
    try {
      expect(fixed.adminToken).toBe('a-fixed-admin-token-for-ci');
      const answer = await fetch(`${fixed.url}/__mock/requests`, { headers: { authorization: 'Bearer a-fixed-admin-token-for-ci' } });
      expect(answer.status).toBe(200);
    } finally {
      await fixed.close();
    }
  });

  it('refuses an admin token that is short, not visible ASCII, or an API token, without showing it', async () => {
    const fresh = twin();
    const created = fresh.store.tokens.create({ secret: 'a-created-token-secret-0123' });
    for (const adminToken of ['short', 'has a space in it, too long', fresh.tokens.main, created.secret]) {
      const error = await startMockHttpServer({ mock: fresh, adminToken }).then(
        (server) => server.close().then(() => expect.unreachable(`accepted ${adminToken}`)),
        (thrown: unknown) => thrown as Error,
      );
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).not.toContain(adminToken);
    }
  });
});

describe('routing', () => {
  it('an unknown route is 404, a wrong method 405 with Allow, both in the spec’s shape', async () => {
    const missing = await control('GET', '/__mock/nope');
    expect(missing).toMatchObject({
      status: 404,
      body: { error: { code: 'route_not_found', message: expect.stringContaining('/__mock/nope') } },
    });
    const wrong = await control('PUT', '/__mock/reset');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(wrong.body).toMatchObject({ error: { code: 'method_not_allowed' } });
    expect((await control('PATCH', '/__mock/requests')).headers.get('allow')).toBe('GET, HEAD, DELETE');
  });

  it('answers HEAD beside each GET: its status and headers, no body', async () => {
    for (const path of ['/__mock/requests', '/__mock/openapi.json']) {
      const head = await fetch(`${http.url}${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${http.adminToken}` } });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await head.text()).toBe('');
    }
  });

  it('declares in its document the 413 and 405 it answers', async () => {
    const { body } = await control('GET', '/__mock/openapi.json');
    const document = body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { responses: Record<string, { headers?: object }> };
    };
    const huge = await control('POST', '/__mock/faults', 'x'.repeat(2 ** 20 + 1));
    expect(huge).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, { responses }] of Object.entries(methods)) {
        expect(Object.hasOwn(responses, '413'), `${method} ${path}`).toBe(method !== 'get');
      }
    }
    expect((await control('PATCH', '/__mock/faults')).status).toBe(405);
    expect(document.components.responses['MethodNotAllowed']).toMatchObject({ headers: { Allow: {} } });
  });

  it('answers a browser’s preflight for PUT and DELETE with the admin token’s header allowed', async () => {
    const preflight = await fetch(`${http.url}/__mock/health`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/PUT.*DELETE/);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const answer = await fetch(`${http.url}/__mock/requests`, {
      headers: { origin: 'http://localhost:5173', authorization: `Bearer ${http.adminToken}` },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('GET /__mock/openapi.json is a valid OpenAPI 3.1 document of every route', async () => {
    const { status, body } = await control('GET', '/__mock/openapi.json');
    expect(status).toBe(200);
    const document = body as { openapi: string; paths: Record<string, Record<string, { responses: object; requestBody?: object }>> };
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        'POST /__mock/reset',
        'GET /__mock/requests',
        'DELETE /__mock/requests',
        'POST /__mock/store/{table}',
        'POST /__mock/activity/step',
        'POST /__mock/activity/start',
        'POST /__mock/activity/stop',
        'GET /__mock/activity',
        'PUT /__mock/health',
        'POST /__mock/faults',
        'DELETE /__mock/faults',
        'POST /__mock/clock/advance',
        'PUT /__mock/rate-limit',
        'POST /__mock/sessions',
        'GET /__mock/sessions',
        'DELETE /__mock/sessions/{id}',
        'GET /__mock/openapi.json',
      ].sort(),
    );
    expect(document.paths['/__mock/faults']!.post!.requestBody).toMatchObject({
      content: { 'application/json': { schema: { properties: { endpoint: {}, status: {}, network: {}, latencyMs: {}, times: {} } } } },
    });
    expect(document.paths['/__mock/faults']!.post!.responses).toHaveProperty('201');
  });
});

describe('each route does what its in-process call does', () => {
  const local = twin();
  afterEach(() => local.reset());

  it('POST /__mock/store/{table}: the same seeded row as table.create, served at once', async () => {
    const created = await control('POST', '/__mock/store/main.logs', { username: 'ada' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(JSON.parse(JSON.stringify(local.store.main.logs.create({ username: 'ada' }))));
    const { id } = created.body as { id: string };
    expect(await api(`/api/v1/server/logs/${id}`)).toEqual({ status: 200, body: created.body });
    const [department] = mock.store.main.departments.all();
    for (const table of ['main.cad.calls', `main.departmentData.${department!.id}.loas`, 'tokens']) {
      const row = await control('POST', `/__mock/store/${table}`, {});
      expect(row.status, table).toBe(201);
    }
    expect(mock.store.main.cad!.calls.size).toBe(local.store.main.cad!.calls.size + 1);
  });

  it('POST /__mock/activity/step: the same events as activity.step(n); start and stop drive the timer', async () => {
    const stepped = await control('POST', '/__mock/activity/step', { n: 4 });
    expect(stepped).toMatchObject({ status: 200, body: { data: JSON.parse(JSON.stringify(local.activity.step(4))) } });
    expect((await control('POST', '/__mock/activity/step')).body).toEqual({ data: JSON.parse(JSON.stringify(local.activity.step())) });
    expect((await control('POST', '/__mock/activity/start', { intervalMs: 5 })).status).toBe(204);
    expect(mock.activity.running).toBe(true);
    const before = mock.store.main.auditLogs.size + mock.store.main.logs.size;
    await sleep(60);
    expect((await control('POST', '/__mock/activity/stop')).status).toBe(204);
    expect(mock.activity.running).toBe(false);
    expect(mock.store.main.auditLogs.size + mock.store.main.logs.size).toBeGreaterThanOrEqual(before);
  });

  it('PUT /__mock/health: /health and /readyz answer as after setHealth', async () => {
    expect((await control('PUT', '/__mock/health', { database: false })).status).toBe(204);
    local.setHealth({ database: false });
    const health = await api('/health');
    expect(health.status).toBe(503);
    const inProcess = await readAnswer(await local.fetch('/health'));
    expect(health.body).toEqual(inProcess.json);
  });

  it('POST and DELETE /__mock/faults: the next matching requests fail as after faults.add, and clear ends them', async () => {
    const added = await control('POST', '/__mock/faults', { endpoint: 'members.list', status: 503, times: 1 });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ id: expect.any(String) });
    const client = mockClient(mock, { baseUrl: http.url });
    await expect(client.members.list()).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect((await client.members.list()).total).toBe(local.store.main.members.size);

    await control('POST', '/__mock/faults', { endpoint: 'roles.list', network: true });
    await expect(client.roles.list()).rejects.toBeInstanceOf(ConnectionError);
    expect((await control('DELETE', '/__mock/faults')).status).toBe(204);
    expect((await client.roles.list()).total).toBe(local.store.main.roles.size);
  });

  it('POST /__mock/clock/advance: answers the new now, and tokens age as after clock.advance', async () => {
    const day = 86_400_000 * 400;
    const advanced = await control('POST', '/__mock/clock/advance', { ms: day });
    expect(advanced).toMatchObject({ status: 200, body: { now: local.clock.advance(day) } });
    expect(mock.clock.now()).toBe(NOW + day);
    // Whatever expiry the seeded tokens have, both mocks now agree on each one.
    for (const token of Object.values(mock.tokens)) {
      expect((await api('/api/v1/server/info', token)).status).toBe(
        (await local.fetch('/api/v1/server/info', { headers: { authorization: `Bearer ${token}` } })).status,
      );
    }
  });

  it('PUT /__mock/rate-limit: a limit as setRateLimit sets it, null lifts it', async () => {
    expect((await control('PUT', '/__mock/rate-limit', { limit: 2, windowMs: 60_000 })).status).toBe(204);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api('/api/v1/server/roles')).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await control('PUT', '/__mock/rate-limit', 'null')).status).toBe(204);
    expect((await api('/api/v1/server/roles')).status).toBe(200);
  });

  it('GET /__mock/requests: the journal, as mock.requests, filtered by endpoint, status and token; DELETE empties it alone', async () => {
    await api('/api/v1/server/members?pageSize=2');
    await api('/api/v1/server/members/nobody');
    await api('/api/v1/server/roles', mock.tokens.readOnly);
    await fetch(`${http.url}/livez`);
    const all = await control('GET', '/__mock/requests');
    expect(all).toMatchObject({ status: 200, body: { data: JSON.parse(JSON.stringify(mock.requests)) } });
    expect((all.body as { data: unknown[] }).data).toHaveLength(4);
    const rows = async (query: string) =>
      ((await control('GET', `/__mock/requests?${query}`)).body as { data: { path: string }[] }).data.map((row) => row.path);
    expect(await rows('endpoint=members.get')).toEqual(['/api/v1/server/members/nobody']);
    expect(await rows('status=404')).toEqual(['/api/v1/server/members/nobody']);
    expect(await rows('token=readOnly')).toEqual(['/api/v1/server/roles']);
    expect(await rows('token=none')).toEqual(['/livez']);
    expect(await rows('endpoint=members.list&status=200&token=main')).toEqual(['/api/v1/server/members']);

    const row = mock.store.main.logs.create();
    expect((await control('DELETE', '/__mock/requests')).status).toBe(204);
    expect(mock.requests).toEqual([]);
    expect(mock.store.main.logs.get(row.id)).toBeDefined(); // the journal alone
  });

  it('POST /__mock/reset undoes rows, health, faults, clock, rate limit and journal; activity stops', async () => {
    const { body: row } = await control('POST', '/__mock/store/main.members', { username: 'ada' });
    await control('PUT', '/__mock/health', { ready: false });
    await control('POST', '/__mock/faults', { endpoint: 'roles.list', status: 500 });
    await control('POST', '/__mock/clock/advance', { ms: 3_600_000 });
    await control('PUT', '/__mock/rate-limit', { limit: 1, windowMs: 60_000 });
    await control('POST', '/__mock/activity/start', { intervalMs: 1000 });
    await api('/api/v1/server/info');

    expect((await control('POST', '/__mock/reset')).status).toBe(204);
    expect(mock.requests).toEqual([]);
    expect(mock.activity.running).toBe(false);
    expect(mock.clock.now()).toBe(NOW);
    expect((await api(`/api/v1/server/members/${(row as { id: string }).id}`)).status).toBe(404);
    expect((await api('/readyz')).status).toBe(200);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await api('/api/v1/server/roles'));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]); // no fault, no limit
    expect(answers[0]!.body).toEqual(
      (await readAnswer(await local.fetch('/api/v1/server/roles', { headers: { authorization: `Bearer ${local.tokens.main}` } }))).json,
    );
  });
});

describe('a bad body or query is a 400 naming the field, and changes nothing', () => {
  /** What each route changes, read in-process: the same before and after a refused request. */
  const state = () =>
    JSON.stringify({
      logs: mock.store.main.logs.size,
      journal: mock.requests.length,
      now: mock.clock.now(),
      running: mock.activity.running,
    });

  it.each([
    [
      'POST',
      '/__mock/store/main.logs',
      { createdAt: 'yesterday' },
      'invalid_row',
      'main.logs.create: createdAt must be an integer, got string',
    ],
    ['POST', '/__mock/store/main.logs', [1, 2], 'invalid_request', 'must be'],
    ['POST', '/__mock/store/main.logs', 'not json', 'invalid_request', 'the request body must be JSON'],
    ['POST', '/__mock/activity/step', { n: -1 }, 'invalid_request', 'n must be an integer from 0 to 10000, got -1'],
    ['POST', '/__mock/activity/step', { n: 'three' }, 'invalid_request', 'n must be an integer'],
    ['POST', '/__mock/activity/step', { steps: 3 }, 'invalid_request', 'unknown key "steps"'],
    ['POST', '/__mock/activity/start', {}, 'invalid_request', 'intervalMs is required'],
    ['POST', '/__mock/activity/start', { intervalMs: 0 }, 'invalid_request', 'intervalMs must be an integer of milliseconds from 1'],
    ['PUT', '/__mock/health', { database: 'down' }, 'invalid_request', 'database must be a boolean'],
    ['PUT', '/__mock/health', { disk: false }, 'invalid_request', 'unknown key "disk"'],
    ['POST', '/__mock/faults', { status: 200 }, 'invalid_request', 'status must be an HTTP error status from 400 to 599'],
    ['POST', '/__mock/faults', { network: false }, 'invalid_request', 'network'],
    ['POST', '/__mock/faults', { endpoint: 'members.nope', status: 503 }, 'invalid_request', 'endpoint must be a client method name'],
    ['POST', '/__mock/faults', { status: 503, network: true }, 'invalid_request', 'status and network'],
    ['POST', '/__mock/faults', {}, 'invalid_request', 'needs status, network or latencyMs'],
    ['POST', '/__mock/clock/advance', { ms: -5 }, 'invalid_request', 'ms must be an integer of milliseconds ≥ 0'],
    ['POST', '/__mock/clock/advance', { ms: '1000' }, 'invalid_request', 'ms must be an integer'],
    ['PUT', '/__mock/rate-limit', { limit: 0, windowMs: 1000 }, 'invalid_request', 'limit must be an integer ≥ 1'],
    ['PUT', '/__mock/rate-limit', { limit: 5 }, 'invalid_request', 'windowMs is required'],
    ['GET', '/__mock/requests?status=abc', undefined, 'invalid_request', 'status must be an HTTP status'],
    ['GET', '/__mock/requests?status=00', undefined, 'invalid_request', 'or 0 for a network fault'],
    ['GET', '/__mock/requests?token=admin', undefined, 'invalid_request', 'token must be'],
    ['GET', '/__mock/requests?endpont=members.get', undefined, 'invalid_request', 'unknown key "endpont"'],
  ])('%s %s %j', async (method, path, body, code, message) => {
    const before = state();
    const answer = await control(method, path, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code, message: expect.stringContaining(message) } });
    expect(state()).toBe(before);
    // No fault was added: the API answers as ever.
    expect((await api('/api/v1/server/info')).status).toBe(200);
  });

  // Each kind of problem a body or query can have, in full: said as a person would, never in
  // zod's terms ("must be record", "must be at least 1, got \"\"", "Invalid input").
  it.each([
    ['not JSON', 'POST', '/__mock/faults', '{oops', 'the request body must be JSON'],
    ['not an object', 'POST', '/__mock/store/main.logs', [1, 2], 'the request body must be a JSON object, got array'],
    [
      'not an object, where null is one',
      'PUT',
      '/__mock/rate-limit',
      '"off"',
      'the request body must be a JSON object or null, got string',
    ],
    ['an unknown key', 'PUT', '/__mock/rate-limit', { limit: 1, windowMs: 1, burst: 2 }, 'unknown key "burst"; accepted: limit, windowMs'],
    [
      'unknown keys',
      'POST',
      '/__mock/activity/step',
      { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 },
      'unknown keys "a", "b", "c", "d", "e" and 1 more; accepted: n',
    ],
    ['a missing field', 'POST', '/__mock/activity/start', {}, 'intervalMs is required'],
    ['an object', 'POST', '/__mock/sessions', { world: 5 }, 'world must be an object, got number'],
    [
      'a described value',
      'POST',
      '/__mock/faults',
      { endpoint: 5, status: 503 },
      'endpoint must be a client method name such as "members.get", got 5',
    ],
    ['an integer', 'POST', '/__mock/activity/step', { n: 'three' }, 'n must be an integer from 0 to 10000, got string'],
    ['a whole number', 'POST', '/__mock/clock/advance', { ms: 1.5 }, 'ms must be an integer of milliseconds ≥ 0, got 1.5'],
    ['a boolean', 'PUT', '/__mock/health', { cache: 'off' }, 'cache must be a boolean, got string'],
    ['too small', 'PUT', '/__mock/rate-limit', { limit: 0, windowMs: 1 }, 'limit must be an integer ≥ 1, got 0'],
    ['too big', 'POST', '/__mock/activity/step', { n: 20_000 }, 'n must be an integer from 0 to 10000, got 20000'],
    [
      'an empty method name',
      'POST',
      '/__mock/faults',
      { endpoint: '', status: 503 },
      'endpoint must be a client method name such as "members.get", got ""',
    ],
    [
      'an empty method name in the query',
      'GET',
      '/__mock/requests?endpoint=',
      undefined,
      'endpoint must be a client method name such as "members.get", got ""',
    ],
    ['a literal', 'POST', '/__mock/faults', { network: false }, 'network must be true (or left out), got false'],
    [
      'one of a few',
      'GET',
      '/__mock/requests?token=admin',
      undefined,
      'token must be a token role (main, noCad, readOnly, expired, revoked, created, unknown), or null for none ("none" in a query), got a value that is none of these (not shown)',
    ],
    [
      'a format',
      'GET',
      '/__mock/requests?status=ok',
      undefined,
      'status must be an HTTP status such as 200, or 0 for a network fault, got "ok"',
    ],
  ])('says what is wrong as a person would: %s', async (_kind, method, path, body, message) => {
    const answer = await control(method, path, body);
    expect(answer).toMatchObject({ status: 400, body: { error: { code: 'invalid_request', message } } });
    expect(message).not.toMatch(/\b(record|int|Invalid input)\b|at least 1, got ""/);
  });

  it('an unknown table is a 404 that names it', async () => {
    const answer = await control('POST', '/__mock/store/main.nothing', {});
    expect(answer).toMatchObject({
      status: 404,
      body: { error: { code: 'table_not_found', message: expect.stringContaining('"main.nothing"') } },
    });
    for (const path of ['main.info', 'main.logs.spec', 'main.refs', 'tokens.constructor', 'main.departmentData.nope.loas']) {
      expect((await control('POST', `/__mock/store/${path}`, {})).status, path).toBe(404);
    }
  });
});

describe('control requests stay out of what the mock counts', () => {
  it('are never journaled nor counted by the rate limit', async () => {
    const limited = createMockApi({ seed: SEED, rateLimit: { limit: 1, windowMs: 60_000 } });
    const server = await startMockHttpServer({ mock: limited });
    try {
      const headers = { authorization: `Bearer ${server.adminToken}` };
      for (let i = 0; i < 5; i++) expect((await fetch(`${server.url}/__mock/requests`, { headers })).status).toBe(200);
      await fetch(`${server.url}/__mock/activity/step`, { method: 'POST', headers });
      expect(limited.requests).toEqual([]);
      const first = await fetch(`${server.url}/api/v1/server/info`, { headers: { authorization: `Bearer ${limited.tokens.main}` } });
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(limited.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
