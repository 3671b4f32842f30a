/**
 * The control API (`/__mock/*`) as a table: one declarative line per route (method, path, what
 * its body and query must be, what it answers) and the call of the in-process mock it stands
 * for. The HTTP plumbing (`plane.ts`), the OpenAPI document (`openapi.ts`) and `connectMock`'s
 * types all read this table, so a route is described once.
 * @module
 */
import * as z from 'zod/mini';
import type { HealthState } from '../context';
import type { FaultRule, MockApi } from '../index';
import { MockHttpError } from '../replies';
import { internalsOf } from './internals';
import { TABLE_PATH_EXAMPLES, tableAt } from './tables';

/** The most events one `activity/step` makes (the in-process `step(n)` refuses more). */
const MAX_STEP = 10_000;
/** The longest timer JavaScript can set. */
const MAX_INTERVAL_MS = 2 ** 31 - 1;

const TOKEN_ROLES = ['main', 'noCad', 'readOnly', 'expired', 'revoked', 'created', 'unknown', 'none'] as const;

/** What a run receives: the checked body and query, and the path's parameters. */
export interface ControlInput<Body, Query> {
  readonly body: Body;
  readonly query: Query;
  readonly params: Readonly<Record<string, string>>;
}

/** One route of the control API. */
export interface ControlOperation {
  /** The OpenAPI `operationId`, e.g. `reset`. */
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** From the origin, with `{name}` parameters: `/__mock/store/{table}`. */
  readonly path: string;
  readonly summary: string;
  /** The status of success; 204 answers no body. */
  readonly status: 200 | 201 | 204;
  /** What the JSON body must be; absent: the route reads no body. An empty body reads as `{}`. */
  readonly body?: z.ZodMiniType;
  /** What the query must be, as an object of strings; absent: the route takes none. */
  readonly query?: z.ZodMiniType;
  /** What a 200/201 answers. */
  readonly answer?: z.ZodMiniType;
  /** Does what the route stands for; returns the answer's body (ignored for 204). */
  run(mock: MockApi, input: ControlInput<unknown, unknown>): unknown;
}

type Out<Schema> = Schema extends z.ZodMiniType ? z.output<Schema> : undefined;

/** One line of the table, its `run` typed by its own schemas. */
function operation<Body extends z.ZodMiniType | undefined = undefined, Query extends z.ZodMiniType | undefined = undefined>(
  definition: Omit<ControlOperation, 'run' | 'body' | 'query'> & {
    body?: Body;
    query?: Query;
    run(mock: MockApi, input: ControlInput<Out<Body>, Out<Query>>): unknown;
  },
): ControlOperation {
  return definition as ControlOperation;
}

const count = (min: number, max: number) => z.int().check(z.minimum(min), z.maximum(max));
/** A client method name (`members.get`); which ones exist, the mock checks where it matters (a fault). */
const endpointName = z.string().check(z.minLength(1, 'endpoint must be a method name such as members.get'));

/** A journal row (`mock.requests`), as the control API answers it. */
export const JournalRowSchema = z.object({
  method: z.string(),
  path: z.string(),
  query: z.record(z.string(), z.string()),
  endpoint: z.nullable(z.string()),
  token: z.nullable(z.enum(TOKEN_ROLES.filter((role) => role !== 'none') as [string, ...string[]])),
  body: z.unknown(),
  status: z.int(),
  at: z.number(),
});

/** `GET /__mock/requests` filters; each narrows the rows (`token=none`: requests without a token). */
export const RequestsQuerySchema = z.strictObject({
  endpoint: z.optional(endpointName),
  // 0: a network fault, as the journal records it (no answer reached the client).
  status: z.optional(z.string().check(z.regex(/^(0|[1-5]\d\d)$/, 'status must be an HTTP status such as 200, or 0 for a network fault'))),
  token: z.optional(z.enum(TOKEN_ROLES)),
});

export const StepBodySchema = z.strictObject({ n: z.optional(count(0, MAX_STEP)) });
export const StartBodySchema = z.strictObject({ intervalMs: count(1, MAX_INTERVAL_MS) });
export const HealthBodySchema = z.strictObject({
  database: z.optional(z.boolean()),
  cache: z.optional(z.boolean()),
  ready: z.optional(z.boolean()),
});
/** A fault rule (`mock.faults.add`); which endpoints exist and which fields go together, the mock checks. */
export const FaultBodySchema = z.strictObject({
  endpoint: z.optional(endpointName),
  status: z.optional(count(400, 599)),
  network: z.optional(z.literal(true)),
  latencyMs: z.optional(count(1, MAX_INTERVAL_MS)),
  times: z.optional(count(1, Number.MAX_SAFE_INTEGER)),
});
export const AdvanceBodySchema = z.strictObject({ ms: count(0, Number.MAX_SAFE_INTEGER) });
/** A rate limit, or `null`: none. */
export const RateLimitBodySchema = z.nullable(
  z.strictObject({ limit: count(1, Number.MAX_SAFE_INTEGER), windowMs: count(1, Number.MAX_SAFE_INTEGER) }),
);
/** A partial row: any fields of the table's rows; the table's schema checks them. */
export const PartialRowSchema = z.record(z.string(), z.unknown());

const ActivityAnswerSchema = z.object({ data: z.array(z.looseObject({ kind: z.string(), row: z.record(z.string(), z.unknown()) })) });

