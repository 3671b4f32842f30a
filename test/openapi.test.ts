/**
 * openapi.json, the OpenAPI 3.1 document generated from the SDK (`npm run openapi`): it is the
 * generator's output of today, a valid OpenAPI 3.1 document, has exactly the 64 requests, and the
 * mock's answers (every success, and every error status the document declares) conform to the
 * schema the document declares for their status, checked with ajv's draft 2020-12 validator.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openApiFile, renderOpenApi, type OpenApiDocument, type Parameter, type ResponseObject } from '../scripts/openapi/document';
import type { JsonSchema } from '../scripts/openapi/json-schema';
import { endpointsOf } from '../src/core/endpoint';
import type { Endpoint } from '../src/core/endpoint';
import { resources } from '../src/resources/index';
import { rawRequest } from './helpers';
import { pick, replaceArg, rows, type Ids, type Row } from './mock/contract-rows';

const committed = readFileSync(openApiFile, 'utf8');
const doc = JSON.parse(committed) as OpenApiDocument;

const endpoints = new Map(endpointsOf(resources).map(({ name, endpoint }) => [name, endpoint]));
const endpointOf = (row: Row) => endpoints.get(row.name)!;
const authenticated = rows.filter((row) => endpointOf(row).auth);

describe('openapi.json', () => {
  it('is what the generator writes now', () => {
    expect(committed === renderOpenApi(), 'openapi.json is stale: run `npm run openapi` and commit the result').toBe(true);
  });

  it('is shipped as community-server-sdk/openapi.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { files: string[] };
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
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
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
      expect(names, endpoint.path).toEqual([...pathNames, ...(endpoint.kind === 'page' ? ['page', 'pageSize', 'limit', 'orderBy', 'sort'] : [])]);
    }
  });

  it('types each path parameter as the endpoint table does: int32 where it says so, else string', () => {
    const int32: string[] = [];
    for (const endpoint of endpoints.values()) {
      const parts = endpoint.parts.flatMap((part) => (typeof part === 'string' ? [] : [part]));
      const declared = (operationOf(endpoint).parameters ?? []).slice(0, parts.length).map((p) => (p as Parameter).schema);
      expect(declared, endpoint.path).toEqual(parts.map((part) => expect.objectContaining(part.kind === 'int32' ? { type: 'integer', format: 'int32' } : { type: 'string' })));
      int32.push(...parts.filter((part) => part.kind === 'int32').map((part) => part.name));
    }
    expect(new Set(int32)).toEqual(new Set(['groupId', 'unitId'])); // spec Part 4
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
    const bodies = Object.values(doc.paths).flatMap((methods) => Object.values(methods).flatMap((operation) => (operation.requestBody ? [operation.requestBody] : [])));
    const requestOnly = new Set(JSON.stringify(bodies).match(/(?<=#\/components\/schemas\/)\w+/g));
    expect([...requestOnly]).toEqual(['CreateTokenRequest']);
    expect(doc.components.schemas['CreateTokenRequest']!['additionalProperties']).toBe(false);
    const closed = Object.entries(doc.components.schemas).filter(([, schema]) => JSON.stringify(schema).includes('"additionalProperties":false'));
    expect(closed.map(([name]) => name)).toEqual([...requestOnly]);
  });
});

// ---- Conformance: a response of the mock against what the document declares for it ----

const DOC_ID = 'openapi.json';
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
// The OpenAPI formats of the document's integers; ajv knows neither, and strict mode refuses unknown formats.
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
// The whole document, so that a schema compiled from inside it resolves its `#/components/…` refs.
// Its top-level fields are no JSON Schema keywords: declared as such, strict mode lets them be.
ajv.addVocabulary(Object.keys(doc));
ajv.addSchema(doc, DOC_ID);

/** A JSON Pointer segment in a URI fragment: `~` and `/` escaped (RFC 6901), then percent-encoded. */
const segment = (key: string) => encodeURIComponent(key.replaceAll('~', '~0').replaceAll('/', '~1'));

/** The validator of the schema at `pointer` in the document (ajv caches it). */
function schemaAt(pointer: string) {
  const validate = ajv.getSchema(`${DOC_ID}#${pointer}`);
  if (!validate) throw new Error(`no schema at ${pointer}`);
  return validate;
}

function operationOf(endpoint: Endpoint) {
  const operation = doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
  if (!operation) throw new Error(`${endpoint.method} ${endpoint.path} is not in openapi.json`);
  return operation;
}

/** The response the document declares for `status`, and its JSON Pointer (`#/components/responses/…` when shared). */
function declaredResponse(endpoint: Endpoint, status: number): { response: ResponseObject; pointer: string } | undefined {
  const declared = operationOf(endpoint).responses[String(status)];
  if (!declared) return undefined;
  if (!('$ref' in declared)) return { response: declared, pointer: `/paths/${segment(endpoint.path)}/${endpoint.method.toLowerCase()}/responses/${status}` };
  const name = declared.$ref.split('/').at(-1)!;
  return { response: doc.components.responses[name]!, pointer: declared.$ref.slice(1) };
}

/** A response as received: status, media type (no parameters), headers, and the body parsed by its media type. */
interface Received {
  status: number;
  mediaType: string;
  headers: Headers;
  body: unknown;
}

async function receive(response: Response): Promise<Received> {
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const text = await response.text();
  return { status: response.status, mediaType, headers: response.headers, body: mediaType === 'application/json' ? JSON.parse(text) : text };
}

/** A header's text as the value its schema types: `Retry-After: 30` is the integer 30. */
const headerValue = (text: string, schema: JsonSchema) => (schema.type === 'integer' || schema.type === 'number' ? Number(text) : text);

/**
 * What is wrong with `received` as an answer to `endpoint`, by the document: an undeclared
 * status or media type, the body's ajv errors against the declared schema, a declared header
 * that does not match its schema. Empty when it conforms.
 */
function nonConformities(endpoint: Endpoint, received: Received): string[] {
  const label = `${endpoint.method} ${endpoint.path} ${received.status}`;
  const declared = declaredResponse(endpoint, received.status);
  if (!declared) return [`${label}: status not declared`];
  const { response, pointer } = declared;
  if (!response.content?.[received.mediaType]) return [`${label}: media type ${received.mediaType || '(none)'} not declared`];
  const validate = schemaAt(`${pointer}/content/${segment(received.mediaType)}/schema`);
  const problems = validate(received.body) ? [] : validate.errors!.map((e) => `${label}: body${e.instancePath} ${e.message} (${e.schemaPath})`);
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const text = received.headers.get(name);
    const check = schemaAt(`${pointer}/headers/${segment(name)}/schema`);
    if (text !== null && !check(headerValue(text, header.schema))) problems.push(`${label}: header ${name} ${ajv.errorsText(check.errors)}`);
  }
  return problems;
}

/** Sends one request to the mock, in-process: path ids from `args`, then the JSON body if the request has one. */
async function send(mock: MockApi, endpoint: Endpoint, args: readonly unknown[], token?: string): Promise<Received> {
  const values = [...args];
  const path = endpoint.parts.map((part) => (typeof part === 'string' ? part : encodeURIComponent(String(values.shift())))).join('');
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
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): Received => ({ status, mediaType: 'application/json', headers: new Headers(headers), body });

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
    expect(nonConformities(resources.members.list, json(200, { data: [{ id: 'm' }], page: 1, pageSize: 10, total: 1, totalPages: 1 }))).not.toEqual([]);
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
