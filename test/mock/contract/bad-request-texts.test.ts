/**
 * Every 400 the API mock and its control API answer names the field (issue 30 item 8), pinned
 * text by text, in a process that loaded classic `zod` as an app does: its first schema registers
 * zod's English locale globally, whose "Invalid input: expected string, received number" once
 * passed for a schema's own text and reached the answers without the field.
 *
 * The tables are walked from the documents, so nothing escapes them: every query parameter, int32
 * path parameter and body field of the API's openapi.json, and every parameter, body and body
 * field (nested ones too) of the control API's /__mock/openapi.json. A new operation or field
 * fails here until its text is pinned.
 */
import { readFileSync } from 'node:fs';
import { CommunityServerClient } from 'community-server-sdk';
import { createMockApi, snapshotWorld, type MockApi, type WorldSnapshot } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';

// What an app that uses classic zod does before it ever reaches the mock.
z.object({ name: z.string() }).safeParse({ name: 5 });

interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: { type?: string; enum?: string[] };
}
interface Operation {
  operationId: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
}
interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  $ref?: string;
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { parameters?: Record<string, Parameter>; schemas?: Record<string, JsonSchema> };
};

const resolved = <T>(document: Document, value: T | { $ref: string }): T => {
  if (typeof value !== 'object' || value === null || !('$ref' in value)) return value;
  const [, , section, name] = value.$ref.split('/') as [string, string, 'parameters' | 'schemas', string];
  return document.components![section]![name] as T;
};

/** Every body field of `schema`, nested ones dotted (`counts.members`). */
function fieldsOf(document: Document, schema: JsonSchema, prefix = ''): string[] {
  const properties = resolved(document, schema).properties ?? {};
  return Object.entries(properties).flatMap(([key, field]) => [prefix + key, ...fieldsOf(document, field, `${prefix}${key}.`)]);
}

/** What a request that must be refused sends, and the message its 400 says. */
interface Refusal {
  path?: string;
  query?: string;
  body?: unknown;
  message: string;
}

describe('the API: every query parameter, int32 path parameter and body field', () => {
  const document = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8')) as Document;
  const mock = createMockApi();
  const { main } = mock.store;
  /** Ids of parents that exist: a list under one checks its query once its parent is found. */
  const parents: Record<string, string> = {
    applicationId: main.applications.all()[0]!.id,
    callId: main.cad!.calls.all()[0]!.id,
    departmentId: main.departments.all()[0]!.id,
  };

  /** The pinned texts, by parameter or field; `orderBy`'s lists what the operation's schema allows. */
  const QUERY: Record<string, (parameter: Parameter) => Refusal> = {
    page: () => ({ query: 'page=0', message: 'page must be an integer of at least 1, got "0"' }),
    pageSize: () => ({ query: 'pageSize=500', message: 'pageSize must be an integer from 1 to 100, got "500"' }),
    limit: () => ({ query: 'limit=ten', message: 'limit must be an integer from 1 to 100, got "ten"' }),
    sort: () => ({ query: 'sort=up', message: 'sort must be "asc" or "desc", got "up"' }),
    orderBy: ({ schema }) => ({
      query: 'orderBy=nothing',
      message: `orderBy must be one of ${schema.enum!.map((value) => JSON.stringify(value)).join(', ')}, got "nothing"`,
    }),
  };
  const INT32_PATH: Record<string, Refusal> = {
    unitId: { path: 'abc', message: 'unitId must be a 32-bit integer, got "abc"' },
    groupId: { path: '2147483648', message: 'groupId must be a 32-bit integer, got "2147483648"' },
  };
  const BODY: Record<string, Record<string, Refusal>> = {
    tokensCreate: {
      '': { body: [1], message: 'the request body must be a JSON object, got array' },
      name: { body: { name: 5 }, message: 'name must be a string, got number' },
      expiresInDays: { body: { name: 'ci', expiresInDays: '3' }, message: 'expiresInDays must be an integer or null, got string' },
    },
  };

  const cases = Object.entries(document.paths).flatMap(([template, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) => {
      const parameters = (operation.parameters ?? []).map((parameter) => resolved(document, parameter));
      const fill = (bad?: Parameter, value?: string) =>
        template.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === bad?.name ? value! : parameters.find((p) => p.name === name)?.schema.type === 'integer' ? '1' : (parents[name] ?? 'x'),
        );
      const named = (field: string, refusal: Refusal | undefined) => ({
        method,
        template,
        operation: operation.operationId,
        field,
        refusal,
      });
      return [
        ...parameters
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => named(parameter.name, QUERY[parameter.name] && { ...QUERY[parameter.name]!(parameter), path: fill() })),
        ...parameters
          .filter((parameter) => parameter.in === 'path' && parameter.schema.type === 'integer')
          .map((parameter) => {
            const refusal = INT32_PATH[parameter.name];
            return named(parameter.name, refusal && { ...refusal, path: fill(parameter, refusal.path) });
          }),
        ...(operation.requestBody
          ? ['', ...fieldsOf(document, operation.requestBody.content['application/json'].schema)].map((field) => {
              const refusal = BODY[operation.operationId]?.[field];
              return named(field, refusal && { ...refusal, path: fill() });
            })
          : []),
      ];
    }),
  );

  it('the document has the parameters and fields the tables pin, and no other', () => {
    expect(cases.length).toBeGreaterThan(100);
    expect(cases.filter((entry) => !entry.refusal).map((entry) => `${entry.operation} ${entry.field}`)).toEqual([]);
  });

  it.each(cases.filter((entry) => entry.refusal).map((entry) => ({ ...entry, refusal: entry.refusal! })))(
    '$method $template $field: a 400 naming it',
    async ({ method, refusal, field }) => {
      const response = await mock.fetch(`https://community.test${refusal.path}${refusal.query ? `?${refusal.query}` : ''}`, {
        method: method.toUpperCase(),
        headers: { authorization: `Bearer ${mock.tokens.main}`, 'content-type': 'application/json' },
        ...(refusal.body === undefined ? {} : { body: JSON.stringify(refusal.body) }),
      });
      const { error } = (await response.json()) as { error: { message: string } };
      expect({ status: response.status, message: error.message }).toEqual({ status: 400, message: refusal.message });
      expect(error.message.startsWith(field || 'the request body')).toBe(true);
    },
  );

  it('the client’s own check of a body names the field too', async () => {
    const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://community.test', fetch: mock.fetch });
    await expect(client.tokens.create({ name: 5 } as never)).rejects.toThrow(
      /^invalid body for POST \/api\/v1\/tokens: name: expected string$/,
    );
  });
});

