/**
 * Property-based tests (fast-check). Each property runs FUZZ_RUNS times (default 1,000; raise it
 * for long offline runs, e.g. `FUZZ_RUNS=100000 npx vitest run test/core/properties.test.ts`).
 * A failure prints the shrunk counterexample and the seed to replay it.
 */
import { inspect } from 'node:util';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  CommunityServerClient,
  CommunityServerError,
  InternalServerError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
} from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { ErrorResponseSchema, PageSchema } from 'community-server-sdk/schemas';
import * as z from 'zod/mini';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientWith, rawRequest, type Handler } from '../helpers';
import { resources } from '../../src/resources/index';
import { endpointsOf, type Endpoint } from '../../src/core/endpoint';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const settings = { numRuns: RUNS };
const mock = createMockApi({ seed: 31 });
const ORIGIN = 'https://community.test';

/** A client whose fetch is `handler`, plus the requests it sent; no retries or rate-limit waits. */
const clientOn = (handler: Handler, token = mock.tokens.main) =>
  clientWith(handler, { token, baseUrl: ORIGIN, maxRetries: 0, rateLimit: 'off' });

const expectedClass = (status: number) =>
  status === 400
    ? BadRequestError
    : status === 401
      ? AuthenticationError
      : status === 403
        ? PermissionDeniedError
        : status === 404
          ? NotFoundError
          : status === 429
            ? RateLimitError
            : status === 503
              ? ServiceUnavailableError
              : status >= 500
                ? InternalServerError
                : ApiError;

const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,40}$/).map((v) => v.trim());
const anyBody = fc.oneof(
  fc.string(),
  fc.json(),
  fc.constant(''),
  fc
    .record(
      {
        error: fc.oneof(
          fc.string(),
          fc.anything(),
          fc.record({ code: fc.anything(), message: fc.anything(), details: fc.anything() }, { requiredKeys: [] }),
        ),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => new TextDecoder('utf-8').decode(bytes)),
);

describe('(a) the error parser', () => {
  it('turns any non-2xx status, headers and body into the ApiError subclass of its status, and nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 300, max: 599 }), fc.constantFrom(400, 401, 403, 404, 408, 429, 500, 502, 503)),
        fc.dictionary(headerName, headerValue, { maxKeys: 5 }),
        anyBody,
        async (status, headers, body) => {
          // Statuses that carry no body cannot be built with one.
          const { client } = clientOn(() => new Response([204, 205, 304].includes(status) ? null : body, { status, headers }));
          const error = await client.members.get('m1').then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(expectedClass(status));
          const apiError = error as ApiError;
          expect(apiError.status).toBe(status);
          expect(typeof apiError.code).toBe('string');
          expect(typeof apiError.message).toBe('string');
          expect(apiError.message.length).toBeGreaterThan(0);
          // Only a 429 reads Retry-After: absent, or whole seconds ≥ 0.
          expect(apiError instanceof RateLimitError ? apiError.retryAfter : null).toSatisfy(
            (seconds: number | null) => seconds === null || (Number.isSafeInteger(seconds) && seconds >= 0),
          );
        },
      ),
      settings,
    );
  });
});

describe('(a2) Retry-After (issue 10 item 3)', () => {
  const init = {
    status: 429,
    code: 'rate_limited',
    message: 'slow down',
    details: undefined,
    method: 'GET',
    path: '/api/v1/server/members',
  };
  const dayName = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)/;

  it('any header value reads as null (absent) or a whole number of seconds ≥ 0; only delay-seconds and HTTP-dates are read', () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer({ min: -1e6, max: 1e9 }).map(String),
      fc.double().map(String),
      fc.date({ noInvalidDate: true }).map((date) => date.toUTCString()),
      fc.constantFrom('tomorrow', '1e999', '-5', 'Infinity', 'NaN', '2099', ' 7 ', '0x10', 'Mon', 'Sun 2030', 'Mon 5'),
    );
    fc.assert(
      fc.property(value, (retryAfter) => {
        const seconds = new RateLimitError({ ...init, headers: { 'retry-after': retryAfter } }).retryAfter;
        const readable =
          /^\d+(?:\.\d+)?$/.test(retryAfter.trim()) || (dayName.test(retryAfter.trim()) && /\d\d:\d\d:\d\d/.test(retryAfter));
        // Null when unreadable; when readable, null (a date past) or whole seconds ≥ 0.
        expect(seconds).toSatisfy(
          (s: number | null) => (s === null ? true : readable && Number.isSafeInteger(s) && s >= 0),
          `${JSON.stringify(retryAfter)} read as ${seconds}`,
        );
      }),
      settings,
    );
  });
});

