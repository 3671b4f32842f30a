/**
 * `connectMock` (community-server-sdk/mock/remote), the typed client of the control API: each
 * method drives the served mock as the in-process call does, failures are the SDK's typed
 * errors, arguments are refused before anything is sent, and the admin token shows nowhere.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import {
  AbortError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InternalServerError,
  InvalidArgumentError,
  NotFoundError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
} from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { connectMock, type RemoteMock } from 'community-server-sdk/mock/remote';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mockClient } from '../helpers';

const NOW = Date.UTC(2026, 0, 1);
const twin = () => createMockApi({ seed: 9, now: () => NOW });

let mock: MockApi;
let http: MockHttpServer;
let remote: RemoteMock;
const local = twin();
beforeAll(async () => {
  mock = twin();
  http = await startMockHttpServer({ mock });
  remote = connectMock(`${http.url}/`, http.adminToken);
});
afterEach(() => {
  mock.reset();
  local.reset();
  vi.restoreAllMocks();
});
afterAll(() => http.close());

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('each method does what the in-process call does', () => {
  it('store(table).create: the same seeded row, served at once, typed by its table', async () => {
    const log = await remote.store('main.logs').create({ username: 'ada' });
    expect(log.username).toBe('ada');
    expect(log).toEqual(plain(local.store.main.logs.create({ username: 'ada' })));
    expect((await mockClient(mock, { baseUrl: http.url }).logs.get(log.id)).id).toBe(log.id);
    const call = await remote.store('main.cad.calls').create({ title: 'Noise complaint' });
    expect(mock.store.main.cad!.calls.get(call.id)?.title).toBe('Noise complaint');
  });

  it('activity.step, start, stop', async () => {
    expect(await remote.activity.step(3)).toEqual(plain(local.activity.step(3)));
    await remote.activity.start({ intervalMs: 1000 });
    expect(mock.activity.running).toBe(true);
    await remote.activity.stop();
    expect(mock.activity.running).toBe(false);
  });

  it('faults.add returns the id, faults.clear ends them', async () => {
    const id = await remote.faults.add({ endpoint: 'members.list', status: 503 });
    expect(id).toEqual(expect.any(String));
    const client = mockClient(mock, { baseUrl: http.url });
    await expect(client.members.list()).rejects.toBeInstanceOf(ServiceUnavailableError);
    await remote.faults.clear();
    expect((await client.members.list()).total).toBe(mock.store.main.members.size);
  });

  it('clock.advance returns the new now; setHealth, setRateLimit and reset act on the served mock', async () => {
    expect(await remote.clock.advance(5000)).toBe(local.clock.advance(5000));
    await remote.setHealth({ cache: false });
    expect((await fetch(`${http.url}/health`)).status).toBe(503);
    await remote.setRateLimit({ limit: 1, windowMs: 60_000 });
    const client = mockClient(mock, { baseUrl: http.url, rateLimit: 'off' });
    await client.roles.list();
    await expect(client.roles.list()).rejects.toMatchObject({ status: 429 });
    await remote.setRateLimit(null);
    await client.roles.list();
    await remote.reset();
    expect(mock.requests).toEqual([]);
    expect(mock.clock.now()).toBe(NOW);
    expect((await fetch(`${http.url}/health`)).status).toBe(200);
  });

  it('requests(filter) reads the journal as mock.requests does; clearRequests empties it', async () => {
    const client = mockClient(mock, { baseUrl: http.url });
    await client.members.list({ pageSize: 2 });
    await client.members.get('nobody').catch(() => undefined);
    await fetch(`${http.url}/livez`);
    expect(await remote.requests()).toEqual(plain(mock.requests));
    expect((await remote.requests({ status: 404 })).map((row) => row.endpoint)).toEqual(['members.get']);
    expect((await remote.requests({ token: null })).map((row) => row.path)).toEqual(['/livez']);
    expect(await remote.requests({ endpoint: 'members.list', token: 'main' })).toHaveLength(1);
    await remote.clearRequests();
    expect(await remote.requests()).toEqual([]);
  });

  it('requests({ status: 0 }) finds the requests a network fault failed, as the journal records them', async () => {
    await remote.faults.add({ endpoint: 'roles.list', network: true, times: 1 });
    const client = mockClient(mock, { baseUrl: http.url, maxRetries: 0 });
    await expect(client.roles.list()).rejects.toBeInstanceOf(ConnectionError);
    await client.roles.list();
    expect(mock.requests.map((row) => row.status)).toEqual([0, 200]);
    expect((await remote.requests({ status: 0 })).map((row) => [row.endpoint, row.status])).toEqual([['roles.list', 0]]);
    const direct = await fetch(`${http.url}/__mock/requests?status=0`, { headers: { authorization: `Bearer ${http.adminToken}` } });
    expect(((await direct.json()) as { data: unknown[] }).data).toHaveLength(1);
  });
});

describe('failures are the SDK’s typed errors', () => {
  it('a refused row is a BadRequestError with the InvalidRowError message; an unknown table a NotFoundError', async () => {
    const refused = await remote
      .store('main.logs')
      .create({ createdAt: 'yesterday' as never })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(refused).toMatchObject({ code: 'invalid_row', message: 'main.logs.create: createdAt must be an integer, got string' });
    await expect(remote.store('main.nothing' as 'main.logs').create()).rejects.toBeInstanceOf(NotFoundError);
    await expect(remote.faults.add({ endpoint: 'members.nope', status: 503 })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('a wrong admin token is an AuthenticationError; no server, a ConnectionError', async () => {
    await expect(connectMock(http.url, 'not-the-admin-token-of-it').reset()).rejects.toBeInstanceOf(AuthenticationError);
    const closed = await startMockHttpServer({ mock: twin() });
    await closed.close();
    await expect(connectMock(closed.url, closed.adminToken).reset()).rejects.toBeInstanceOf(ConnectionError);
  });
});

/** A node:http server answering every request with `handle`, for as long as the test runs. */
async function serving(handle: (request: IncomingMessage, response: ServerResponse) => void) {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** What a call rejected with: class, message, status. */
const failure = async (pending: Promise<unknown>) => {
  const error = (await pending.then(
    () => expect.unreachable('resolved'),
    (thrown: unknown) => thrown,
  )) as Error & { status?: number; path?: string };
  return { error, name: error.name, message: error.message, status: error.status };
};

describe('pointed at something that is not the mock, every call fails with the SDK’s typed error saying what answered', () => {
  const HTML = '<!doctype html>\n<html><head><title>Vite App</title></head><body><div id="app"></div></body></html>';

  it('an SPA dev server answering HTML: a ResponseValidationError quoting it, for each kind of answer', async () => {
    const spa = await serving((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(HTML));
    try {
      const remote = connectMock(spa.url, 'an-admin-token-of-no-mock');
      const calls = [
        () => remote.reset(),
        () => remote.requests(),
        () => remote.store('main.logs').create({ username: 'ada' }),
        () => remote.faults.add({ status: 503 }),
        () => remote.clock.advance(1),
        () => remote.activity.step(),
      ];
      for (const call of calls) {
        const { error, message } = await failure(call());
        expect(error).toBeInstanceOf(ResponseValidationError);
        expect(message).toContain('from the mock’s control API'.replace('’', "'"));
        expect(message).toContain('got 200 text/html, "<!doctype html> <html><head><title>Vite App</title></head><b…"');
        expect(message).toContain(`is ${spa.url} the mock?`);
      }
      expect((await failure(remote.reset())).message).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/__mock\/reset: expected 204 No Content/);
      expect((await failure(remote.requests())).message).toContain('expected JSON with "data"');
    } finally {
      await spa.close();
    }
  });

  it('a 200 with no body, or JSON of another shape: a ResponseValidationError, never undefined', async () => {
    let body = '';
    const other = await serving((_request, response) =>
      response.writeHead(200, body ? { 'content-type': 'application/json' } : {}).end(body),
    );
    try {
      const remote = connectMock(other.url, 'an-admin-token-of-no-mock');
      for (const call of [() => remote.reset(), () => remote.requests(), () => remote.clock.advance(5)]) {
        const { error, message } = await failure(call());
        expect(error).toBeInstanceOf(ResponseValidationError);
        expect(message).toContain('got 200 with no content type, empty');
      }
      body = '{"ok":true}';
      const calls = [() => remote.requests(), () => remote.faults.add({ status: 503 }), () => remote.clock.advance(5)];
      for (const call of calls) expect((await failure(call())).error).toBeInstanceOf(ResponseValidationError);
      body = '{"data":"not rows"';
      expect((await failure(remote.requests())).message).toContain('got 200 application/json, "{\\"data\\":\\"not rows\\""');
    } finally {
      await other.close();
    }
  });

  it('an error status that is not the mock’s JSON: the ApiError of the status, saying what answered', async () => {
    const proxy = await serving((request, response) =>
      response
        .writeHead(request.method === 'GET' ? 502 : 404, { 'content-type': 'text/html' })
        .end(`<h1>${request.headers.authorization}</h1>`),
    );
    try {
      const secret = 'an-admin-token-echoed-back';
      const remote = connectMock(proxy.url, secret);
      const missing = await failure(remote.reset());
      expect(missing.error).toBeInstanceOf(NotFoundError);
      expect(missing).toMatchObject({ status: 404, message: expect.stringContaining('got 404 text/html, "<h1>Bearer [redacted]</h1>"') });
      const gateway = await failure(remote.requests());
      expect(gateway.error).toBeInstanceOf(InternalServerError);
      expect(gateway.status).toBe(502);
      for (const { error } of [missing, gateway]) expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(secret);
    } finally {
      await proxy.close();
    }
  });
});

describe('a redirect (issue 23, hardening 2)', () => {
  it('is not followed: the control API never redirects, so another server’s answer is never taken for the mock’s', async () => {
    const seen: string[] = [];
    const other = await serving((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"data":[]}');
    });
    const redirector = await serving((request, response) => {
      response.writeHead(307, { location: `${other.url}${request.url}` });
      response.end();
    });
    try {
      const client = connectMock(redirector.url, 'an-admin-token-of-sorts');
      const { error, status, message } = await failure(client.requests());
      expect(status).toBe(307);
      expect(message).toContain('got 307');
      expect(error.message).toContain(`is ${redirector.url} the mock?`);
      await failure(client.store('main.logs').create({ username: 'ada' }));
      expect(seen).toEqual([]); // neither the read nor the row went to the other server
    } finally {
      await Promise.all([other.close(), redirector.close()]);
    }
  });
});

