/**
 * HEAD is answered wherever GET is, on every door into the mock (mock.fetch, the msw handlers as
 * the browser worker runs them, msw/node interception, the HTTP server the bin runs): the status
 * and headers the GET would give, rate-limit headers included, and no body. Where GET is not
 * allowed, HEAD is a 405 like any other method, still without a body.
 */
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { setupMockServer, startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { getResponse } from 'msw';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const ORIGIN = 'https://community.test';
const WINDOW = { limit: 1000, windowMs: 60_000 };

/** What a door answered: status, headers, body text. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type Door = (mock: MockApi, path: string, init: RequestInit) => Promise<Answer>;

const read = async (response: Response): Promise<Answer> => ({
  status: response.status,
  headers: Object.fromEntries(response.headers),
  body: await response.text(),
});

/**
 * Headers that differ between two answers for reasons other than the method: the transport's own
 * (the HTTP server's date and framing), and the window's counters, which the HEAD itself spends.
 */
const VOLATILE = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'x-ratelimit-remaining',
  'x-ratelimit-reset-after',
]);
const stable = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !VOLATILE.has(name)));

/** GETs whose HEAD must match: a page, a refused query, a missing row, a missing token, a probe. */
const CASES: { label: string; path: string; auth: boolean; status: number }[] = [
  { label: 'a page', path: '/api/v1/server/members?pageSize=5', auth: true, status: 200 },
  { label: 'a refused paging parameter', path: '/api/v1/server/members?page=0', auth: true, status: 400 },
  { label: 'an int32 id that is no integer', path: '/api/v1/server/cad/units/abc', auth: true, status: 400 },
  { label: 'a missing member', path: '/api/v1/server/members/no-such-id', auth: true, status: 404 },
  { label: 'no token', path: '/api/v1/server/info', auth: false, status: 401 },
  { label: 'the token list (whose path also takes POST)', path: '/api/v1/tokens', auth: true, status: 200 },
  { label: 'a probe without auth', path: '/livez', auth: false, status: 200 },
];

function checkDoor(name: string, door: () => { mock: MockApi; send: Door }) {
  describe(name, () => {
    it.each(CASES)('HEAD on $label: the GET’s status ($status) and headers, no body', async ({ path, auth, status }) => {
      const { mock, send } = door();
      const headers = auth ? { authorization: `Bearer ${mock.tokens.main}` } : {};
      const get = await send(mock, path, { method: 'GET', headers });
      const head = await send(mock, path, { method: 'HEAD', headers });
      expect(get.status).toBe(status);
      expect(get.body).not.toBe('');
      expect(head.status).toBe(status);
      expect(head.body).toBe('');
      expect(stable(head.headers)).toEqual(stable(get.headers));
      expect(head.headers['content-type']).toMatch(/^(application\/json|text\/plain)/);
    });

    it('a HEAD is a request like the GET: it spends one from the token’s window', async () => {
      const { mock, send } = door();
      const headers = { authorization: `Bearer ${mock.tokens.main}` };
      const get = await send(mock, '/api/v1/server/members', { method: 'GET', headers });
      const head = await send(mock, '/api/v1/server/members', { method: 'HEAD', headers });
      expect(head.headers['x-ratelimit-limit']).toBe(String(WINDOW.limit));
      expect(Number(head.headers['x-ratelimit-remaining'])).toBe(Number(get.headers['x-ratelimit-remaining']) - 1);
    });

    it('HEAD where GET is not allowed is a 405 whose Allow has no HEAD, without a body', async () => {
      const { mock, send } = door();
      const head = await send(mock, '/api/v1/tokens/some-token', {
        method: 'HEAD',
        headers: { authorization: `Bearer ${mock.tokens.main}` },
      });
      expect(head.status).toBe(405);
      expect(head.headers['allow']).toBe('DELETE');
      expect(head.body).toBe('');
    });

    it('a method the path lacks lists HEAD beside GET in Allow', async () => {
      const { mock, send } = door();
      const put = await send(mock, '/api/v1/server/members', { method: 'PUT', headers: { authorization: `Bearer ${mock.tokens.main}` } });
      expect(put.status).toBe(405);
      expect(put.headers['allow']).toBe('GET, HEAD');
      expect(JSON.parse(put.body).error.details.allowed).toEqual(['GET', 'HEAD']);
    });
  });
}

// mock.fetch and the handlers share a mock; the interceptor and the server each have their own.
const mock = createMockApi({ seed: 5, rateLimit: WINDOW });
beforeEach(() => mock.reset());

checkDoor('mock.fetch', () => ({ mock, send: async (m, path, init) => read(await m.fetch(`${ORIGIN}${path}`, init)) }));

checkDoor('the handlers (msw getResponse, as the browser worker runs them)', () => ({
  mock,
  send: async (m, path, init) => {
    const response = await getResponse([...m.handlers], new Request(`${ORIGIN}${path}`, init));
    if (!response) throw new Error(`the handlers let ${String(init.method)} ${path} through`);
    return read(response);
  },
}));

describe('msw/node interception', () => {
  const intercepted = createMockApi({ seed: 5, rateLimit: WINDOW });
  const interceptor = setupMockServer(intercepted);
  beforeAll(() => interceptor.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => intercepted.reset());
  afterAll(() => interceptor.close());
  checkDoor('global fetch', () => ({
    mock: intercepted,
    send: async (_m, path, init) => read(await fetch(`http://api.example.com${path}`, init)),
  }));
});

describe('the HTTP server (startMockHttpServer, the bin)', () => {
  const served = createMockApi({ seed: 5, rateLimit: WINDOW });
  let server: MockHttpServer;
  beforeAll(async () => {
    server = await startMockHttpServer({ mock: served });
  });
  beforeEach(() => served.reset());
  afterAll(() => server.close());
  checkDoor('over a socket', () => ({ mock: served, send: async (_m, path, init) => read(await fetch(`${server.url}${path}`, init)) }));

  it('a browser’s preflight is told HEAD is allowed', async () => {
    const preflight = await fetch(`${server.url}/api/v1/server/members`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')?.split(', ')).toContain('HEAD');
  });
});