describe('(b) path ids', () => {
  const idArbitrary = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.constantFrom(
      '',
      ' ',
      '\t\n',
      '.',
      '..',
      '/',
      '../members',
      '%',
      '%2F',
      '%E0%A4%A',
      'a/b',
      '?page=2',
      '#x',
      'x'.repeat(5000),
      '\u{1F4A9}',
      '\uD800',
    ),
    fc.array(fc.constantFrom('/', '.', '%', '?', '#', ' ', 'a', '\\', '\u0000'), { maxLength: 12 }).map((parts) => parts.join('')),
  );

  it('either refuses the id before sending, or sends exactly one encoded segment that the mock answers 404', async () => {
    await fc.assert(
      fc.asyncProperty(idArbitrary, async (id) => {
        const { client, requests } = clientOn((request) => mock.fetch(request));
        const error = await client.members.get(id).then(
          () => undefined,
          (e: unknown) => e,
        );
        // Refused: nothing sent. Sent: one request, the id in one segment, and the mock's 404.
        const refused = error instanceof InvalidArgumentError;
        const segments = requests.map((request) => new URL(request.url).pathname.split('/'));
        expect(segments).toEqual(
          refused
            ? []
            : [['', 'api', 'v1', 'server', 'members', expect.toSatisfy((segment: string) => decodeURIComponent(segment) === id)]],
        );
        expect(error).toEqual(
          refused ? expect.any(InvalidArgumentError) : expect.objectContaining({ status: 404, code: 'member_not_found' }),
        );
      }),
      settings,
    );
  });

  it('keeps two ids in their own segments (a department and a member)', async () => {
    await fc.assert(
      fc.asyncProperty(idArbitrary, idArbitrary, async (departmentId, memberId) => {
        const { client, requests } = clientOn((request) => mock.fetch(request));
        const error = await client.departments.members.get(departmentId, memberId).then(
          () => undefined,
          (e: unknown) => e,
        );
        const refused = error instanceof InvalidArgumentError;
        const ids = requests
          .map((request) => new URL(request.url).pathname.split('/'))
          .map((segments) => [segments.length, ...[segments[5], segments[7]].map((s) => decodeURIComponent(s!))]);
        expect(ids).toEqual(refused ? [] : [[8, departmentId, memberId]]);
        expect(error).toEqual(
          refused ? expect.any(InvalidArgumentError) : expect.objectContaining({ status: 404, code: 'department_not_found' }),
        );
      }),
      settings,
    );
  });

  it('int32 ids: a non-integer is refused before sending; an integer is answered 200 or 404, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer(), fc.double(), fc.constantFrom(2 ** 31, -(2 ** 31) - 1, Number.NaN, Infinity)),
        async (unitId) => {
          const { client, requests } = clientOn((request) => mock.fetch(request));
          const outcome = await client.cad.units.get(unitId).then(
            () => 'found',
            (e: unknown) => e,
          );
          const int32 = Number.isInteger(unitId) && unitId >= -(2 ** 31) && unitId < 2 ** 31;
          // A non-integer never leaves the client; an integer is the unit or a 404, never a 5xx.
          expect(requests).toHaveLength(int32 ? 1 : 0);
          expect(outcome).toSatisfy(
            (o: unknown) => (int32 ? o === 'found' || o instanceof NotFoundError : o instanceof InvalidArgumentError),
            `${unitId}: ${String(outcome)}`,
          );
        },
      ),
      settings,
    );
  });
});

describe('(c) query values on every list request', () => {
  const lists = endpointsOf(resources)
    .map(({ endpoint }) => endpoint)
    .filter((endpoint) => endpoint.kind === 'page');
  const store = mock.store.main;
  const departmentId = store.departments.all()[0]!.id;
  const ids: Record<string, string> = {
    applicationId: store.applications.all()[0]!.id,
    callId: store.cad!.calls.all()[0]!.id,
    departmentId,
    memberId: store.members.all()[0]!.id,
    staffId: store.logs.all()[0]!.createdBy,
    userId: store.members.all()[1]!.id,
    username: store.logs.all()[0]!.username,
  };
  const pathOf = (endpoint: Endpoint) => endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name]!));
  const value = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.integer().map(String),
    fc.double().map(String),
    fc.constantFrom('0', '1', '10', '100', '101', '-1', 'asc', 'desc', 'DESC', 'createdAt', 'id', '', ' 1', '1 ', '1.0', '1e2', '0x10'),
  );
  const query = fc.dictionary(fc.constantFrom('page', 'pageSize', 'limit', 'orderBy', 'sort', 'other'), value, { maxKeys: 6 });

  it(`covers all ${lists.length} list requests`, () => expect(lists).toHaveLength(29));

  it('answers 200 with a page, or 400 with the spec error body — never anything else', async () => {
    const PageEnvelope = PageSchema(z.unknown());
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), query, fc.boolean(), async (endpoint, params, repeat) => {
        const search = new URLSearchParams(params);
        if (repeat && params.page !== undefined) search.append('page', params.page);
        const response = await rawRequest(mock, `${pathOf(endpoint)}?${search}`);
        const body = await response.json();
        expect([200, 400]).toContain(response.status);
        expect((response.status === 200 ? PageEnvelope : ErrorResponseSchema).safeParse(body).success, JSON.stringify(body)).toBe(true);
      }),
      settings,
    );
  });
});

