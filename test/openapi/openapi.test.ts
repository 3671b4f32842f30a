/**
 * openapi.json, the OpenAPI 3.1 document generated from the SDK (`npm run openapi`): it is the
 * generator's output of today, a valid OpenAPI 3.1 document, has exactly the 64 requests, and the
 * mock's answers (every success, and every error status the document declares) conform to the
 * schema the document declares for their status, checked with ajv's draft 2020-12 validator.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openApiFile, renderOpenApi, type Parameter } from '../../scripts/openapi/document';
import { listOrders } from '../../scripts/readme/orders';
import { MAX_PAGE_SIZE } from 'community-server-sdk/mock';
import { endpointsOf } from '../../src/core/endpoint';
import type { Endpoint } from '../../src/core/endpoint';
import { resources } from '../../src/resources/index';
import { rawRequest } from '../helpers';
import { pick, replaceArg, rows, type Ids, type Row } from '../mock/engine/api/contract-rows';
import { committed, committedDocument as doc, conformance, pathOf, receive, type Received } from './openapi-conformance';

const endpoints = new Map(endpointsOf(resources).map(({ name, endpoint }) => [name, endpoint]));
const endpointOf = (row: Row) => endpoints.get(row.name)!;
const authenticated = rows.filter((row) => endpointOf(row).auth);

describe('openapi.json', () => {
  it('is what the generator writes now', async () => {
    expect(committed === (await renderOpenApi()), 'openapi.json is stale: run `npm run openapi` and commit the result').toBe(true);
  });

  it('is shipped as community-server-sdk/openapi.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('openapi.json');
    // Node resolves a package's own name through its `exports`, as it would for a user.
    expect(createRequire(import.meta.url).resolve('community-server-sdk/openapi.json')).toBe(openApiFile);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is checked by a validator that can fail', async () => {
    const broken = { ...doc, paths: { '/x': { get: { responses: { 200: { content: {} } } } } } }; // a response without description
    expect((await new Validator().validate(broken as unknown as Record<string, unknown>)).valid).toBe(false);
  });

  it('has one operation per request: exactly the 64 of the resource table', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const requests = [...endpoints.values()].map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(operations).toHaveLength(64);
    expect(new Set(operations).size).toBe(64);
    expect([...operations].sort()).toEqual([...requests].sort());
    const ids = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(64);
  });

  it('declares each path parameter (int32 for groupId and unitId), and the five paging parameters on every list', () => {
    for (const endpoint of endpoints.values()) {
      const names = (operationOf(endpoint).parameters ?? []).map((p) => ('$ref' in p ? p.$ref.split('/').at(-1) : p.name));
      const pathNames = endpoint.parts.flatMap((part) => (typeof part === 'string' ? [] : [part.name]));
      expect(names, endpoint.path).toEqual([
        ...pathNames,
        ...(endpoint.kind === 'page' ? ['page', 'pageSize', 'limit', 'orderBy', 'sort'] : []),
      ]);
    }
  });

  it('types each path parameter as the endpoint table does: int32 where it says so, else string', () => {
    const int32: string[] = [];
    for (const endpoint of endpoints.values()) {
      const parts = endpoint.parts.flatMap((part) => (typeof part === 'string' ? [] : [part]));
      const declared = (operationOf(endpoint).parameters ?? []).slice(0, parts.length).map((p) => (p as Parameter).schema);
      expect(declared, endpoint.path).toEqual(
        parts.map((part) => expect.objectContaining(part.kind === 'int32' ? { type: 'integer', format: 'int32' } : { type: 'string' })),
      );
      int32.push(...parts.filter((part) => part.kind === 'int32').map((part) => part.name));
    }
    expect(new Set(int32)).toEqual(new Set(['groupId', 'unitId'])); // spec Part 4
  });

  it('declares the mock’s paging rules: bounds on page, pageSize and limit, enum on sort and on each list’s orderBy', async () => {
    const { page, pageSize, limit, sort } = doc.components.parameters;
    expect(page!.schema).toMatchObject({ type: 'integer', minimum: 1 });
    for (const size of [pageSize!, limit!]) expect(size.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE });
    expect(sort!.schema).toEqual({ type: 'string', enum: ['asc', 'desc'] });
    const orders = new Map((await listOrders()).map((order) => [order.name, order.accepted]));
    for (const [name, endpoint] of endpoints) {
      if (endpoint.kind !== 'page') continue;
      const orderBy = operationOf(endpoint).parameters!.find((p): p is Parameter => !('$ref' in p) && p.name === 'orderBy');
      expect(orderBy?.schema, name).toEqual({ type: 'string', enum: orders.get(name) });
    }
  });

  it('declares a 400 exactly where the mock checks input: a list’s paging, an int32 id, the token body', () => {
    const checked = [...endpoints.values()].filter(
      (e) => e.kind === 'page' || e.body !== undefined || e.parts.some((part) => typeof part !== 'string' && part.kind === 'int32'),
    );
    expect(checked).toHaveLength(29 + 2 + 1);
    for (const endpoint of endpoints.values()) {
      const declared = operationOf(endpoint).responses['400'];
      expect(declared !== undefined, `${endpoint.method} ${endpoint.path}`).toBe(checked.includes(endpoint));
    }
  });

  it('asks for the bearer token on requests 1–60 and on none of the four probes', () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes['bearerAuth']).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const endpoint of endpoints.values()) {
      const operation = operationOf(endpoint);
      expect(operation.security, operation.operationId).toEqual(endpoint.auth ? undefined : []);
    }
  });

  it('lets every response object carry unknown fields; only the token request body is closed', () => {
    const bodies = Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods).flatMap((operation) => (operation.requestBody ? [operation.requestBody] : [])),
    );
    const requestOnly = new Set(JSON.stringify(bodies).match(/(?<=#\/components\/schemas\/)\w+/g));
    expect([...requestOnly]).toEqual(['CreateTokenRequest']);
    expect(doc.components.schemas['CreateTokenRequest']!['additionalProperties']).toBe(false);
    const closed = Object.entries(doc.components.schemas).filter(([, schema]) =>
      JSON.stringify(schema).includes('"additionalProperties":false'),
    );
    expect(closed.map(([name]) => name)).toEqual([...requestOnly]);
  });
});

const { operationOf, nonConformities } = conformance(doc);

/** Sends one request to the mock, in-process: path ids from `args`, then the JSON body if the request has one. */
async function send(mock: MockApi, endpoint: Endpoint, args: readonly unknown[], token?: string): Promise<Received> {
  const values = [...args];
  const path = pathOf(endpoint, values.splice(0, endpoint.parts.filter((part) => typeof part !== 'string').length));
  const body = endpoint.body ? { json: values.shift() } : {};
  return receive(await rawRequest(mock, path, { method: endpoint.method, token: token ?? null, ...body }));
}