describe('an answer that never ends (issue 23, hardening 2)', () => {
  it('is read to 64 MiB, then the call fails with a ConnectionError, long before its timeout', async () => {
    const chunk = Buffer.alloc(1 << 20, 'a');
    const endless = await serving((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on('drain', pump);
      pump();
    });
    try {
      const started = performance.now();
      const { error } = await failure(connectMock(endless.url, 'an-admin-token-of-sorts').requests());
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error.message).toContain('a body over 64 MiB; not read');
      expect(performance.now() - started).toBeLessThan(9_000); // the timeout is 10 s
    } finally {
      await endless.close();
    }
  });
});

describe('timeouts and abort', () => {
  let hanging: Awaited<ReturnType<typeof serving>>;
  beforeAll(async () => {
    hanging = await serving(() => undefined); // reads the request, never answers
  });
  afterAll(() => hanging.close());

  it('a call that gets no answer within the timeout is a TimeoutError: the connection’s, or the call’s own', async () => {
    const started = Date.now();
    const slow = await failure(connectMock(hanging.url, http.adminToken, { timeout: 150 }).reset());
    expect(slow.error).toBeInstanceOf(TimeoutError);
    expect(slow.message).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/__mock\/reset had no answer within 150 ms$/);
    const patient = connectMock(hanging.url, http.adminToken, { timeout: 60_000 });
    expect((await failure(patient.requests({}, { timeout: 100 }))).error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(30_000);
    // The mock itself answers well within it.
    await connectMock(http.url, http.adminToken, { timeout: 5_000 }).reset({ timeout: 5_000 });
  });

  it('a signal, the connection’s or the call’s, aborts with an AbortError whose cause is its reason', async () => {
    const call = new AbortController();
    const pending = failure(connectMock(hanging.url, http.adminToken).clock.advance(1, { signal: call.signal }));
    setTimeout(() => call.abort(new Error('test over')), 50);
    const aborted = await pending;
    expect(aborted.error).toBeInstanceOf(AbortError);
    expect(aborted.error.cause).toMatchObject({ message: 'test over' });
    const connection = new AbortController();
    connection.abort('suite torn down');
    const early = await failure(connectMock(hanging.url, http.adminToken, { signal: connection.signal }).reset());
    expect(early.error).toBeInstanceOf(AbortError);
    expect(early.error.cause).toBe('suite torn down');
  });
});

