/**
 * Issue 10, items 9 and 10, on every door into the mock: only the spec's paths, from the origin,
 * are served (a wrong `baseUrl` must fail against the mock as it fails against the service), and
 * a method the API does not have is a 405 with `Allow` on a known path, or a 501 for a method no
 * HTTP server knows: never a 500, never a thrown `TypeError`.
 *
 * The doors: `mock.fetch`, the handlers as msw runs them (`getResponse`, which is what the
 * browser worker calls), msw/node interception, and the HTTP server the bin runs.
 */
import http from 'node:http';
import { NotFoundError } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { setupMockServer, startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { getResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockClient, rawRequest } from '../../../helpers';

const ORIGIN = 'https://community.test';
const mock = createMockApi({ seed: 3 });
const auth = { authorization: `Bearer ${mock.tokens.main}` };

interface Answer {
  status: number;
  allow: string | null;
  body: any;
}

const read = async (response: Response): Promise<Answer> => ({
  status: response.status,
  allow: response.headers.get('allow'),
  body: JSON.parse((await response.text()) || 'null'),
});

/** A raw request through the node:http client (it sends any method, TRACE included); msw/node intercepts it too. */
function overSocket(url: string, method: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, headers: auth }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => {
        try {
          resolve({ status: incoming.statusCode!, allow: incoming.headers.allow ?? null, body: JSON.parse(text || 'null') });
        } catch {
          reject(new Error(`${method} ${url}: ${incoming.statusCode} with a body that is not JSON: ${text.slice(0, 80)}`));
        }
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

let server: MockHttpServer;
beforeAll(async () => {
  server = await startMockHttpServer({ mock });
});
afterAll(() => server.close());

/** Each door answers one raw request; the HTTP server's is the only one that ignores the origin. */
const doors: Record<string, (path: string, method: string) => Promise<Answer>> = {
  'mock.fetch': async (path, method) => read(await rawRequest(mock, path, { method })),
  'the handlers (msw getResponse, as the browser worker runs them)': async (path, method) => {
    const response = await getResponse([...mock.handlers], new Request(`${ORIGIN}${path}`, { method, headers: auth }));
    if (!response) throw new Error(`the handlers let ${method} ${path} through`);
    return read(response);
  },
  'startMockHttpServer (the bin)': (path, method) => overSocket(`${server.url}${path}`, method),
};

const WRONG_PREFIXES = [
  '/garbage/api/v1/server/info',
  '/api/v1/api/v1/server/info',
  '/v2/api/v1/server/members',
  '/x/livez',
  '/prefix/health',
  '/api/v1/livez',
];

describe('#9 only the spec’s paths, from the origin, are served', () => {
  describe.each(Object.keys(doors))('%s', (door) => {
    it.each(WRONG_PREFIXES)('%s is 404 route_not_found', async (path) => {
      const answer = await doors[door]!(path, 'GET');
      expect(answer.status).toBe(404);
      expect(answer.body.error).toMatchObject({ code: 'route_not_found' });
    });

    it('the same paths from the origin are served', async () => {
      expect((await doors[door]!('/api/v1/server/info', 'GET')).body.id).toBe(mock.store.main.info.id);
      expect((await doors[door]!('/livez', 'GET')).body).toEqual({ status: 'ok' });
      expect((await doors[door]!('/api/v1/server/members/', 'GET')).status).toBe(200);
    });
  });

  it('a client whose baseUrl has a path (e.g. ends in /api/v1) fails with NotFoundError, on any origin', async () => {
    for (const baseUrl of [`${ORIGIN}/api/v1`, `${ORIGIN}/some/prefix`, 'http://localhost:9/api']) {
      const client = mockClient(mock, { baseUrl, fetch: mock.fetch });
      const error = await client.server.info().catch((e: unknown) => e);
      expect(error, baseUrl).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).code).toBe('route_not_found');
    }
    for (const baseUrl of [ORIGIN, 'http://localhost:9', 'https://other.example/']) {
      const client = mockClient(mock, { baseUrl, fetch: mock.fetch, maxRetries: undefined });
      expect((await client.server.info()).id, baseUrl).toBe(mock.store.main.info.id);
    }
  });

  describe('msw/node (setupMockServer)', () => {
    const interceptor = setupMockServer(mock);
    beforeAll(() => interceptor.listen({ onUnhandledRequest: 'bypass' }));
    afterAll(() => interceptor.close());

    it('#10 TRACE and PUT on a known path are 405 with Allow, PROPFIND 501, on any origin (node:http, intercepted)', async () => {
      const trace = await overSocket('http://api.example.com/api/v1/tokens', 'TRACE');
      const put = await overSocket('http://api.example.com/api/v1/tokens', 'PUT');
      for (const answer of [trace, put]) {
        expect(answer.status).toBe(405);
        expect(answer.allow).toBe('GET, HEAD, POST');
      }
      expect((await overSocket('http://localhost:9/api/v1/tokens', 'PROPFIND')).status).toBe(501);
      expect((await overSocket('http://api.example.com/garbage/api/v1/tokens', 'TRACE')).body.error.code).toBe('route_not_found');
    });

    it.each(WRONG_PREFIXES)('%s is 404 route_not_found on any origin', async (path) => {
      for (const origin of ['https://api.example.com', 'http://localhost:9999']) {
        const answer = await read(await fetch(`${origin}${path}`, { headers: auth }));
        expect(answer.status, origin + path).toBe(404);
        expect(answer.body.error.code).toBe('route_not_found');
      }
    });

    it('leaves requests that are not the API’s alone (they reach onUnhandledRequest)', async () => {
      const unhandled: string[] = [];
      interceptor.events.on('request:unhandled', ({ request }) => void unhandled.push(new URL(request.url).pathname));
      await fetch('http://127.0.0.1:1/elsewhere/page').catch(() => undefined);
      interceptor.events.removeAllListeners();
      expect(unhandled).toEqual(['/elsewhere/page']);
    });
  });
});

