/**
 * openapi.json against what the mock really answers: a client generated from the document must
 * never meet a status, media type or body the document omits. Every one of the 64 requests is
 * sent well-formed and malformed (paging parameters out of range, unknown, empty or repeated;
 * ids nothing has, or not integers where the path wants one; no token, unknown or wrong-scheme
 * tokens; bodies with unknown keys, wrong types, or no JSON at all; HEAD beside GET), and each
 * answer must be declared for its request, with a body the declared schema accepts. The values
 * the document declares valid (each list's `orderBy` values, both sorts, the paging bounds) must
 * be served, not refused.
 */
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OpenApiDocument, Parameter } from '../../../../scripts/openapi/document';
import { endpointsOf, type Endpoint } from '../../../../src/core/endpoint';
import { resources } from '../../../../src/resources/index';
import { committedDocument, conformance, pathOf, receive } from '../../../openapi/openapi-conformance';
import { pick, rows, type Ids, type Row } from './contract-rows';

const ORIGIN = 'https://community.test';
const endpoints = new Map(endpointsOf(resources).map(({ name, endpoint }) => [name, endpoint]));
const endpointOf = (row: Row) => endpoints.get(row.name)!;
const pathParts = (endpoint: Endpoint) => endpoint.parts.filter((part) => typeof part !== 'string');

/** Query strings no list accepts: each paging parameter out of range, of the wrong type, empty or repeated. */
const BAD_QUERIES = [
  'page=0',
  'page=-1',
  'page=abc',
  'page=1.5',
  'page=',
  'page=1&page=2',
  'pageSize=0',
  'pageSize=101',
  'pageSize=ten',
  'pageSize=',
  'pageSize=5&pageSize=5',
  'limit=0',
  'limit=101',
  'limit=',
  'limit=1&limit=2',
  'sort=sideways',
  'sort=',
  'sort=asc&sort=desc',
  'orderBy=noSuchField',
  'orderBy=',
  'orderBy=id&orderBy=id',
];
/** Query strings every list serves; other requests ignore a query. */
const GOOD_QUERIES = [
  '',
  'page=1',
  'page=999999',
  'pageSize=1',
  'pageSize=100',
  'limit=100',
  'limit=1&pageSize=3',
  'sort=asc',
  'sort=desc',
  'unknown=1',
];

/** Ids in place of a path parameter: nothing has them, or they are no 32-bit integer. */
const STRING_IDS = ['no-such-id', ' ', 'a/b', '0'];
const INT32_IDS = ['abc', '1.5', '2147483648', '-2147483649', '999999', '-1'];

/** `Authorization` headers that are missing, malformed or unknown, and the seeded tokens that fail or are limited. */
const authorizations = (mock: MockApi): (string | undefined)[] => [
  undefined,
  '',
  'Bearer',
  'Bearer no-such-token',
  `Basic ${mock.tokens.main}`,
  `bearer ${mock.tokens.main}`,
  `Bearer ${mock.tokens.expired}`,
  `Bearer ${mock.tokens.revoked}`,
  `Bearer ${mock.tokens.readOnly}`,
  `Bearer ${mock.tokens.noCad}`,
];

/** #56's bodies: valid, and refused for each way a body can be wrong. Raw text, so non-JSON can be sent. */
const BODIES = [
  '{"name":"fidelity"}',
  '{"name":"fidelity","expiresInDays":null}',
  '{"name":"fidelity","expiresInDays":30}',
  '{}',
  '{"name":7}',
  '{"name":""}',
  '{"name":"x","extra":1}',
  '{"name":"x","expiresInDays":"3"}',
  '{"name":"x","expiresInDays":1.5}',
  '{"name":"x","expiresInDays":0}',
  '{"name":"x","expiresInDays":1e300}',
  '[]',
  'null',
  '"name"',
  'not json',
  '',
];

interface Sent {
  method: string;
  path: string;
  query?: string;
  authorization?: string | undefined;
  body?: string;
}

/** One answer, as `status` and what the document says is wrong with it. */
interface Answer {
  label: string;
  status: number;
  problems: string[];
}

type Check = ReturnType<typeof conformance>;