describe('arguments are checked before anything is sent', () => {
  it.each([
    ['store(table)', () => remote.store('' as 'tokens').create()],
    ['store(table) with a slash', () => remote.store('main/logs' as 'tokens').create()],
    ['create(partial)', () => remote.store('main.logs').create('ada' as never)],
    ['activity.step(n)', () => remote.activity.step(1.5)],
    ['activity.start', () => remote.activity.start({ intervalMs: 0 })],
    ['activity.start unknown option', () => remote.activity.start({ intervalMs: 5, every: 1 } as never)],
    ['faults.add status', () => remote.faults.add({ status: 200 })],
    ['faults.add unknown field', () => remote.faults.add({ status: 503, count: 1 } as never)],
    ['faults.add network', () => remote.faults.add({ network: false as never })],
    ['clock.advance', () => remote.clock.advance(-1)],
    ['setHealth', () => remote.setHealth({ database: 'no' as never })],
    ['setHealth unknown switch', () => remote.setHealth({ disk: false } as never)],
    ['setRateLimit', () => remote.setRateLimit({ limit: 0, windowMs: 1000 })],
    ['requests filter', () => remote.requests({ status: 'x' as never })],
    ['requests filter status 1', () => remote.requests({ status: 1 })],
    ['requests filter token', () => remote.requests({ token: 'admin' as never })],
    ['a call option unknown', () => remote.reset({ timeot: 5 } as never)],
    ['a call timeout of 0', () => remote.clearRequests({ timeout: 0 })],
    ['a call signal that is none', () => remote.faults.clear({ signal: 'stop' as never })],
    ['a row that is no JSON', () => remote.store('main.logs').create({ username: 10n as never })],
  ])('%s', async (_, call) => {
    const sent = vi.spyOn(globalThis, 'fetch');
    await expect((async () => call())()).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(sent).not.toHaveBeenCalled();
  });

  it('connectMock refuses a URL that is not http(s) and an admin token that is not one, without showing it', () => {
    expect(() => connectMock('localhost:4010', 'x'.repeat(20))).toThrow(InvalidArgumentError);
    expect(() => connectMock('ftp://127.0.0.1', 'x'.repeat(20))).toThrow(InvalidArgumentError);
    expect(() => connectMock(http.url, 'x'.repeat(20), { timeout: -1 })).toThrow('timeout must be a number of milliseconds');
    expect(() => connectMock(http.url, 'x'.repeat(20), { retries: 2 } as never)).toThrow('unknown connectMock option "retries"');
    const error = (() => {
      try {
        connectMock(http.url, 'with a space in it');
      } catch (thrown) {
        return thrown as Error;
      }
    })();
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error!.message).not.toContain('with a space');
  });
});

