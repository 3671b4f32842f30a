/**
 * The SDK against the mock, for all 64 requests: in-process (`mock.fetch`) and over real HTTP on
 * loopback (`startMockHttpServer`). Each row calls one method with ids taken from the mock's
 * store and checks the answer against the store; then every error status the spec's table lists
 * for the request (and API.md's 403s) is provoked and checked by class, status and code.
 */
import {
  AuthenticationError,
  InvalidArgumentError,
  NotFoundError,
  Page,
  PermissionDeniedError,
  ServiceUnavailableError,
  type ApiError,
} from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient, rawRequest, type RawRequest } from '../../../helpers';
import { endpointOf, firstPage, method, pick, plain, replaceArg, rows, type Ids } from './contract-rows';

/** The error a call rejects with (fails the test if it resolves). */
async function failure(call: PromiseLike<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

describe.each(['in-process', 'over HTTP'] as const)('all 64 requests against the mock, %s', (door) => {
  let mock: MockApi;
  let http: MockHttpServer | undefined;
  let ids: Ids;
  const baseUrl = () => (door === 'over HTTP' ? { baseUrl: http!.url } : {});
  const clientFor = (token: string) => mockClient(mock, { token, ...baseUrl() });
  /** A raw request through the door under test. */
  const raw = (path: string, request: RawRequest) => rawRequest(mock, path, { ...request, ...baseUrl() });

  beforeAll(async () => {
    mock = createMockApi({ seed: 11 });
    if (door === 'over HTTP') http = await startMockHttpServer({ mock });
  });
  afterAll(() => http?.close());
  beforeEach(() => {
    mock.reset();
    ids = pick(mock.store);
  });

  it('has one row per request, numbered 1..64', () => {
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
  });

  describe.each(rows)('#$n $name', (row) => {
    const isList = endpointOf(row).kind === 'page';

    it(`answers with the store’s data${isList ? ', as page 1 of the whole list' : ''}`, async () => {
      const client = clientFor(mock.tokens.main);
      const result = await method(client, row.name)(...row.args(ids));
      const expected = row.expect(mock.store, ids); // after the call: it may have written the store
      expect(result instanceof Page).toBe(isList);
      expect(plain(result)).toEqual(isList ? firstPage(expected as unknown[]) : expected);
    });

    if (endpointOf(row).auth) {
      it('401 without a valid token, in the spec’s words', async () => {
        for (const token of [mock.tokens.revoked, mock.tokens.expired, 'cst_unknown']) {
          const error = await failure(method(clientFor(token), row.name)(...row.args(ids)));
          expect(error).toBeInstanceOf(AuthenticationError);
          expect(error.message).toBe('invalid or expired token');
        }
      });
    }

    if (row.readOnly403) {
      it('403 for the read-only token', async () => {
        const error = await failure(method(clientFor(mock.tokens.readOnly), row.name)(...row.args(ids)));
        expect(error).toBeInstanceOf(PermissionDeniedError);
        expect(error.message).toBe('insufficient permissions for this operation');
      });
    }

    for (const [index, how] of (row.missing ?? []).entries()) {
      it(`404 ${row.codes![index]} (${how === 'cad' ? 'server without CAD' : `unknown ${how} id`})`, async () => {
        const client = clientFor(how === 'cad' ? mock.tokens.noCad : mock.tokens.main);
        const args = how === 'cad' ? row.args(ids) : replaceArg(row.args(ids), how, row);
        const error = await failure(method(client, row.name)(...args));
        expect(error).toBeInstanceOf(NotFoundError);
        expect(error.code).toBe(row.codes![index]);
      });
    }
  });

  it('#30 and #49 answer 404 chat_id_not_found for a member without a chat link', async () => {
    const client = clientFor(mock.tokens.main);
    expect((await failure(client.members.chatId(ids.unlinkedMemberId))).code).toBe('chat_id_not_found');
    expect((await failure(client.departments.members.chatId(ids.departmentId, ids.deptUnlinkedMemberId))).code).toBe('chat_id_not_found');
  });

  it('#36 answers 404 server_not_found once the token’s server is gone', async () => {
    mock.store.main.info = { ...mock.store.main.info, id: 'moved-away' };
    const error = await failure(clientFor(mock.tokens.main).server.info());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe('server_not_found');
  });

  it('#56 answers 400 invalid_request for a body the spec refuses', async () => {
    const post = (body: string) => raw('/api/v1/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    for (const body of [
      '{',
      '[]',
      'null',
      '{}',
      '{"name":""}',
      '{"name":"  "}',
      '{"name":7}',
      '{"name":"x","expiresInDays":1.5}',
      '{"name":"x","expiresInDays":"7"}',
      '{"name":"x","expiresInDays":0}',
    ]) {
      const response = await post(body);
      expect(response.status, body).toBe(400);
      const json = (await response.json()) as { error: { code: string; message: string } };
      expect(json.error.code, body).toBe('invalid_request');
      expect(json.error.message.length).toBeGreaterThan(0);
    }
    // The SDK refuses the same bodies before sending; what reaches the mock is valid.
    await expect(clientFor(mock.tokens.main).tokens.create({ name: '' })).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('#61 and #64 answer 503 when a dependency is down; #63 reports it', async () => {
    const client = clientFor(mock.tokens.main);
    mock.setHealth({ database: false });
    const check = await failure(client.health.check());
    expect(check).toBeInstanceOf(ServiceUnavailableError);
    expect(check.message).toContain('database unavailable');
    const ready = await failure(client.health.ready());
    expect(ready).toBeInstanceOf(ServiceUnavailableError);
    expect(ready.details).toMatchObject({ status: 'not ready', checks: { database: 'unavailable' } });
    expect(await client.health.metrics()).toMatchObject({ status: 'degraded', databasePoolSize: 0 });
    expect(await client.health.live()).toEqual({ status: 'ok' });
  });
});
