/**
 * What the calls of the control API take, as schemas (`schema.ts`): the one statement of each
 * argument that `mock.setHealth`, `mock.faults.add`, `mock.setRateLimit`, `mock.clock.advance`,
 * `mock.activity.step`/`start` and the mock's options check in-process, the operations table
 * (`operations.ts`) puts in its lines for the HTTP plane and the OpenAPI document, and
 * `connectMock` checks before it sends anything. The TypeScript types of those arguments are read
 * off the schemas ({@link Infer}), their fields documented here, where they are stated.
 * @module
 */
import { MAX_TIMER_MS } from '../../src/core/sleep';
import type { WorldCounts } from './counts';
import type { MockRequestToken } from './journal';
import {
  ANY_OBJECT,
  arrayOf,
  BOOLEAN,
  constant,
  either,
  integer,
  nullable,
  object,
  oneOf,
  problemsOf,
  refuseProblems,
  type Infer,
  type Schema,
} from './schema';

/** The most events one `activity.step(n)` makes: beyond it, a typo (1e9) would hang the process. */
export const MAX_STEP = 10_000;

/** The roles a journal row names its token by (`null`: none was presented). */
export const TOKEN_ROLES = [
  'main',
  'noCad',
  'readOnly',
  'expired',
  'revoked',
  'created',
  'unknown',
  null,
] as const satisfies readonly MockRequestToken[];

/** A client method name (`members.get`); which ones exist, the mock checks where it matters (a fault). */
const ENDPOINT: Schema<string> = { type: 'string', minLength: 1, description: 'a client method name such as "members.get"' };
const milliseconds = (minimum: number) => integer(minimum, MAX_TIMER_MS, `an integer of milliseconds from ${minimum} to ${MAX_TIMER_MS}`);

/** `requests(filter)`: narrows the journal (`GET /__mock/requests?…`). */
export const REQUESTS_FILTER = object({
  /** The client method name, e.g. `members.get`. */
  endpoint: ENDPOINT,
  // 0: a network fault, as the journal records it (no answer reached the client).
  /** The status the mock answered with; `0` for a network fault (no answer). */
  status: either([constant(0), integer(100, 599)], 'an HTTP status such as 200, or 0 for a network fault'),
  /** The token's role (`main`, `readOnly`, …, `created`, `unknown`), or `null` for none. */
  token: oneOf(TOKEN_ROLES, {
    // What lands here by mistake is a token's secret (an API token's, the admin token).
    'x-not-shown': true,
    description: 'a token role (main, noCad, readOnly, expired, revoked, created, unknown), or null for none ("none" in a query)',
  }),
});

/**
 * Narrows `remote.requests(filter)`: rows of that endpoint, status and token role (`null`: the
 * requests that carried no token).
 * @example
 * const failures = await remote.requests({ endpoint: 'members.get', status: 404 });
 */
export interface RemoteRequestsFilter extends Infer<typeof REQUESTS_FILTER> {}

/** `activity.step(n)`. */
export const STEP_COUNT = integer(0, MAX_STEP);
/** `activity.start(options)`, and the mock's `activity` option. */
export const ACTIVITY_OPTIONS = object(
  {
    /** Milliseconds between two events: an integer from 1 to 2147483647 (setTimeout's limit). */
    intervalMs: milliseconds(1),
  },
  ['intervalMs'],
);

/**
 * How `mock.activity.start()` (and `createMockApi({ activity })`) paces events.
 * @example
 * mock.activity.start({ intervalMs: 250 }); // four events a second
 */
export interface ActivityOptions extends Infer<typeof ACTIVITY_OPTIONS> {}

/** `clock.advance(ms)`; how far the clock may go, the clock says. */
export const ADVANCE_MS = integer(0, undefined, 'an integer of milliseconds ≥ 0');
/** `setRateLimit(rateLimit)`, and the mock's `rateLimit` option. */
export const RATE_LIMIT = object(
  {
    /** Requests a token may make per window. */
    limit: integer(1),
    /** Length of a window, in milliseconds. */
    windowMs: integer(1),
  },
  ['limit', 'windowMs'],
);

/**
 * A window of `limit` requests per `windowMs`, counted per token; it opens with the token's
 * first request; the health probes, which take no token, are not counted. Every other answer
 * carries `X-RateLimit-Limit`, `-Remaining`, `-Reset` (Unix seconds) and `-Reset-After` (seconds
 * from now, to the millisecond), and a request past the limit gets 429 with `Retry-After`.
 * @example
 * const mock = createMockApi({ rateLimit: { limit: 100, windowMs: 60_000 } });
 */
export interface RateLimitOptions extends Infer<typeof RATE_LIMIT> {}

/** `setRateLimit(rateLimit)`: a rate limit, or `null` for none. */
export const RATE_LIMIT_OR_NONE = nullable(RATE_LIMIT);
/** `setHealth(health)`: the switches. */
export const HEALTH = object({
  /** The database: when `false`, `/health` and `/readyz` answer 503 and `/metrics` reports no pool. */
  database: BOOLEAN,
  /** The cache: when `false`, `/health` and `/readyz` answer 503. */
  cache: BOOLEAN,
  /** Readiness of the service itself: when `false`, `/readyz` answers 503 (`/health` stays 200). */
  ready: BOOLEAN,
});

/**
 * The switches `setHealth` flips; all `true` after `createMockApi()` and `reset()`.
 * @example
 * mock.setHealth({ cache: false }); // GET /health: 503 "cache unavailable"; /readyz: 503
 */
export interface HealthState extends Required<Infer<typeof HEALTH>> {}