/** Asserts the status, then that the answer conforms; a failure lists ajv's errors. */
function expectConforms(endpoint: Endpoint, received: Received, status: number) {
  expect(received.status, JSON.stringify(received.body)).toBe(status);
  expect(nonConformities(endpoint, received)).toEqual([]);
}

describe('the mock’s answers conform to openapi.json', () => {
  let mock: MockApi;
  let ids: Ids;
  beforeAll(() => {
    mock = createMockApi({ seed: 11 });
  });
  beforeEach(() => {
    mock.reset();
    ids = pick(mock.store);
  });

  it.each(rows)('#$n $name: its success', async (row) => {
    const endpoint = endpointOf(row);
    expectConforms(endpoint, await send(mock, endpoint, row.args(ids), mock.tokens.main), endpoint.method === 'POST' ? 201 : 200);
  });

  it.each(rows.filter((row) => row.missing))('#$n $name: its 404s', async (row) => {
    const endpoint = endpointOf(row);
    for (const how of row.missing!) {
      const token = how === 'cad' ? mock.tokens.noCad : mock.tokens.main;
      const args = how === 'cad' ? row.args(ids) : replaceArg(row.args(ids), how, row);
      expectConforms(endpoint, await send(mock, endpoint, args, token), 404);
    }
  });

  it('#5, #30, #36 and #49: 404 for a missing parent application, chat link or server', async () => {
    const token = mock.tokens.main;
    expectConforms(resources.applications.responses, await send(mock, resources.applications.responses, ['no-such-id'], token), 404);
    expectConforms(resources.members.chatId, await send(mock, resources.members.chatId, [ids.unlinkedMemberId], token), 404);
    if (ids.deptUnlinkedMemberId) {
      const chatId = resources.departments.members.chatId;
      expectConforms(chatId, await send(mock, chatId, [ids.departmentId, ids.deptUnlinkedMemberId], token), 404);
    }
    mock.store.main.info = { ...mock.store.main.info, id: 'moved-away' };
    expectConforms(resources.server.info, await send(mock, resources.server.info, [], token), 404);
  });

  it('#56: 400 for bodies the spec refuses', async () => {
    for (const body of [{}, { name: '' }, { name: 7 }, { name: 'x', expiresInDays: 1.5 }, [], null]) {
      expectConforms(resources.tokens.create, await send(mock, resources.tokens.create, [body], mock.tokens.main), 400);
    }
  });

  it('#61 and #64: 503 while the database is down', async () => {
    mock.setHealth({ database: false });
    expectConforms(resources.health.check, await send(mock, resources.health.check, []), 503);
    expectConforms(resources.health.ready, await send(mock, resources.health.ready, []), 503);
  });

  it('413 for a body over 1 MiB on every request that may carry one, over HTTP', async () => {
    const http = await startMockHttpServer({ mock });
    try {
      const bodied = [...endpoints.values()].filter((endpoint) => endpoint.method !== 'GET');
      expect(bodied.map((endpoint) => `${endpoint.method} ${endpoint.path}`)).toEqual([
        'POST /api/v1/tokens',
        'DELETE /api/v1/tokens/{tokenId}',
      ]);
      for (const endpoint of bodied) {
        const path = pathOf(endpoint, ['some-token-id']);
        const huge = await rawRequest(mock, path, { method: endpoint.method, body: 'x'.repeat(2 ** 20 + 1), baseUrl: http.url });
        expectConforms(endpoint, await receive(huge), 413);
      }
    } finally {
      await http.close();
    }
  });

  it('429 with Retry-After once a token’s rate limit is spent', async () => {
    const limited = createMockApi({ seed: 11, rateLimit: { limit: 1, windowMs: 60_000 } });
    const endpoint = resources.members.list;
    expectConforms(endpoint, await send(limited, endpoint, [], limited.tokens.main), 200);
    const refused = await send(limited, endpoint, [], limited.tokens.main);
    expectConforms(endpoint, refused, 429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe.each(['string', 'object'] as const)('401 and 403 bodies in the %s shape conform to openapi.json', (shape) => {
  let mock: MockApi;
  let ids: Ids;
  beforeAll(() => {
    mock = createMockApi({ seed: 11, authErrorShape: shape });
  });
  beforeEach(() => {
    mock.reset();
    ids = pick(mock.store);
  });
  /** The mock's answer is in the shape asked for, so both branches of the document's `oneOf` are exercised. */
  const expectShape = (received: Received) => expect(typeof (received.body as { error: unknown }).error).toBe(shape);

  it.each(authenticated)('#$n $name: 401 without a token and with an expired one', async (row) => {
    const endpoint = endpointOf(row);
    for (const token of [undefined, mock.tokens.expired]) {
      const received = await send(mock, endpoint, row.args(ids), token);
      expectConforms(endpoint, received, 401);
      expectShape(received);
    }
  });

  it.each(rows.filter((row) => row.readOnly403))('#$n $name: 403 for the read-only token', async (row) => {
    const endpoint = endpointOf(row);
    const received = await send(mock, endpoint, row.args(ids), mock.tokens.readOnly);
    expectConforms(endpoint, received, 403);
    expectShape(received);
  });
});

describe('the conformance check', () => {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): Received => ({
    status,
    mediaType: 'application/json',
    headers: new Headers(headers),
    body,
  });

  it('rejects a body that breaks the declared schema, with ajv’s errors', () => {
    const problems = nonConformities(resources.members.get, json(200, { id: 7, serverId: 'srv', createdAt: 1.5 }));
    expect(problems).toEqual(
      expect.arrayContaining([
        "GET /api/v1/server/members/{memberId} 200: body must have required property 'roles' (#/required)",
        'GET /api/v1/server/members/{memberId} 200: body/id must be string (#/properties/id/type)',
        'GET /api/v1/server/members/{memberId} 200: body/createdAt must be integer (#/properties/createdAt/type)',
      ]),
    );
  });

  it('rejects an item of a page, an int32 out of range, and an auth error of neither shape', () => {
    expect(
      nonConformities(resources.members.list, json(200, { data: [{ id: 'm' }], page: 1, pageSize: 10, total: 1, totalPages: 1 })),
    ).not.toEqual([]);
    const unit = { id: 2 ** 31, serverId: 's', userId: 'u', status: 0, panic: false, number: '1', agency: 'a', loc: null, items: [] };
    expect(nonConformities(resources.cad.units.get, json(200, unit))).toContain(
      'GET /api/v1/server/cad/units/{unitId} 200: body/id must match format "int32" (#/properties/id/format)',
    );
    expect(nonConformities(resources.members.get, json(401, { error: 42 }))).not.toEqual([]);
    expect(nonConformities(resources.members.get, json(404, { error: 'member not found' }))).not.toEqual([]);
  });

  it('rejects an undeclared status, media type or header value', () => {
    expect(nonConformities(resources.health.live, json(503, { status: 'down' }))).toEqual(['GET /livez 503: status not declared']);
    expect(nonConformities(resources.members.get, { ...json(200, 'OK'), mediaType: 'text/plain' })).toEqual([
      'GET /api/v1/server/members/{memberId} 200: media type text/plain not declared',
    ]);
    const tooMany = json(429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': 'soon' });
    expect(nonConformities(resources.members.get, tooMany)).toEqual([expect.stringContaining('header Retry-After')]);
  });
});