/** Every route of the control API. */
export const operations: readonly ControlOperation[] = [
  operation({
    id: 'reset',
    method: 'POST',
    path: '/__mock/reset',
    summary:
      'Back to the seeded state, as mock.reset(): data, tokens, counters, health, journal, faults, clock advance, rate limit; activity stopped.',
    status: 204,
    run: (mock) => mock.reset(),
  }),
  operation({
    id: 'listRequests',
    method: 'GET',
    path: '/__mock/requests',
    summary: 'The journal (mock.requests), oldest first, narrowed by endpoint, status and token role.',
    status: 200,
    query: RequestsQuerySchema,
    answer: z.object({ data: z.array(JournalRowSchema) }),
    run: (mock, { query }) => ({
      data: mock.requests.filter(
        (row) =>
          (query.endpoint === undefined || row.endpoint === query.endpoint) &&
          (query.status === undefined || row.status === Number(query.status)) &&
          (query.token === undefined || row.token === (query.token === 'none' ? null : query.token)),
      ),
    }),
  }),
  operation({
    id: 'clearRequests',
    method: 'DELETE',
    path: '/__mock/requests',
    summary: 'Empties the journal and nothing else.',
    status: 204,
    run: (mock) => internalsOf(mock).clearRequests(),
  }),
  operation({
    id: 'createRow',
    method: 'POST',
    path: '/__mock/store/{table}',
    summary:
      'Creates a row in the table at a dotted path (main.logs, main.cad.calls…): the fields given, the rest seeded (table.create). A row the table refuses is a 400 with its InvalidRowError message.',
    status: 201,
    body: PartialRowSchema,
    answer: z.record(z.string(), z.unknown()),
    run: (mock, { body, params }) => {
      const table = tableAt(mock.store, params.table!);
      if (!table) {
        throw new MockHttpError(
          404,
          'table_not_found',
          `no table "${params.table}" in the store; tables look like ${TABLE_PATH_EXAMPLES}`,
          {
            table: params.table,
          },
        );
      }
      return table.create(body);
    },
  }),
  operation({
    id: 'stepActivity',
    method: 'POST',
    path: '/__mock/activity/step',
    summary: 'n seeded new events now (default 1), as mock.activity.step(n).',
    status: 200,
    body: StepBodySchema,
    answer: ActivityAnswerSchema,
    run: (mock, { body }) => ({ data: mock.activity.step(body.n ?? 1) }),
  }),
  operation({
    id: 'startActivity',
    method: 'POST',
    path: '/__mock/activity/start',
    summary: 'One seeded event every intervalMs, as mock.activity.start({ intervalMs }).',
    status: 204,
    body: StartBodySchema,
    run: (mock, { body }) => mock.activity.start(body),
  }),
  operation({
    id: 'stopActivity',
    method: 'POST',
    path: '/__mock/activity/stop',
    summary: 'Stops the timed activity, as mock.activity.stop().',
    status: 204,
    run: (mock) => mock.activity.stop(),
  }),
  operation({
    id: 'getActivity',
    method: 'GET',
    path: '/__mock/activity',
    summary:
      'Whether the timed activity runs, and why it stopped when an event could not be made (mock.activity.running, mock.activity.failure; null when none).',
    status: 200,
    answer: z.object({
      running: z.boolean(),
      failure: z.nullable(z.object({ name: z.string(), message: z.string(), at: z.number() })),
    }),
    run: (mock) => ({ running: mock.activity.running, failure: mock.activity.failure }),
  }),
  operation({
    id: 'setHealth',
    method: 'PUT',
    path: '/__mock/health',
    summary: 'Turns dependencies off and on, as mock.setHealth(h): false makes /health and /readyz answer 503.',
    status: 204,
    body: HealthBodySchema,
    // Parsed JSON holds no `undefined`: an absent switch is absent, as setHealth wants it.
    run: (mock, { body }) => mock.setHealth(body as Partial<HealthState>),
  }),
  operation({
    id: 'addFault',
    method: 'POST',
    path: '/__mock/faults',
    summary:
      'Adds a fault rule, as mock.faults.add(rule): the next `times` requests of `endpoint` (absent: every API request) answer `status`, fail the connection (`network: true`) or come `latencyMs` late.',
    status: 201,
    body: FaultBodySchema,
    answer: z.object({ id: z.string() }),
    run: (mock, { body }) => ({ id: mock.faults.add(body as FaultRule) }),
  }),
  operation({
    id: 'clearFaults',
    method: 'DELETE',
    path: '/__mock/faults',
    summary: 'Removes every fault rule, as mock.faults.clear().',
    status: 204,
    run: (mock) => mock.faults.clear(),
  }),
  operation({
    id: 'advanceClock',
    method: 'POST',
    path: '/__mock/clock/advance',
    summary: "Moves the mock's clock forward by ms (token expiry, rate-limit windows, suspensions, timestamps), as mock.clock.advance(ms).",
    status: 200,
    body: AdvanceBodySchema,
    answer: z.object({ now: z.number() }),
    run: (mock, { body }) => ({ now: mock.clock.advance(body.ms) }),
  }),
  operation({
    id: 'setRateLimit',
    method: 'PUT',
    path: '/__mock/rate-limit',
    summary: 'Changes the per-token rate limit, as mock.setRateLimit(r): { limit, windowMs }, or null for none.',
    status: 204,
    body: RateLimitBodySchema,
    run: (mock, { body }) => mock.setRateLimit(body),
  }),
];