describe('(d) the token', () => {
  const token = fc.stringMatching(/^[\x21-\x7e]{12,80}$/);
  /** Every way an error or the client can be rendered. */
  const renderings = (value: unknown) => [
    String(value),
    inspect(value, { depth: 10, showHidden: true }),
    JSON.stringify(value) ?? '',
    value instanceof Error ? `${value.stack}\n${inspect(value.cause, { depth: 10 })}` : '',
  ];

  it('appears in no rendering of any error, of the client, or in any URL', async () => {
    await fc.assert(
      fc.asyncProperty(token, fc.constantFrom('body', 'header', 'status', 'throw', 'json-200', 'invalid-200'), async (secret, echo) => {
        // A hostile service echoes the token back every way it can.
        const { client, requests } = clientOn((request) => {
          const seen = request.headers.get('authorization') ?? '';
          if (echo === 'throw') throw new TypeError(`socket hang up while sending ${seen}`);
          if (echo === 'json-200') return new Response(JSON.stringify({ token: seen }), { status: 200 });
          if (echo === 'invalid-200') return new Response(`not json ${seen}`, { status: 200, statusText: seen });
          return new Response(echo === 'body' ? JSON.stringify({ error: { code: seen, message: seen, details: { seen } } }) : seen, {
            status: echo === 'status' ? 500 : 401,
            statusText: echo === 'status' ? seen.replace(/[^\x20-\x7e]/g, '') : 'Unauthorized',
            headers: echo === 'header' ? { 'www-authenticate': seen, 'x-echo': seen } : {},
          });
        }, secret);
        const error = await client.members.get('m1').then(
          () => undefined,
          (e: unknown) => e,
        );
        const missing = await client.members.get('m1', { timeout: 0.5 }).catch((e: unknown) => e); // a bad option, too
        for (const rendered of [...renderings(error), ...renderings(missing), ...renderings(client)]) {
          expect(rendered).not.toContain(secret);
        }
        const urls = requests.map((request) => request.url);
        expect(urls.length).toBeGreaterThan(0);
        expect(urls.filter((url) => url.includes(encodeURIComponent(secret)))).toEqual([]);
        expect(error).toBeInstanceOf(CommunityServerError);
      }),
      settings,
    );
  });

  it('issue 10 item 5: whatever a custom fetch throws, however the token is buried in it, no rendering of the error shows it', async () => {
    const settingsHere = { numRuns: Math.max(50, Math.floor(RUNS / 4)) };
    await fc.assert(
      fc.asyncProperty(
        token.chain((secret) => {
          const leaf = fc.oneof(fc.constant(secret), fc.constant(`Bearer ${secret}`), fc.string(), fc.integer(), fc.constant(null));
          const anything = fc.anything({
            values: [leaf],
            key: fc.oneof(fc.string(), fc.constant(secret)),
            maxDepth: 4,
            withMap: true,
            withSet: true,
            withNullPrototype: true,
            withSparseArray: true,
          });
          return fc.tuple(fc.constant(secret), anything);
        }),
        fc.boolean(),
        async ([secret, buried], wrap) => {
          const thrown = wrap ? new AggregateError([new Error('inner', { cause: buried })], 'outer', { cause: buried }) : buried;
          const { client } = clientOn(() => {
            throw thrown;
          }, secret);
          const error = await client.members.get('m1', { maxRetries: 0 }).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(CommunityServerError);
          const texts = [...renderings(error), inspect(error, { depth: Infinity, showHidden: true, getters: true })];
          for (const text of texts) expect(text).not.toContain(secret);
        },
      ),
      settingsHere,
    );
  });

  it('a token the client refuses is not repeated by the refusal', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 12, maxLength: 60 }).filter((s) => !/^[\x21-\x7e]+$/.test(s) && s.trim().length >= 12),
        (secret) => {
          let error: unknown;
          try {
            new CommunityServerClient({ token: secret, baseUrl: ORIGIN });
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(InvalidArgumentError);
          for (const rendered of renderings(error)) expect(rendered).not.toContain(secret);
        },
      ),
      settings,
    );
  });
});
