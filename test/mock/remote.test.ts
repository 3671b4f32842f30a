/**
 * `connectMock` (community-server-sdk/mock/remote), the typed client of the control API: each
 * method drives the served mock as the in-process call does, failures are the SDK's typed
 * errors, arguments are refused before anything is sent, and the admin token shows nowhere.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InvalidArgumentError,
  NotFoundError,
  ServiceUnavailableError,
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
    ['requests filter token', () => remote.requests({ token: 'admin' as never })],
  ])('%s', async (_, call) => {
    const sent = vi.spyOn(globalThis, 'fetch');
    await expect((async () => call())()).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(sent).not.toHaveBeenCalled();
  });

  it('connectMock refuses a URL that is not http(s) and an admin token that is not one, without showing it', () => {
    expect(() => connectMock('localhost:4010', 'x'.repeat(20))).toThrow(InvalidArgumentError);
    expect(() => connectMock('ftp://127.0.0.1', 'x'.repeat(20))).toThrow(InvalidArgumentError);
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