/** Sends `sent` to the mock and checks the answer against `check` for `endpoint`; HEAD is checked as its GET, and must have no body. */
async function ask(mock: MockApi, check: Check, endpoint: Endpoint, sent: Sent): Promise<Answer> {
  const headers: Record<string, string> = sent.authorization === undefined ? {} : { authorization: sent.authorization };
  if (sent.body !== undefined) headers['content-type'] = 'application/json';
  const url = `${ORIGIN}${sent.path}${sent.query ? `?${sent.query}` : ''}`;
  const response = await mock.fetch(url, { method: sent.method, headers, ...(sent.body === undefined ? {} : { body: sent.body }) });
  const label = `${sent.method} ${url}${sent.body === undefined ? '' : ` ${sent.body}`}`;
  if (sent.method === 'HEAD') {
    const text = await response.text();
    const undeclared = check.declaredResponse(endpoint, response.status)
      ? []
      : [`${endpoint.method} ${endpoint.path} ${response.status}: status not declared`];
    return { label, status: response.status, problems: [...undeclared, ...(text === '' ? [] : [`HEAD answered a body: ${text}`])] };
  }
  return { label, status: response.status, problems: check.nonConformities(endpoint, await receive(response)) };
}

/** The `orderBy` values the document declares for a list. */
function declaredOrders(doc: OpenApiDocument, endpoint: Endpoint): string[] {
  const parameters = doc.paths[endpoint.path]![endpoint.method.toLowerCase()]!.parameters ?? [];
  const orderBy = parameters.find((p): p is Parameter => !('$ref' in p) && p.name === 'orderBy');
  return (orderBy?.schema.enum ?? []) as string[];
}

/** Every request the sweep sends for `row`: the well-formed one, and each malformed variant of one part of it. */
function requestsOf(mock: MockApi, row: Row, ids: Ids): Sent[] {
  const endpoint = endpointOf(row);
  const args = row.args(ids);
  const parts = pathParts(endpoint);
  const validPath = pathOf(endpoint, args);
  const main = `Bearer ${mock.tokens.main}`;
  const base: Sent = { method: endpoint.method, path: validPath, authorization: main, ...(endpoint.body ? { body: BODIES[0]! } : {}) };
  const sent: Sent[] = [base];
  for (const query of [...GOOD_QUERIES, ...BAD_QUERIES]) sent.push({ ...base, query });
  for (const authorization of authorizations(mock)) sent.push({ ...base, authorization });
  parts.forEach((part, index) => {
    for (const id of part.kind === 'int32' ? INT32_IDS : STRING_IDS) {
      const changed = [...args];
      changed[index] = id;
      sent.push({ ...base, path: pathOf(endpoint, changed) });
    }
  });
  if (endpoint.body) for (const body of BODIES) sent.push({ ...base, body });
  if (endpoint.method === 'GET') {
    for (const variant of [base, { ...base, query: 'page=0' }, { ...base, authorization: undefined }]) {
      sent.push({ ...variant, method: 'HEAD' });
    }
  }
  return sent;
}

/** Sends every request of `row`, in order; after a POST or DELETE the mock is reset, so a deactivated token does not change the next answer. */
async function sweep(mock: MockApi, check: Check, row: Row): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const sent of requestsOf(mock, row, pick(mock.store))) {
    answers.push(await ask(mock, check, endpointOf(row), sent));
    if (sent.method === 'POST' || sent.method === 'DELETE') mock.reset();
  }
  return answers;
}

const problemsOf = (answers: readonly Answer[]) =>
  answers.flatMap((answer) => answer.problems.map((problem) => `${answer.label} → ${problem}`));

