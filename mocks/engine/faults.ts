/**
 * Faults on demand: `mock.faults.add(rule)` makes the next requests of an endpoint (or of every
 * endpoint) fail with an HTTP error, fail the connection, or arrive late, so a test can watch a
 * bot handle an outage without a flaky network. The rules live in the mock's state and act in
 * the one request pipeline (`api/pipeline.ts`), so every door sees them: `mock.fetch`, msw/node, the
 * browser worker and the HTTP server.
 * @module
 */
import { describe } from '../../src/core/arguments';
import { endpointsOf } from '../../src/core/endpoint';
import { InvalidArgumentError } from '../../src/core/errors';
import { resources } from '../../src/resources/index';
import type { FaultRule, RateLimitOptions } from '../contract/arguments';
import type { MockFaults } from '../contract/in-process';
import { authErrors, MockHttpError } from './replies';

/** What a matching rule does to one request. */
export interface Fault {
  readonly status: number | undefined;
  readonly network: boolean;
  readonly latencyMs: number;
}

interface ActiveRule {
  readonly id: string;
  readonly endpoint: string | undefined;
  readonly fault: Fault;
  /** Requests it still hits; `Infinity` until cleared. */
  left: number;
}

const ENDPOINT_NAMES = new Set(endpointsOf(resources).map(({ name }) => name));

/**
 * `rule` (which meets its schema: the call checked it) as the fault it describes, or an
 * `InvalidArgumentError` for an endpoint no request of the API has.
 */
function faultOf(rule: FaultRule): { endpoint: string | undefined; fault: Fault; times: number } {
  const { endpoint, status, network, latencyMs, times } = rule;
  // Which names exist, the schema leaves to the mock: `connectMock` checks without the client's table.
  if (endpoint !== undefined && !ENDPOINT_NAMES.has(endpoint)) {
    throw new InvalidArgumentError(
      `faults.add(rule): rule.endpoint must be a client method name such as "members.get", got ${describe(endpoint)}`,
    );
  }
  return { endpoint, fault: { status, network: network === true, latencyMs: latencyMs ?? 0 }, times: times ?? Number.POSITIVE_INFINITY };
}

/** The rules of one mock, in the order added; the pipeline takes one per request. */
export class FaultTable implements MockFaults {
  #rules: ActiveRule[] = [];
  // Never reused, not even across `clear()`: an id names one rule for the mock's whole life.
  #added = 0;

  add(rule: FaultRule): string {
    const { endpoint, fault, times } = faultOf(rule);
    const id = `fault-${++this.#added}`;
    this.#rules.push({ id, endpoint, fault, left: times });
    return id;
  }

  clear(): void {
    this.#rules = [];
  }

  /** The fault of the first rule that matches a request of `endpoint`, used once; `undefined` when none does. */
  take(endpoint: string): Fault | undefined {
    const index = this.#rules.findIndex((rule) => rule.endpoint === undefined || rule.endpoint === endpoint);
    const rule = this.#rules[index];
    if (!rule) return undefined;
    if (--rule.left <= 0) this.#rules.splice(index, 1);
    return rule.fault;
  }
}

/** The `code` and words of each status a fault may answer; any other is `http_<status>`. */
const STATUS_TEXT: Readonly<Record<number, readonly [code: string, text: string]>> = {
  400: ['invalid_request', 'bad request'],
  404: ['not_found', 'not found'],
  408: ['request_timeout', 'request timeout'],
  409: ['conflict', 'conflict'],
  413: ['payload_too_large', 'payload too large'],
  422: ['unprocessable_entity', 'unprocessable entity'],
  500: ['internal_error', 'internal server error'],
  501: ['not_implemented', 'not implemented'],
  502: ['bad_gateway', 'bad gateway'],
  503: ['service_unavailable', 'service unavailable'],
  504: ['gateway_timeout', 'gateway timeout'],
};

/** A 429 from a fault asks for a second's wait: short enough for a test, long enough to be obeyed. */
const FAULT_RETRY_AFTER_S = 1;

/**
 * The error a fault of `status` answers with. 401 and 403 are the service's own texts; a 429
 * carries `Retry-After` and the rate-limit headers of a spent window that reopens in a second
 * (`X-RateLimit-Limit` only when the mock has a rate limit to report).
 */
export function faultError(status: number, rateLimit: RateLimitOptions | undefined, now: number): MockHttpError {
  if (status === 401) return authErrors.invalid();
  if (status === 403) return authErrors.forbidden();
  if (status === 429) {
    const retryAfter = FAULT_RETRY_AFTER_S;
    return new MockHttpError(
      429,
      'rate_limited',
      'too many requests',
      { retryAfter },
      {
        ...(rateLimit ? { 'x-ratelimit-limit': String(rateLimit.limit) } : {}),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.ceil(now / 1000 + retryAfter)),
        'x-ratelimit-reset-after': retryAfter.toFixed(3),
        'retry-after': String(retryAfter),
      },
    );
  }
  const [code, text] = STATUS_TEXT[status] ?? [`http_${status}`, `HTTP ${status}`];
  return new MockHttpError(status, code, text);
}

/**
 * The rejection of `mock.fetch` when a fault fails the connection, shaped like undici's:
 * `TypeError('fetch failed')`, its cause an `ECONNRESET` error.
 */
export const fetchFailed = (): TypeError =>
  new TypeError('fetch failed', {
    cause: Object.assign(new Error('the mock failed the connection (a network fault of mock.faults)'), {
      name: 'MockNetworkFault',
      code: 'ECONNRESET',
    }),
  });

/** Whether `error` is {@link fetchFailed}'s: what the HTTP server answers by dropping the socket. */
export const isNetworkFault = (error: unknown): boolean =>
  error instanceof TypeError && (error.cause as { name?: unknown } | undefined)?.name === 'MockNetworkFault';
