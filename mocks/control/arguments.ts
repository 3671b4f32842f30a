/**
 * What the calls of the control API take, as schemas (`schema.ts`): the one statement of each
 * argument that `mock.setHealth`, `mock.faults.add`, `mock.setRateLimit`, `mock.clock.advance`,
 * `mock.activity.step`/`start` and the mock's options check in-process, the operations table
 * (`operations.ts`) puts in its lines for the HTTP plane and the OpenAPI document, and
 * `connectMock` checks before it sends anything. A leaf module: the in-process modules import it,
 * and the table, which imports their types, is imported by none of them.
 * @module
 */
import { InvalidArgumentError } from '../../src/core/errors';
import type { WorldCounts } from '../world/index';
import { ANY_OBJECT, arrayOf, BOOLEAN, integer, nullable, object, problemsOf, type Schema } from './schema';

/** The most events one `activity.step(n)` makes: beyond it, a typo (1e9) would hang the process. */
export const MAX_STEP = 10_000;
/** The longest timer JavaScript can set: past it, Node and browsers fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The roles a journal row names its token by (`null`: none was presented). */
export const TOKEN_ROLES = ['main', 'noCad', 'readOnly', 'expired', 'revoked', 'created', 'unknown', null] as const;

/** A client method name (`members.get`); which ones exist, the mock checks where it matters (a fault). */
const ENDPOINT: Schema = { type: 'string', minLength: 1, description: 'a client method name such as "members.get"' };
const milliseconds = (minimum: number) => integer(minimum, MAX_TIMER_MS, `an integer of milliseconds from ${minimum} to ${MAX_TIMER_MS}`);

/** `requests(filter)`: narrows the journal (`GET /__mock/requests?…`). */
export const REQUESTS_FILTER = object({
  endpoint: ENDPOINT,
  // 0: a network fault, as the journal records it (no answer reached the client).
  status: { anyOf: [{ const: 0 }, integer(100, 599)], description: 'an HTTP status such as 200, or 0 for a network fault' },
  token: {
    enum: TOKEN_ROLES,
    // What lands here by mistake is a token's secret (an API token's, the admin token).
    'x-not-shown': true,
    description: 'a token role (main, noCad, readOnly, expired, revoked, created, unknown), or null for none ("none" in a query)',
  },
});
/** `activity.step(n)`. */
export const STEP_COUNT = integer(0, MAX_STEP);
/** `activity.start(options)`, and the mock's `activity` option. */
export const ACTIVITY_OPTIONS = object({ intervalMs: milliseconds(1) }, ['intervalMs']);
/** `clock.advance(ms)`; how far the clock may go, the clock says. */
export const ADVANCE_MS = integer(0, undefined, 'an integer of milliseconds ≥ 0');
/** `setRateLimit(rateLimit)`, and the mock's `rateLimit` option. */
export const RATE_LIMIT = object({ limit: integer(1), windowMs: integer(1) }, ['limit', 'windowMs']);
/** `setRateLimit(rateLimit)`: a rate limit, or `null` for none. */
export const RATE_LIMIT_OR_NONE = nullable(RATE_LIMIT);
/** `setHealth(health)`: the switches. */
export const HEALTH = object({ database: BOOLEAN, cache: BOOLEAN, ready: BOOLEAN });
/** `faults.add(rule)`: its fields, and the rules that relate them; which endpoints exist, the fault table checks. */
export const FAULT_RULE: Schema = {
  ...object({
    endpoint: ENDPOINT,
    status: integer(400, 599, 'an HTTP error status from 400 to 599'),
    network: { const: true, description: 'true (or left out)' },
    latencyMs: milliseconds(1),
    times: integer(1),
  }),
  allOf: [
    { not: { required: ['status', 'network'] }, description: 'status and network: a failed connection has no status; give one of them' },
    {
      anyOf: [{ required: ['status'] }, { required: ['network'] }, { required: ['latencyMs'] }],
      description: 'a fault rule needs status, network or latencyMs: it would change nothing',
    },
  ],
};
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
  world: ANY_OBJECT,
  ttlMs: milliseconds(1),
  latency: { anyOf: [integer(0), arrayOf(integer(0))], description: 'milliseconds ≥ 0, or [min, max]' },
  rateLimit: RATE_LIMIT,
  authFailureLimit: { anyOf: [integer(1), object({ failures: integer(1), durationMs: integer(1) }, ['failures', 'durationMs'])] },
  authErrorShape: { enum: ['string', 'object'] },
  activity: ACTIVITY_OPTIONS,
});

/**
 * Throws `InvalidArgumentError` unless `value` meets `schema`: `name` names the value (its fields
 * are named below it: `rule.status`), `call` the call it was given to (`faults.add(rule)`), when
 * the message should say.
 */
export function checkArgument(schema: Schema, value: unknown, name: string, call?: string): void {
  const problems = problemsOf(schema, value, name);
  if (problems.length) {
    throw new InvalidArgumentError(`${call ? `${call}: ` : ''}${problems.map((problem) => problem.message).join('; ')}`);
  }
}
