/**
 * `mock.requests`: every request the mock answered, on every door, with the client's method
 * name, the token by role (never its secret), body, status, query and time; emptied by `reset()`
 * and bounded by `journal.limit`.
 */
import { CommunityServerClient } from 'community-server-sdk';
import { createMockApi, DEFAULT_JOURNAL_LIMIT, type MockApi, type MockRequest } from 'community-server-sdk/mock';
import { setupMockServer, startMockHttpServer } from 'community-server-sdk/mock/node';
import { getResponse } from 'msw';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MOCK_ORIGIN, mockClient, rawRequest } from '../../helpers';
import { method, pick, rows } from './api/contract-rows';

/** The journal's rows without `at` (the time of each answer), for comparing whole rows. */
const untimed = (mock: MockApi) => mock.requests.map(({ at: _at, ...row }) => row);

const last = (mock: MockApi): MockRequest => mock.requests.at(-1)!;
const MEMBERS = '/api/v1/server/members';

describe('what a row holds', () => {
  let clock = 1_767_225_600_000;
  const mock = createMockApi({ seed: 3, now: () => clock });
  beforeEach(() => mock.reset());

  it('method, path, query, endpoint, token, body, status and time, oldest first', async () => {
    const client = mockClient(mock);
    const [member] = mock.store.main.members.all();
    await client.members.list({ page: 2, pageSize: 3 });
    clock += 1500;
    await client.members.get(member!.id);
    await client.tokens.create({ name: 'ci bot', expiresInDays: 7 });
    expect(mock.requests).toEqual([
      {
        method: 'GET',
        path: MEMBERS,
        query: { page: '2', pageSize: '3' },
        endpoint: 'members.list',
        token: 'main',
        body: null,
        status: 200,
        at: 1_767_225_600_000,
      },
      {
        method: 'GET',
        path: `${MEMBERS}/${member!.id}`,
        query: {},
        endpoint: 'members.get',
        token: 'main',
        body: null,
        status: 200,
        at: 1_767_225_601_500,
      },
      {
        method: 'POST',
        path: '/api/v1/tokens',
        query: {},
        endpoint: 'tokens.create',
        token: 'main',
        body: { name: 'ci bot', expiresInDays: 7 },
        status: 201,
        at: 1_767_225_601_500,
      },
    ]);
  });

  it('a body that is not JSON is kept as its text, a huge one as its size; each with its answer’s status', async () => {
    await rawRequest(mock, '/api/v1/tokens', { method: 'POST', body: 'name=bot', headers: { 'content-type': 'text/plain' } });
    await rawRequest(mock, '/api/v1/tokens', { method: 'POST', json: { nmae: 'typo' } });
    await rawRequest(mock, '/api/v1/tokens', { method: 'POST', json: { name: 'x'.repeat(100_000) } });
    expect(mock.requests.map(({ body, status }) => ({ body, status }))).toEqual([
      { body: 'name=bot', status: 400 },
      { body: { nmae: 'typo' }, status: 400 },
      { body: '[100011 characters, not kept]', status: 201 }, // a row stays small
    ]);
  });

  it('a repeated query parameter keeps its last value; statuses are the answers’', async () => {
    await rawRequest(mock, `${MEMBERS}?pageSize=2&pageSize=5`);
    await rawRequest(mock, `${MEMBERS}/no-such-member`);
    await rawRequest(mock, `${MEMBERS}?pageSize=500`);
    expect(mock.requests.map(({ query, status, endpoint }) => ({ query, status, endpoint }))).toEqual([
      { query: { pageSize: '5' }, status: 400, endpoint: 'members.list' }, // the mock refuses a repeated one
      { query: {}, status: 404, endpoint: 'members.get' },
      { query: { pageSize: '500' }, status: 400, endpoint: 'members.list' },
    ]);
  });

  it('requests the API lacks have endpoint null, whatever answers them', async () => {
    await rawRequest(mock, '/api/v1/server/nothing-here');
    await rawRequest(mock, MEMBERS, { method: 'DELETE' });
    await rawRequest(mock, MEMBERS, { method: 'TRACE' });
    await rawRequest(mock, MEMBERS, { method: 'TRACK' });
    await rawRequest(mock, `${MEMBERS}/%E0%A4%A`);
    await rawRequest(mock, MEMBERS, { method: 'HEAD' });
    expect(mock.requests.map(({ method, endpoint, token, status }) => [method, endpoint, token, status])).toEqual([
      ['GET', null, 'main', 404],
      ['DELETE', null, 'main', 405],
      ['TRACE', null, 'main', 405], // a method fetch cannot send: still the whole row
      ['TRACK', null, 'main', 501],
      ['GET', null, 'main', 400],
      ['HEAD', 'members.list', 'main', 200],
    ]);
  });

  it('names each token by its role, and never its secret', async () => {
    const { token: createdSecret } = await mockClient(mock).tokens.create({ name: 'made here' });
    expect(createdSecret).toMatch(/^cst_/);
    const roles = ['main', 'noCad', 'readOnly', 'expired', 'revoked'] as const;
    for (const role of roles) await rawRequest(mock, '/api/v1/tokens/current', { token: mock.tokens[role] });
    await rawRequest(mock, '/api/v1/tokens/current', { token: createdSecret! });
    await rawRequest(mock, '/api/v1/tokens/current', { token: 'cst_not_a_token_anyone_has' });
    await rawRequest(mock, '/api/v1/tokens/current', { token: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    await rawRequest(mock, '/api/v1/tokens/current', { token: null });
    await rawRequest(mock, '/livez', { token: null });
    expect(mock.requests.slice(1).map(({ token, status }) => [token, status])).toEqual([
      ['main', 200],
      ['noCad', 200],
      ['readOnly', 200],
      ['expired', 401],
      ['revoked', 401],
      ['created', 200],
      ['unknown', 401],
      ['unknown', 401],
      [null, 401],
      [null, 200],
    ]);
    const journal = JSON.stringify(mock.requests);
    for (const secret of [...Object.values(mock.tokens), createdSecret!, 'cst_not_a_token_anyone_has']) {
      expect(journal).not.toContain(secret);
    }
  });

  it('a secret a request carries in its path, query or body is redacted', async () => {
    const secret = mock.tokens.main;
    await mockClient(mock).tokens.create({ name: `leaked ${secret}` });
    await rawRequest(mock, `${MEMBERS}/${secret}?note=${secret}`);
    await rawRequest(mock, `${MEMBERS}?stray=cst_real_production_token`, { token: 'cst_real_production_token' });
    expect(mock.requests.map(({ path, query, body }) => ({ path, query, body }))).toEqual([
      { path: '/api/v1/tokens', query: {}, body: { name: 'leaked [redacted]' } },
      { path: `${MEMBERS}/[redacted]`, query: { note: '[redacted]' }, body: null },
      { path: MEMBERS, query: { stray: '[redacted]' }, body: null },
    ]);
    expect(JSON.stringify(mock.requests)).not.toContain('cst_');
  });

  it('reset() empties it; a kept copy does not change', async () => {
    await rawRequest(mock, '/livez');
    const kept = mock.requests;
    await rawRequest(mock, '/readyz');
    expect(kept).toHaveLength(1);
    expect(mock.requests).toHaveLength(2);
    mock.reset();
    expect(mock.requests).toEqual([]);
  });
});

describe('every request of the API, by its client method name', () => {
  // The seed the contract suite picks its ids from: every row's call reaches its route.
  const mock = createMockApi({ seed: 11 });
  const ids = pick(mock.store);
  const client = mockClient(mock);

  it.each(rows)('#$n $name', async (row) => {
    const before = mock.requests.length;
    await method(client, row.name)(...row.args(ids));
    expect(mock.requests.length).toBe(before + 1);
    expect(last(mock).endpoint).toBe(row.name);
  });
});

describe('the bound: journal.limit', () => {
  it('keeps the newest rows, oldest first; 1000 unless told', async () => {
    expect(DEFAULT_JOURNAL_LIMIT).toBe(1000);
    const mock = createMockApi({ journal: { limit: 3 } });
    for (let page = 1; page <= 10; page++) await rawRequest(mock, `${MEMBERS}?page=${page}`);
    expect(mock.requests.map((row) => row.query.page)).toEqual(['8', '9', '10']);
    const untold = createMockApi();
    for (let i = 0; i < DEFAULT_JOURNAL_LIMIT + 5; i++) await rawRequest(untold, '/livez', { token: null });
    expect(untold.requests).toHaveLength(DEFAULT_JOURNAL_LIMIT);
  });

  it('0 keeps none; a bad limit throws before anything runs', async () => {
    const mock = createMockApi({ journal: { limit: 0 } });
    await rawRequest(mock, '/livez');
    expect(mock.requests).toEqual([]);
    expect(() => createMockApi({ journal: { limit: -1 } })).toThrow('journal must be { limit }, an integer ≥ 0');
    expect(() => createMockApi({ journal: {} as never })).toThrow('journal must be { limit }');
  });
});

describe('the doors', () => {
  it('msw handlers used directly (as a worker does): the 64, and the fallback', async () => {
    const mock = createMockApi({ seed: 4 });
    const headers = { authorization: `Bearer ${mock.tokens.readOnly}` };
    await getResponse([...mock.handlers], new Request('https://any.example/api/v1/server/roles?pageSize=1', { headers }));
    await getResponse(
      [...mock.handlers],
      new Request('https://any.example/api/v1/server/roles', { method: 'PUT', headers, body: '{"x":1}' }),
    );
    expect(untimed(mock)).toEqual([
      {
        method: 'GET',
        path: '/api/v1/server/roles',
        query: { pageSize: '1' },
        endpoint: 'roles.list',
        token: 'readOnly',
        body: null,
        status: 200,
      },
      { method: 'PUT', path: '/api/v1/server/roles', query: {}, endpoint: null, token: 'readOnly', body: { x: 1 }, status: 405 },
    ]);
  });

  describe('setupMockServer (msw/node)', () => {
    const mock = createMockApi({ seed: 4 });
    const server = setupMockServer(mock);
    beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
    afterAll(() => server.close());

    it('records what the global fetch sent, on any origin', async () => {
      const client = new CommunityServerClient({ token: mock.tokens.noCad, baseUrl: 'https://api.example.com', maxRetries: 0 });
      await client.server.info();
      await expect(client.cad.calls.list()).rejects.toThrow();
      expect(mock.requests.map(({ endpoint, token, status }) => [endpoint, token, status])).toEqual([
        ['server.info', 'noCad', 200],
        ['cad.calls.list', 'noCad', 404],
      ]);
    });
  });

  describe('startMockHttpServer', () => {
    const mock = createMockApi({ seed: 4 });
    let server: Awaited<ReturnType<typeof startMockHttpServer>>;
    beforeAll(async () => {
      server = await startMockHttpServer({ mock });
    });
    afterAll(() => server.close());

    it('records each request once, body included', async () => {
      const client = mockClient(mock, { baseUrl: server.url });
      await client.tokens.create({ name: 'over http' });
      await rawRequest(mock, '/api/v1/server/nope?x=1', { baseUrl: server.url, token: null });
      expect(untimed(mock)).toEqual([
        {
          method: 'POST',
          path: '/api/v1/tokens',
          query: {},
          endpoint: 'tokens.create',
          token: 'main',
          body: { name: 'over http' },
          status: 201,
        },
        { method: 'GET', path: '/api/v1/server/nope', query: { x: '1' }, endpoint: null, token: null, body: null, status: 404 },
      ]);
    });
  });

  it('mock.fetch with a bare path', async () => {
    const mock = createMockApi({ seed: 4 });
    await mock.fetch('/livez');
    await mock.fetch(`${MOCK_ORIGIN}/metrics`);
    expect(mock.requests.map((row) => [row.endpoint, row.status])).toEqual([
      ['health.live', 200],
      ['health.metrics', 200],
    ]);
  });
});

describe('the journal and a wrong token', () => {
  it('keeps the path and query of a request with a short unknown token as they were sent', async () => {
    const mock = createMockApi({ seed: 3 });
    await mock.fetch(new Request('https://mock.test/api/v1/server/members?orderBy=createdAt', { headers: { authorization: 'Bearer a' } }));
    expect(mock.requests.at(-1)).toMatchObject({
      path: '/api/v1/server/members',
      query: { orderBy: 'createdAt' },
      token: 'unknown',
      status: 401,
    });
  });

  it('keeps the path and query as sent when a wrong token shorter than any token is a word of them (issue 23, hardening 2)', async () => {
    const mock = createMockApi({ seed: 3 });
    for (const token of ['server', 'api', 'members', 'asc', 'v1']) await rawRequest(mock, `${MEMBERS}?sort=asc`, { token });
    expect(mock.requests.map(({ path, query, token }) => ({ path, query, token }))).toEqual(
      Array.from({ length: 5 }, () => ({ path: MEMBERS, query: { sort: 'asc' }, token: 'unknown' })),
    );
  });

  it('still hides the wrong token where it stands alone, and a seeded secret wherever it is, in one pass', async () => {
    const mock = createMockApi({ seed: 3 });
    const wrong = 'not-a-real-token-0123456789';
    await mock.fetch(
      new Request(`https://mock.test/api/v1/server/members?t=${wrong}&s=x${mock.tokens.readOnly}x`, {
        headers: { authorization: `Bearer ${wrong}` },
      }),
    );
    const row = mock.requests.at(-1)!;
    expect(row.query).toEqual({ t: '[redacted]', s: 'x[redacted]x' });
    expect(JSON.stringify(row)).not.toContain(wrong);
  });
});

describe('the journal and a hostile body', () => {
  it('records JSON nested deeper than the stack by its size, and the request is answered', async () => {
    const mock = createMockApi({ seed: 3 });
    const deep = '['.repeat(30_000) + ']'.repeat(30_000);
    const response = await mock.fetch(
      new Request('https://mock.test/api/v1/tokens', {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.tokens.main}`, 'content-type': 'application/json' },
        body: deep,
      }),
    );
    expect(response.status).toBe(400);
    // Past 4 KiB a body is kept by its size (issue 23, hardening 2).
    expect(mock.requests.at(-1)).toMatchObject({
      endpoint: 'tokens.create',
      token: 'main',
      status: 400,
      body: '[60000 characters, not kept]',
    });
  });
});

describe('issue 23 hardening 2: the journal finds every secret, at a cost that does not grow with the tokens', () => {
  it('a secret percent-encoded in the path (one with / or +) is redacted, as it is in the query', async () => {
    const mock = createMockApi({ seed: 3 });
    const stored = mock.store.tokens.create({ secret: 'stored/secret+0123' }).secret;
    const presented = 'presented/token+4567';
    await rawRequest(mock, `/api/v1/server/logs/user/${encodeURIComponent(stored)}?q=${encodeURIComponent(stored)}`);
    await rawRequest(mock, `/api/v1/server/logs/user/${encodeURIComponent(presented)}`, { token: presented });
    expect(mock.requests.map(({ path, query }) => ({ path, query }))).toEqual([
      { path: '/api/v1/server/logs/user/[redacted]', query: { q: '[redacted]' } },
      { path: '/api/v1/server/logs/user/[redacted]', query: {} },
    ]);
  });

  it('a secret holding " or \\ is redacted JSON-escaped too, in a body the journal keeps as its text', async () => {
    const mock = createMockApi({ seed: 3 });
    const stored = mock.store.tokens.create({ secret: 'quote"back\\slash-0123' }).secret;
    const many = JSON.stringify({ name: stored, filler: Array.from({ length: 300 }, (_, n) => n) }); // past 256 values: kept as text
    await rawRequest(mock, '/api/v1/tokens', { method: 'POST', body: many, token: null });
    expect(last(mock).body).toBe(many.replace(JSON.stringify(stored).slice(1, -1), '[redacted]'));
  });

  it('the admin token of the HTTP server is redacted wherever an API request carries it', async () => {
    const mock = createMockApi({ seed: 3 });
    const http = await startMockHttpServer({ mock });
    try {
      const admin = http.adminToken;
      const headers = { authorization: `Bearer ${mock.tokens.main}`, 'content-type': 'application/json' };
      await fetch(`${http.url}/api/v1/server/logs/user/${admin}?note=${admin}`, { headers });
      await fetch(`${http.url}/api/v1/tokens`, { method: 'POST', headers, body: JSON.stringify({ name: `bot ${admin}` }) });
      expect(mock.requests.map(({ path, query, body }) => ({ path, query, body }))).toEqual([
        { path: '/api/v1/server/logs/user/[redacted]', query: { note: '[redacted]' }, body: null },
        { path: '/api/v1/tokens', query: {}, body: { name: 'bot [redacted]' } },
      ]);
      const served = await fetch(`${http.url}/__mock/requests`, { headers: { authorization: `Bearer ${admin}` } });
      expect(await served.text()).not.toContain(admin);
    } finally {
      await http.close();
    }
  });

  it('a request costs about the same with 10 000 tokens in the store (sharing a prefix) as with the seeded five', async () => {
    const mock = createMockApi({ seed: 3 });
    const body = { name: `stray ${'x'.repeat(200)}` };
    /** Milliseconds per request, the median of five rounds of 20 (a loaded machine stalls now and then). */
    const perRequest = async () => {
      const rounds: number[] = [];
      for (let round = 0; round < 5; round++) {
        const started = performance.now();
        for (let n = 0; n < 20; n++) await rawRequest(mock, `/api/v1/tokens?note=${n}`, { method: 'POST', json: body, token: null });
        rounds.push((performance.now() - started) / 20);
      }
      return rounds.sort((a, b) => a - b)[2]!;
    };
    const few = await perRequest();
    // Secrets that share a long prefix, as real tokens do (github_pat_…), are the hardest to tell apart.
    for (let n = 0; mock.store.tokens.size < 10_000; n++) mock.store.tokens.create({ secret: `github_pat_${String(n).padStart(40, '0')}` });
    await rawRequest(mock, MEMBERS); // the first request after the tokens were written reads them once
    const many = await perRequest();
    // Each request used to build and run a pattern of every secret: 10 000 tokens took ~900 ms each.
    expect(many).toBeLessThan(Math.max(few * 10, 20));
  }, 60_000);
});

describe('issue 23 hardening 2: a row keeps little of a hostile request', () => {
  // 2 100 such requests without a token held 2.4 GB in a served mock: every body was kept parsed.
  const objects = `[${Array.from({ length: 16_300 }, () => '{}').join(',')}]`;
  const query = Array.from({ length: 1_900 }, (_, n) => `k${n}=`).join('&');

  it('a body of many values is kept as its text up to 4 KiB, as its size past that', async () => {
    const mock = createMockApi({ seed: 3 });
    const small = `[${Array.from({ length: 300 }, () => '0').join(',')}]`;
    await rawRequest(mock, '/api/v1/tokens', { method: 'POST', body: objects, token: null });
    await rawRequest(mock, '/api/v1/tokens', { method: 'POST', body: small, token: null });
    await rawRequest(mock, '/api/v1/tokens', { method: 'POST', json: { name: 'x'.repeat(5_000) }, token: null });
    expect(mock.requests.map(({ body }) => body)).toEqual([
      `[${objects.length} characters, not kept]`,
      small, // 301 values: its text, not 301 objects
      '[5011 characters, not kept]',
    ]);
  });

  it('a query of many parameters keeps the first 64 and says how many more there were', async () => {
    const mock = createMockApi({ seed: 3 });
    await rawRequest(mock, `${MEMBERS}?${query}`, { token: null });
    const kept = last(mock).query;
    expect(Object.keys(kept)).toHaveLength(65);
    expect(kept).toMatchObject({ k0: '', k63: '', '…': '1836 more parameters, not kept' });
  });

  it('a path longer than an HTTP client can send (only mock.fetch takes one) is kept as its size', async () => {
    const mock = createMockApi({ seed: 3 });
    await rawRequest(mock, `${MEMBERS}/${'x'.repeat(5_000_000)}`);
    expect(last(mock)).toMatchObject({ path: '[5000023 characters, not kept]', status: 404 });
  });

  it('a row of such a request is a few kilobytes at most', async () => {
    const mock = createMockApi({ seed: 3 });
    await rawRequest(mock, `${MEMBERS}?${query}`, { method: 'POST', body: objects, token: null });
    expect(JSON.stringify(last(mock)).length).toBeLessThan(4_096);
  });
});