describe('#10 methods the API does not have', () => {
  describe.each(Object.keys(doors))('%s', (door) => {
    it.each(['PUT', 'PATCH', 'DELETE'])('%s on a known path is 405 with Allow, in the spec’s error shape', async (method) => {
      const answer = await doors[door]!('/api/v1/server/members', method);
      expect(answer.status).toBe(405);
      expect(answer.allow).toBe('GET, HEAD');
      expect(answer.body.error).toMatchObject({ code: 'method_not_allowed', details: { allowed: ['GET', 'HEAD'] } });
    });

    it('PROPFIND (a method the API never knows) is 501, on a known path and elsewhere', async () => {
      for (const path of ['/api/v1/server/members', '/api/v1/nothing']) {
        const answer = await doors[door]!(path, 'PROPFIND');
        expect(answer.status, path).toBe(501);
        expect(answer.body.error, path).toMatchObject({ code: 'method_not_implemented' });
      }
    });

    it('an unsupported method on an unknown path is 404 route_not_found', async () => {
      expect((await doors[door]!('/garbage/api/v1/server/info', 'PUT')).body.error.code).toBe('route_not_found');
    });
  });

  // fetch() itself refuses TRACE and CONNECT, so only mock.fetch and the socket can be asked.
  it('TRACE is 405 with Allow through mock.fetch and over HTTP, not a TypeError or a 500', async () => {
    const viaFetch = await read(await mock.fetch(`${ORIGIN}/api/v1/tokens`, { method: 'TRACE', headers: auth }));
    const viaSocket = await overSocket(`${server.url}/api/v1/tokens`, 'TRACE');
    for (const answer of [viaFetch, viaSocket]) {
      expect(answer.status).toBe(405);
      expect(answer.allow).toBe('GET, HEAD, POST');
      expect(answer.body.error).toMatchObject({
        code: 'method_not_allowed',
        message: 'TRACE is not allowed here; use GET, HEAD or POST',
        details: { allowed: ['GET', 'HEAD', 'POST'] },
      });
    }
    expect((await read(await mock.fetch(`${ORIGIN}/nowhere`, { method: 'trace' }))).status).toBe(404);
    expect((await read(await mock.fetch(new Request(`${ORIGIN}/livez`), { method: 'TRACK' }))).status).toBe(501);
  });
});