describe('openapi.json declares every answer of the mock', () => {
  let mock: MockApi;
  const check = conformance(committedDocument);
  beforeEach(() => {
    mock = createMockApi({ seed: 11 });
  });

  it.each(rows)('#$n $name: every answer, well-formed or not, is declared and matches its schema', async (row) => {
    const endpoint = endpointOf(row);
    const answers = await sweep(mock, check, row);
    expect(problemsOf(answers)).toEqual([]);
    // The sweep did reach the statuses it is about: not a run of 200s that checks nothing.
    const statuses = new Set(answers.map((answer) => answer.status));
    expect(statuses).toContain(endpoint.method === 'POST' ? 201 : 200);
    if (endpoint.auth) expect(statuses).toContain(401);
    const refusesInput =
      endpoint.kind === 'page' || endpoint.body !== undefined || pathParts(endpoint).some((part) => part.kind === 'int32');
    expect(statuses.has(400), 'a 400 is answered exactly where the request has input the mock checks').toBe(refusesInput);
  });

  it.each(rows.filter((row) => endpointOf(row).kind === 'page'))(
    '#$n $name: every orderBy the document declares, both sorts, and the paging bounds are served',
    async (row) => {
      const endpoint = endpointOf(row);
      const path = pathOf(endpoint, row.args(pick(mock.store)));
      const orders = declaredOrders(committedDocument, endpoint);
      expect(orders.length).toBeGreaterThan(0);
      const queries = [
        ...orders.flatMap((orderBy) => [`orderBy=${orderBy}&sort=asc`, `orderBy=${orderBy}&sort=desc`]),
        'page=1&pageSize=1',
        'pageSize=100',
        'limit=1',
        'limit=100',
      ];
      const statuses = await Promise.all(
        queries.map(async (query) => [
          query,
          (await ask(mock, check, endpoint, { method: 'GET', path, query, authorization: `Bearer ${mock.tokens.main}` })).status,
        ]),
      );
      expect(statuses).toEqual(queries.map((query) => [query, 200]));
    },
  );
});

describe('openapi.json declares the answers of a mock with a rate limit and suspensions', () => {
  const limited = createMockApi({
    seed: 11,
    rateLimit: { limit: 2, windowMs: 60_000 },
    authFailureLimit: { failures: 1, durationMs: 60_000 },
    authErrorShape: 'object',
  });
  const check = conformance(committedDocument);
  beforeEach(() => limited.reset());

  it.each(rows)('#$n $name: past the limit a 429 (none on a probe, which takes no token), a suspended token a 401', async (row) => {
    const endpoint = endpointOf(row);
    const base: Sent = {
      method: endpoint.method,
      path: pathOf(endpoint, row.args(pick(limited.store))),
      ...(endpoint.body ? { body: BODIES[0]! } : {}),
    };
    const answers: Answer[] = [];
    for (let n = 0; n < 3; n++) {
      answers.push(await ask(limited, check, endpoint, { ...base, authorization: `Bearer ${limited.tokens.main}` }));
    }
    for (let n = 0; n < 2; n++) answers.push(await ask(limited, check, endpoint, { ...base, authorization: 'Bearer no-such-token' }));
    expect(problemsOf(answers)).toEqual([]);
    const success = endpoint.method === 'POST' ? 201 : 200;
    expect(answers.map((answer) => answer.status)).toEqual(endpoint.auth ? [success, success, 429, 401, 401] : [200, 200, 200, 200, 200]);
  });
});

describe('the fidelity sweep', () => {
  it('catches a status the document omits, and a body its schema refuses', async () => {
    const mock = createMockApi({ seed: 11 });
    const doc = structuredClone(committedDocument);
    const membersList = doc.paths['/api/v1/server/members']!['get']!;
    delete membersList.responses['400'];
    // A 404 body that must carry a field the mock never sends.
    doc.paths['/api/v1/server/members/{memberId}']!['get']!.responses['404'] = {
      description: 'changed',
      content: { 'application/json': { schema: { type: 'object', properties: { missingField: {} }, required: ['missingField'] } } },
    };
    const check = conformance(doc);
    const listProblems = problemsOf(
      await sweep(
        mock,
        check,
        rows.find((row) => row.name === 'members.list')!,
      ),
    );
    expect(listProblems).toContain(`GET ${ORIGIN}/api/v1/server/members?page=0 → GET /api/v1/server/members 400: status not declared`);
    expect(listProblems).toContain(`HEAD ${ORIGIN}/api/v1/server/members?page=0 → GET /api/v1/server/members 400: status not declared`);
    const getProblems = problemsOf(
      await sweep(
        mock,
        check,
        rows.find((row) => row.name === 'members.get')!,
      ),
    );
    expect(getProblems).toContain(
      `GET ${ORIGIN}/api/v1/server/members/no-such-id → GET /api/v1/server/members/{memberId} 404: body must have required property 'missingField' (#/required)`,
    );
  });
});