describe('the control API: every path and query parameter, body and body field of every operation', () => {
  let root: MockApi;
  let http: MockHttpServer;
  let document: Document;
  /** A small server's snapshot, one of its fields broken: what `world` refuses, checked by zod. */
  let broken: WorldSnapshot;
  beforeAll(async () => {
    root = createMockApi();
    http = await startMockHttpServer({ mock: root });
    document = (await (
      await fetch(`${http.url}/__mock/openapi.json`, { headers: { authorization: `Bearer ${http.adminToken}` } })
    ).json()) as Document;
    const small = createMockApi({ counts: { members: 3, logs: 2, calls: 1, departments: 1 } });
    const client = new CommunityServerClient({ token: small.tokens.main, baseUrl: 'https://community.test', fetch: small.fetch });
    const snapshot = await snapshotWorld(client);
    broken = { ...snapshot, members: [{ ...snapshot.members[0]!, createdAt: 'yesterday' as never }, ...snapshot.members.slice(1)] };
  });
  afterAll(() => http.close());

  const sessionCount = (group: string, limit: number): Refusal => ({
    body: { counts: { [group]: limit + 1 } },
    message: `counts.${group} must be at most ${limit}: a session's limit (createMockApi({ counts }) in-process has none)`,
  });
  const MILLISECONDS = 'an integer of milliseconds from 1 to 2147483647';
  /** By operationId, then by field: `''` is the body itself; `path:`/`query:` name parameters. */
  const PINNED: Record<string, Record<string, Refusal | ((broken: WorldSnapshot) => Refusal)>> = {
    requests: {
      'query:endpoint': { query: 'endpoint=', message: 'endpoint must be a client method name such as "members.get", got ""' },
      'query:status': { query: 'status=ok', message: 'status must be an HTTP status such as 200, or 0 for a network fault, got "ok"' },
      'query:token': {
        query: 'token=admin',
        message:
          'token must be a token role (main, noCad, readOnly, expired, revoked, created, unknown), or null for none ("none" in a query), got a value that is none of these (not shown)',
      },
    },
    'store.create': {
      'path:table': { path: 'main..logs', message: 'table must be a dotted path like main.logs or main.cad.calls, got "main..logs"' },
      '': { path: 'main.logs', body: [1], message: 'the request body must be a JSON object, got array' },
      // A row's fields are its table's: checked by the client's schema of it (zod).
      'row:main.logs': {
        path: 'main.logs',
        body: { createdAt: 'yesterday' },
        message: 'main.logs.create: createdAt must be an integer, got string',
      },
      'row:main.members': {
        path: 'main.members',
        body: { createdAt: 'soon' },
        message: 'main.members.create: createdAt must be an integer, got string',
      },
      'row:main.cad.calls': {
        path: 'main.cad.calls',
        body: { title: null },
        message: 'main.cad.calls.create: title must be a string, got null',
      },
      'row:tokens': { path: 'tokens', body: { name: [] }, message: 'tokens.create: name must be a string, got array' },
    },
    'activity.step': {
      '': { body: [1], message: 'the request body must be a JSON object, got array' },
      n: { body: { n: -1 }, message: 'n must be an integer from 0 to 10000, got -1' },
    },
    'activity.start': {
      '': { body: 'null', message: 'the request body must be a JSON object, got null' },
      intervalMs: { body: { intervalMs: 0 }, message: `intervalMs must be ${MILLISECONDS}, got 0` },
    },
    'faults.add': {
      '': { body: [1], message: 'the request body must be a JSON object, got array' },
      endpoint: { body: { endpoint: 5, status: 503 }, message: 'endpoint must be a client method name such as "members.get", got 5' },
      status: { body: { status: 200 }, message: 'status must be an HTTP error status from 400 to 599, got 200' },
      network: { body: { network: false }, message: 'network must be true (or left out), got false' },
      latencyMs: { body: { latencyMs: 0 }, message: `latencyMs must be ${MILLISECONDS}, got 0` },
      times: { body: { status: 503, times: 0 }, message: 'times must be an integer ≥ 1, got 0' },
    },
    'clock.advance': {
      '': { body: [1], message: 'the request body must be a JSON object, got array' },
      ms: { body: { ms: -5 }, message: 'ms must be an integer of milliseconds ≥ 0, got -5' },
    },
    setHealth: {
      '': { body: [1], message: 'the request body must be a JSON object, got array' },
      database: { body: { database: 'down' }, message: 'database must be a boolean, got string' },
      cache: { body: { cache: 0 }, message: 'cache must be a boolean, got number' },
      ready: { body: { ready: null }, message: 'ready must be a boolean, got null' },
    },
    setRateLimit: {
      '': { body: '"off"', message: 'the request body must be a JSON object or null, got string' },
      limit: { body: { limit: 0, windowMs: 1 }, message: 'limit must be an integer ≥ 1, got 0' },
      windowMs: { body: { limit: 1, windowMs: 1.5 }, message: 'windowMs must be an integer ≥ 1, got 1.5' },
    },
    'sessions.create': {
      '': { body: [1], message: 'the request body must be a JSON object, got array' },
      seed: { body: { seed: 'one' }, message: 'seed must be an integer, got string' },
      counts: { body: { counts: 5 }, message: 'counts must be an object, got number' },
      'counts.members': sessionCount('members', 10_000),
      'counts.roles': sessionCount('roles', 1_000),
      'counts.applications': sessionCount('applications', 1_000),
      'counts.applicationResponses': sessionCount('applicationResponses', 10_000),
      'counts.auditLogs': sessionCount('auditLogs', 10_000),
      'counts.logs': sessionCount('logs', 10_000),
      'counts.joinRequests': sessionCount('joinRequests', 10_000),
      'counts.loas': sessionCount('loas', 10_000),
      'counts.shifts': sessionCount('shifts', 10_000),
      'counts.departments': sessionCount('departments', 50),
      'counts.calls': sessionCount('calls', 2_000),
      'counts.records': sessionCount('records', 5_000),
      'counts.units': sessionCount('units', 2_000),
      'counts.unitGroups': sessionCount('unitGroups', 500),
      world: { body: { world: 5 }, message: 'world must be an object, got number' },
      // Inside a snapshot, its schema (zod) finds the problem.
      'world:row': (snapshot) => ({ body: { world: snapshot }, message: 'world.members[0].createdAt: expected number' }),
      ttlMs: { body: { ttlMs: 0 }, message: `ttlMs must be ${MILLISECONDS}, got 0` },
      latency: { body: { latency: 'slow' }, message: 'latency must be milliseconds ≥ 0, or [min, max], got "slow"' },
      rateLimit: { body: { rateLimit: 5 }, message: 'rateLimit must be an object, got number' },
      'rateLimit.limit': { body: { rateLimit: { limit: 0, windowMs: 1 } }, message: 'rateLimit.limit must be an integer ≥ 1, got 0' },
      'rateLimit.windowMs': { body: { rateLimit: { limit: 1 } }, message: 'rateLimit.windowMs is required' },
      authFailureLimit: {
        body: { authFailureLimit: 'often' },
        message: 'authFailureLimit must be an integer ≥ 1, or an object, got "often"',
      },
      authErrorShape: { body: { authErrorShape: 'xml' }, message: 'authErrorShape must be "string" or "object", got "xml"' },
      activity: { body: { activity: 5 }, message: 'activity must be an object, got number' },
      'activity.intervalMs': { body: { activity: { intervalMs: 0 } }, message: `activity.intervalMs must be ${MILLISECONDS}, got 0` },
    },
    'sessions.close': {
      'path:id': { path: 'a.b', message: 'id must be a session id, got "a.b"' },
    },
  };

  /** What the document says each operation reads: its parameters, its body and the body's fields. */
  const documented = () =>
    Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) => [
        ...(operation.parameters ?? []).map(
          (parameter) => `${operation.operationId} ${resolved(document, parameter).in}:${resolved(document, parameter).name}`,
        ),
        ...(operation.requestBody
          ? ['', ...fieldsOf(document, operation.requestBody.content['application/json'].schema)].map(
              (field) => `${operation.operationId} ${field}`,
            )
          : []),
      ]),
    );

  it('every parameter, body and body field the document describes has its text pinned, and no pin is of another', () => {
    const pinned = Object.entries(PINNED).flatMap(([operation, fields]) =>
      Object.keys(fields)
        .filter((field) => !field.includes(':') || /^(path|query):/.test(field))
        .map((field) => `${operation} ${field}`),
    );
    expect(pinned.sort()).toEqual(documented().sort());
  });

  const requests = () =>
    Object.entries(PINNED).flatMap(([operationId, fields]) => Object.entries(fields).map(([field, pin]) => ({ operationId, field, pin })));

  it.each(requests())('$operationId $field: a 400 naming it', async ({ operationId, field, pin }) => {
    const refusal = typeof pin === 'function' ? pin(broken) : pin;
    const [template, method] = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.operationId === operationId)
        .map(([verb]) => [path, verb.toUpperCase()] as const),
    )[0]!;
    const path = template.replace(/\{\w+\}/, refusal.path ?? '');
    const response = await fetch(`${http.url}${path}${refusal.query ? `?${refusal.query}` : ''}`, {
      method,
      headers: { authorization: `Bearer ${http.adminToken}`, 'content-type': 'application/json' },
      ...(refusal.body === undefined ? {} : { body: typeof refusal.body === 'string' ? refusal.body : JSON.stringify(refusal.body) }),
    });
    const { error } = (await response.json()) as { error: { message: string } };
    expect({ status: response.status, message: error.message }).toEqual({ status: 400, message: refusal.message });
    // It names what it is about: the field (or its table), the parameter, or the body itself.
    const subject = field === '' ? 'the request body' : field.replace(/^(path|query|row|world):/, '').replace(/^row$/, 'world');
    expect(error.message, subject).toContain(field.startsWith('world:') ? 'world.' : subject);
  });

  it('an unknown key of each body with fields is named, with the fields it accepts', async () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const fields = Object.keys(operation.requestBody?.content['application/json'].schema.properties ?? {});
        if (!fields.length) continue;
        const response = await fetch(`${http.url}${path}`, {
          method: method.toUpperCase(),
          headers: { authorization: `Bearer ${http.adminToken}` },
          body: JSON.stringify({ zzz: 1 }),
        });
        expect(response.status, operation.operationId).toBe(400);
        expect(((await response.json()) as { error: { message: string } }).error.message, operation.operationId).toContain(
          `unknown key "zzz"; accepted: ${fields.join(', ')}`,
        );
      }
    }
  });
});