describe('the admin token shows nowhere', () => {
  it('not in inspect or JSON of the client, nor in errors, even when a server echoes it', async () => {
    const secret = 'an-admin-token-that-must-stay-hidden';
    // A server that quotes the Authorization header back in its error body and headers.
    const echo = createServer((request, response) => {
      response.writeHead(500, { 'content-type': 'application/json', 'x-echo': String(request.headers.authorization) });
      response.end(
        JSON.stringify({
          error: { code: 'echo', message: `you sent ${request.headers.authorization}`, details: { seen: request.headers.authorization } },
        }),
      );
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const client = connectMock(`http://127.0.0.1:${(echo.address() as AddressInfo).port}`, secret);
      expect(inspect(client, { depth: 5, showHidden: true })).not.toContain(secret);
      expect(JSON.stringify(client)).not.toContain(secret);
      const error = await client.reset().catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ status: 500, code: 'echo' });
      expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(secret);
      expect(JSON.stringify(error)).not.toContain(secret);
      expect((error as Error).message).toContain('[redacted]');
    } finally {
      await new Promise((resolve) => echo.close(resolve));
    }
  });
});

describe('issue 23 hardening 2: no part of the admin token shows either', () => {
  const secret = 'an-admin-token-that-must-stay-hidden';

  it('an echo server whose answer is cut in the middle of the token (a 60-character glimpse, a 2 KiB excerpt)', async () => {
    // What an echo service answers (httpbin's /anything): the request's headers, in text.
    const echo = await serving((request, response) => {
      const status = request.url?.includes('requests') ? 502 : 200;
      response.writeHead(status, { 'content-type': 'text/plain' });
      const lead = status === 200 ? 'x'.repeat(40) : 'x'.repeat(2030);
      response.end(`${lead}${request.headers.authorization} and the rest`);
    });
    try {
      const client = connectMock(echo.url, secret);
      for (const pending of [client.reset(), client.activity.step(), client.requests()]) {
        const { error } = await failure(pending);
        const shown = [inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error), error.message];
        for (const text of shown) expect(text).not.toContain(secret.slice(0, 6));
      }
    } finally {
      await echo.close();
    }
  });

  it('the admin token passed as the journal filter’s token, or connectMock’s arguments swapped: refused, no part of it shown', async () => {
    const admin = http.adminToken;
    const refusals = [
      (await failure(remote.requests({ token: admin as never }))).error,
      (() => {
        try {
          connectMock(admin, http.url);
        } catch (thrown) {
          return thrown as Error;
        }
      })()!,
    ];
    for (const error of refusals) {
      expect(error).toBeInstanceOf(InvalidArgumentError);
      for (const text of [inspect(error, { depth: 10, showHidden: true }), error.message]) expect(text).not.toContain(admin.slice(0, 16));
    }
    expect(refusals[1]!.message).toBe(
      'connectMock(url, adminToken): the arguments are the wrong way round (adminToken is a URL, url is not); values not shown',
    );
  });
});