/** `faults.add(rule)`: its fields. */
const FAULT_FIELDS = object({
  /** The client method name of the requests it hits, e.g. `members.get`; absent: every one of the API's 64 requests. */
  endpoint: ENDPOINT,
  /**
   * An HTTP error status, 400 to 599, answered with the spec's error body and a stable `code` for
   * the status (`service_unavailable` for 503…); a 429 carries `Retry-After: 1` and the
   * rate-limit headers. 401 and 403 take the mock's `authErrorShape`, as every 401 and 403 does.
   */
  status: integer(400, 599, 'an HTTP error status from 400 to 599'),
  /**
   * `true`: the connection fails and no answer comes. `mock.fetch` (and a fetch under msw)
   * rejects with a `TypeError('fetch failed')` as undici does; the HTTP server drops the socket.
   * The journal keeps the request with status 0.
   */
  network: constant(true, 'true (or left out)'),
  /** Milliseconds (an integer ≥ 1) the answer is held back, on top of the `latency` option; then the request is answered normally, or with `status`/`network`. */
  latencyMs: milliseconds(1),
  /** How many matching requests it hits (an integer ≥ 1); absent: every one until `faults.clear()`. */
  times: integer(1),
});

/** `faults.add(rule)`: its fields, and the rules that relate them; which endpoints exist, the fault table checks. */
export const FAULT_RULE: typeof FAULT_FIELDS = {
  ...FAULT_FIELDS,
  allOf: [
    { not: { required: ['status', 'network'] }, description: 'status and network: a failed connection has no status; give one of them' },
    {
      anyOf: [{ required: ['status'] }, { required: ['network'] }, { required: ['latencyMs'] }],
      description: 'a fault rule needs status, network or latencyMs: it would change nothing',
    },
  ],
};

/**
 * What a fault does, and to which requests: `mock.faults.add(rule)`. Give `status` or
 * `network`, or `latencyMs` alone, or `latencyMs` with one of them.
 * @example
 * mock.faults.add({ endpoint: 'members.get', status: 503, times: 2 }); // the next two members.get: 503
 * mock.faults.add({ network: true, times: 1 });                        // the next request of any endpoint: no answer
 * mock.faults.add({ endpoint: 'logs.list', latencyMs: 2_000 });        // every logs.list, 2 s late, until cleared
 */
export interface FaultRule extends Infer<typeof FAULT_RULE> {}

/** `authFailureLimit` as an object: the mock's option, and a session's. */
const AUTH_FAILURE_LIMIT = object(
  {
    /** Failed authentications that trigger a suspension. */
    failures: integer(1),
    /** How long a suspension lasts, in milliseconds. */
    durationMs: integer(1),
  },
  ['failures', 'durationMs'],
);

/**
 * Suspend a token after `failures` failed authentications, for `durationMs`: its requests then
 * get 401 `token_suspended` with `Retry-After`, even with a valid token (spec Part 5, item 8).
 * @example
 * const mock = createMockApi({ authFailureLimit: { failures: 5, durationMs: 30_000 } });
 */
export interface AuthFailureLimitOptions extends Infer<typeof AUTH_FAILURE_LIMIT> {}

/**
 * The most rows of each group a session's world may ask for (`counts`): what a suite's tests page
 * through many times over, sized by what the world costs to build and hold. Measured per 10,000
 * rows: ~1 s to build (in slices: other requests are answered meanwhile) and 7 to 22 MB for
 * most groups; applications ~75 MB and CAD calls (with their notes) ~45 MB; a department ~130 KB
 * and 8 ms. The largest session all of them allow holds 107,326 rows, ~108 MB, built in ~10 s.
 * `createMockApi({ counts })` in-process has no limit: the process is the caller's own.
 */
export const SESSION_COUNT_LIMITS: { readonly [Group in keyof WorldCounts]: number } = {
  members: 10_000,
  roles: 1_000,
  applications: 1_000,
  applicationResponses: 10_000,
  auditLogs: 10_000,
  logs: 10_000,
  joinRequests: 10_000,
  loas: 10_000,
  shifts: 10_000,
  departments: 50,
  calls: 2_000,
  records: 5_000,
  units: 2_000,
  unitGroups: 500,
};

/** `sessions.create(options)`: a session's own options; the mock checks them further as `createMockApi` does its own. */
export const SESSION_OPTIONS = object({
  seed: integer(),
  // Below 0 as createMockApi says it; past the limit, a rule that names it.
  counts: object(
    Object.fromEntries(
      Object.entries(SESSION_COUNT_LIMITS).map(([group, limit]) => [
        group,
        {
          ...integer(0),
          allOf: [
            {
              maximum: limit,
              description: `counts.${group} must be at most ${limit}: a session's limit (createMockApi({ counts }) in-process has none)`,
            },
          ],
        },
      ]),
    ),
  ),
  // Any object here; the engine checks it is a snapshot, row by row (`parseSnapshot`).
  world: ANY_OBJECT,
  ttlMs: milliseconds(1),
  latency: either<number | readonly number[]>([integer(0), arrayOf(integer(0))], 'milliseconds ≥ 0, or [min, max]'),
  rateLimit: RATE_LIMIT,
  authFailureLimit: either<number | AuthFailureLimitOptions>([integer(1), AUTH_FAILURE_LIMIT]),
  authErrorShape: oneOf(['string', 'object']),
  activity: ACTIVITY_OPTIONS,
});

/**
 * Throws `InvalidArgumentError` unless `value` meets `schema`: `name` names the value (its fields
 * are named below it: `rule.status`), `call` the call it was given to (`faults.add(rule)`), when
 * the message should say.
 */
export function checkArgument(schema: Schema, value: unknown, name: string, call?: string): void {
  refuseProblems(problemsOf(schema, value, name), call);
}
