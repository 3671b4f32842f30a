/**
 * `community-server-sdk/mock/remote`: the typed client of the mock's control API (`/__mock/*`),
 * for a mock served by another process (the bin, `startMockHttpServer`): reset it, read its
 * journal, add rows, step its activity, inject faults, move its clock, from a Playwright suite, a
 * browser page or any script. It uses the global `fetch` alone: no msw, no faker.
 * @example
 * import { connectMock } from 'community-server-sdk/mock/remote';
 *
 * const mock = connectMock('http://127.0.0.1:4010', process.env.MOCK_ADMIN_TOKEN!);
 * await mock.reset();
 * await mock.faults.add({ endpoint: 'members.list', status: 503, times: 1 });
 * const sent = await mock.requests({ endpoint: 'members.list' });
 * @module community-server-sdk/mock/remote
 */
import { checkOptions, checkTimeout, describe, isAbortSignal, isPlainObject, kindOf } from '../src/core/arguments';
import {
  AbortError,
  apiError,
  ConnectionError,
  InvalidArgumentError,
  ResponseValidationError,
  responseError,
  TimeoutError,
} from '../src/core/errors';
import { readText } from '../src/core/read-text';
import { describeThrown, redact } from '../src/core/redact';
import type { ActivityEvent, ActivityFailure, FaultRule, HealthState, MockRequest, MockRequestToken, RateLimitOptions } from './index';
import type { CadStore, DepartmentStore, ServerStore } from './store';
import type { TokenRecord } from './world';
import type { Collection } from './collection';

/**
 * How long a call may take, and what aborts it: given to {@link connectMock} for every call of
 * the connection, or as the last argument of one call (its `timeout` wins; either `signal` aborts).
 * @example
 * const remote = connectMock(url, adminToken, { timeout: 5_000, signal: AbortSignal.timeout(60_000) });
 * await remote.reset({ timeout: 30_000 }); // a big world takes longer to rebuild
 */
export interface RemoteCallOptions {
  /** Milliseconds a call may take, its answer read included (default 10 000); past it, a `TimeoutError`. */
  timeout?: number | undefined;
  /** Aborts the call; it then rejects with an `AbortError` whose `cause` is the signal's reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Narrows `remote.requests(filter)`: rows of that endpoint, status and token role (`null`: the
 * requests that carried no token).
 * @example
 * const failures = await remote.requests({ endpoint: 'members.get', status: 404 });
 */
export interface RemoteRequestsFilter {
  /** The client method name, e.g. `members.get`. */
  endpoint?: string;
  /** The status the mock answered with; `0` for a network fault (no answer). */
  status?: number;
  /** The token's role (`main`, `readOnly`, …, `created`, `unknown`), or `null` for none. */
  token?: MockRequestToken;
}

/**
 * The dotted path of a table of `mock.store`, as `InvalidRowError` messages name it, with the
 * row type it holds: `main.logs`, `noCad.members`, `main.cad.calls`,
 * `main.departmentData.<departmentId>.loas`, `tokens`.
 * @example
 * const path: RemoteTablePath = 'main.cad.calls';
 */
export type RemoteTablePath =
  | `${'main' | 'noCad'}.${Exclude<keyof ServerStore, 'info' | 'name' | 'refs' | 'departmentData' | 'cad'>}`
  | `${'main' | 'noCad'}.cad.${keyof CadStore}`
  | `${'main' | 'noCad'}.departmentData.${string}.${keyof DepartmentStore}`
  | 'tokens';

/**
 * The row type of the table at `Path` (see {@link RemoteTablePath}).
 * @example
 * type Call = RemoteRow<'main.cad.calls'>; // a CadCall
 */
export type RemoteRow<Path extends string> = Path extends 'tokens'
  ? TokenRecord
  : Path extends `${'main' | 'noCad'}.cad.${infer Name extends keyof CadStore}`
    ? CadStore[Name] extends Collection<infer Row>
      ? Row
      : never
    : Path extends `${'main' | 'noCad'}.departmentData.${string}.${infer Name extends keyof DepartmentStore}`
      ? DepartmentStore[Name] extends Collection<infer Row>
        ? Row
        : never
      : Path extends `${'main' | 'noCad'}.${infer Name extends Exclude<keyof ServerStore, 'info' | 'name' | 'refs' | 'departmentData' | 'cad'>}`
        ? ServerStore[Name] extends Collection<infer Row>
          ? Row
          : never
        : Record<string, unknown>;

/**
 * One table of the remote mock's store.
 * @example
 * const log = await remote.store('main.logs').create({ username: 'ada' });
 */
export interface RemoteTable<Row> {
  /**
   * Makes a row (the fields given, the rest seeded and valid), inserts it and returns it, as
   * `table.create(partial)` does in-process. A row the table refuses is a `BadRequestError`
   * whose message is the `InvalidRowError`'s; an unknown table, a `NotFoundError`.
   * @example
   * const member = await remote.store('main.members').create({ username: 'ada' });
   */
  create(partial?: Partial<Row>, options?: RemoteCallOptions): Promise<Row>;
}

/**
 * The control API of a running mock: what {@link connectMock} returns. Each method is one
 * request, and takes {@link RemoteCallOptions} last. Every failure is the SDK's typed error: the
 * mock's refusals (`BadRequestError`, `AuthenticationError`, `NotFoundError`…), `ConnectionError`,
 * `TimeoutError`, `AbortError`, and a `ResponseValidationError` (or, for a non-2xx status, the
 * `ApiError` of it) saying what answered when the URL is not the mock's. Bad arguments throw
 * `InvalidArgumentError` before anything is sent. The admin token stays inside: no property,
 * error or log line holds it.
 * @example
 * const remote = connectMock(url, adminToken);
 * await remote.setHealth({ database: false });
 * await remote.clock.advance(60_000);
 */
export interface RemoteMock {
  /** The mock's base URL, as given (without a trailing slash). */
  readonly url: string;
  /**
   * Back to the seeded state, as `mock.reset()`: data, tokens, counters, health, journal,
   * faults, clock, rate limit; activity stopped.
   * @example
   * beforeEach(() => remote.reset());
   */
  reset(options?: RemoteCallOptions): Promise<void>;
  /**
   * The journal (`mock.requests`), oldest first, narrowed by `filter`.
   * @example
   * expect(await remote.requests({ token: 'readOnly' })).toHaveLength(3);
   */
  requests(filter?: RemoteRequestsFilter, options?: RemoteCallOptions): Promise<MockRequest[]>;
  /**
   * Empties the journal alone.
   * @example
   * await remote.clearRequests();
   */
  clearRequests(options?: RemoteCallOptions): Promise<void>;
  /**
   * The table at a dotted path (see {@link RemoteTablePath}); no request until `create`.
   * @example
   * await remote.store('main.cad.calls').create({ title: 'Noise complaint' });
   */
  store<Path extends RemoteTablePath>(table: Path): RemoteTable<RemoteRow<Path>>;
  /** The world changing by itself, as `mock.activity`. */
  readonly activity: {
    /**
     * `n` seeded events now (default 1), each `{ kind, row, … }`.
     * @example
     * const [event] = await remote.activity.step();
     */
    step(n?: number, options?: RemoteCallOptions): Promise<ActivityEvent[]>;
    /**
     * One event every `intervalMs`, until `stop()` or `reset()`.
     * @example
     * await remote.activity.start({ intervalMs: 500 });
     */
    start(activity: { intervalMs: number }, options?: RemoteCallOptions): Promise<void>;
    /**
     * Stops the timed activity.
     * @example
     * await remote.activity.stop();
     */
    stop(options?: RemoteCallOptions): Promise<void>;
    /**
     * Whether the timed activity runs, and why it stopped if an event could not be made
     * (`failure`: `{ name, message, at }`, or `null`), as `mock.activity.running` and `.failure`.
     * @example
     * const { running, failure } = await remote.activity.status();
     */
    status(options?: RemoteCallOptions): Promise<{ running: boolean; failure: ActivityFailure | null }>;
  };
  /** Faults on demand, as `mock.faults`. */
  readonly faults: {
    /**
     * Adds a fault rule; returns its id.
     * @example
     * await remote.faults.add({ endpoint: 'members.list', status: 503, times: 1 });
     */
    add(rule: FaultRule, options?: RemoteCallOptions): Promise<string>;
    /**
     * Removes every rule.
     * @example
     * await remote.faults.clear();
     */
    clear(options?: RemoteCallOptions): Promise<void>;
  };
  /** The mock's clock, as `mock.clock`. */
  readonly clock: {
    /**
     * Moves it forward by `ms`; returns the new now (ms).
     * @example
     * const now = await remote.clock.advance(3_600_000);
     */
    advance(ms: number, options?: RemoteCallOptions): Promise<number>;
  };
  /**
   * Turns dependencies off and on, as `mock.setHealth(h)`.
   * @example
   * await remote.setHealth({ database: false }); // /health answers 503
   */
  setHealth(health: Partial<HealthState>, options?: RemoteCallOptions): Promise<void>;
  /**
   * Changes the rate limit, as `mock.setRateLimit(r)`; `null` turns it off.
   * @example
   * await remote.setRateLimit({ limit: 2, windowMs: 1_000 });
   */
  setRateLimit(rateLimit: RateLimitOptions | null, options?: RemoteCallOptions): Promise<void>;
}

const TOKEN_ROLES = new Set<unknown>(['main', 'noCad', 'readOnly', 'expired', 'revoked', 'created', 'unknown', null]);
const HEALTH_SWITCHES = ['database', 'cache', 'ready'];
const FAULT_FIELDS = ['endpoint', 'status', 'network', 'latencyMs', 'times'];
const MAX_MS = 2 ** 31 - 1;
/** What a table path may look like: dot-separated names (a department id included). */
const TABLE_PATH = /^[\w-]+(\.[\w-]+)*$/;

const isInteger = (value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;

/** Throws `InvalidArgumentError` unless `value` is an integer from `min` to `max`. */
function checkInteger(name: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): asserts value is number {
  if (!isInteger(value, min, max)) {
    throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}, got ${describe(value)}`);
  }
}

/** The base URL, checked: an absolute http(s) URL, without a trailing slash. */
function baseUrlOf(url: unknown): string {
  const parsed = typeof url === 'string' && URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new InvalidArgumentError(
      `connectMock(url): url must be an absolute http(s) URL like http://127.0.0.1:4010, got ${describe(url)}`,
    );
  }
  return parsed.origin + parsed.pathname.replace(/\/+$/, '');
}

function checkFilter(filter: unknown): URLSearchParams {
  checkOptions(filter, ['endpoint', 'status', 'token'], 'requests filter');
  const query = new URLSearchParams();
  if (filter === undefined) return query;
  const { endpoint, status, token } = filter;
  if (endpoint !== undefined) {
    if (typeof endpoint !== 'string' || endpoint === '') {
      throw new InvalidArgumentError(`endpoint must be a client method name, got ${describe(endpoint)}`);
    }
    query.set('endpoint', endpoint);
  }
  if (status !== undefined) {
    // 0: a network fault, as the journal records it.
    if (status !== 0 && !isInteger(status, 100, 599)) {
      throw new InvalidArgumentError(`status must be an HTTP status from 100 to 599, or 0 for a network fault, got ${describe(status)}`);
    }
    query.set('status', String(status));
  }
  if (token !== undefined) {
    if (!TOKEN_ROLES.has(token)) {
      // Not quoted: what is passed here by mistake is a token's secret (an API token's, the admin token).
      throw new InvalidArgumentError(
        `token must be a token role (main, readOnly, …) or null, got ${kindOf(token)} that is none (not shown)`,
      );
    }
    query.set('token', token === null ? 'none' : (token as string));
  }
  return query;
}

function checkFaultRule(rule: unknown): void {
  if (rule === undefined) {
    throw new InvalidArgumentError('faults.add(rule): rule must be an object like { endpoint, status }, got undefined');
  }
  checkOptions(rule, FAULT_FIELDS, 'fault rule');
  const { endpoint, status, network, latencyMs, times } = rule;
  if (endpoint !== undefined && (typeof endpoint !== 'string' || endpoint === '')) {
    throw new InvalidArgumentError(`endpoint must be a client method name such as "members.get", got ${describe(endpoint)}`);
  }
  if (status !== undefined) checkInteger('status', status, 400, 599);
  if (network !== undefined && network !== true) {
    throw new InvalidArgumentError(`network must be true (or left out), got ${describe(network)}`);
  }
  if (latencyMs !== undefined) checkInteger('latencyMs', latencyMs, 1, MAX_MS);
  if (times !== undefined) checkInteger('times', times, 1);
}

function checkHealth(health: unknown): void {
  checkOptions(health, HEALTH_SWITCHES, 'health');
  if (health === undefined) {
    throw new InvalidArgumentError('setHealth(health): health must be an object like { database: false }, got undefined');
  }
  for (const [name, value] of Object.entries(health)) {
    if (typeof value !== 'boolean') throw new InvalidArgumentError(`health.${name} must be a boolean, got ${describe(value)}`);
  }
}

function checkRateLimit(rateLimit: unknown): void {
  if (rateLimit === null) return;
  if (!isPlainObject(rateLimit)) {
    throw new InvalidArgumentError(`setRateLimit(rateLimit): rateLimit must be { limit, windowMs } or null, got ${describe(rateLimit)}`);
  }
  checkOptions(rateLimit, ['limit', 'windowMs'], 'rateLimit');
  checkInteger('limit', rateLimit.limit, 1);
  checkInteger('windowMs', rateLimit.windowMs, 1);
}

/** A call's options, checked: `what` names them in a message. */
function checkCallOptions(options: unknown, what: string): RemoteCallOptions {
  checkOptions(options, ['timeout', 'signal'], what);
  if (options === undefined) return {};
  checkTimeout('timeout', options.timeout);
  if (options.signal !== undefined && !isAbortSignal(options.signal)) throw new InvalidArgumentError('signal must be an AbortSignal');
  return options;
}

/** The most of an answer read: the journal at its default limit is a few MiB; a wrong URL may stream without end. */
const MAX_ANSWER_BYTES = 64 * 2 ** 20;
/** A call's wait for its answer when neither it nor its connection sets one. */
const DEFAULT_TIMEOUT_MS = 10_000;
/** Characters of an answer that is not the mock's a message quotes: enough to recognise it. */
const GLIMPSE_CHARS = 60;

/**
 * What a success of a route is: no body (204), or a JSON object whose `key` (none: the object
 * itself) is of `kind`. Anything else did not come from the mock's control API.
 */
interface Expected {
  readonly kind: 'nothing' | 'object' | 'array' | 'string' | 'number';
  readonly key?: string;
}
const NOTHING: Expected = { kind: 'nothing' };
const ROW: Expected = { kind: 'object' };
const DATA: Expected = { kind: 'array', key: 'data' };

function isKind(value: unknown, kind: Expected['kind']): boolean {
  return kind === 'object' ? isPlainObject(value) : kind === 'array' ? Array.isArray(value) : typeof value === kind;
}

/** An answer in a few words: its status, media type and first characters. */
function glimpse(response: Response, text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const start = flat.length > GLIMPSE_CHARS ? `${flat.slice(0, GLIMPSE_CHARS)}…` : flat;
  return `${response.status} ${response.headers.get('content-type') ?? 'with no content type'}, ${start ? JSON.stringify(start) : 'empty'}`;
}

/**
 * Connects to the control API of the mock at `url` (the bin's, or `startMockHttpServer`'s
 * `http.url`), opened by `adminToken` (the bin prints it as `admin`; `http.adminToken`).
 * `options` set every call's timeout (default 10 s) and a signal that aborts them all.
 * Nothing is sent until a method is called.
 * @example
 * import { connectMock } from 'community-server-sdk/mock/remote';
 *
 * const remote = connectMock('http://127.0.0.1:4010', process.env.MOCK_ADMIN_TOKEN!, { timeout: 5_000 });
 * await remote.reset();
 * const log = await remote.store('main.logs').create({ username: 'ada' });
 * expect(await remote.requests({ endpoint: 'logs.get' })).toEqual([]);
 */
export function connectMock(url: string, adminToken: string, options?: RemoteCallOptions): RemoteMock {
  // Quoting a refused url would show the admin token of a call written the wrong way round.
  if (typeof adminToken === 'string' && URL.canParse(adminToken) && !(typeof url === 'string' && URL.canParse(url))) {
    throw new InvalidArgumentError(
      'connectMock(url, adminToken): the arguments are the wrong way round (adminToken is a URL, url is not); values not shown',
    );
  }
  const base = baseUrlOf(url);
  if (typeof adminToken !== 'string' || !/^[\x21-\x7e]+$/.test(adminToken)) {
    throw new InvalidArgumentError(
      'connectMock(url, adminToken): adminToken must be a non-empty string of visible ASCII characters (value not shown)',
    );
  }
  const connection = checkCallOptions(options, 'connectMock');

  /** One request of the control API: the part of its answer `expected` names, or the SDK's typed error. */
  async function send<Answer = void>(method: string, path: string, expected: Expected, body?: unknown, call?: unknown): Promise<Answer> {
    const { timeout = connection.timeout ?? DEFAULT_TIMEOUT_MS, signal } = checkCallOptions(call, 'call');
    const where = `${method} ${base}${path}`;
    let payload: string | undefined;
    try {
      payload = body === undefined ? undefined : JSON.stringify(body);
    } catch (thrown) {
      throw new InvalidArgumentError(`${where}: the body cannot be sent as JSON (${describeThrown(thrown)})`);
    }
    const callers = [connection.signal, signal].filter((one) => one !== undefined);
    const timer = AbortSignal.timeout(timeout);
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${adminToken}`,
          accept: 'application/json',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        signal: AbortSignal.any([timer, ...callers]),
        // The control API never redirects: what a redirect leads to is another server.
        redirect: 'manual',
        ...(payload === undefined ? {} : { body: payload }),
      });
      text = await readText(response, MAX_ANSWER_BYTES);
    } catch (thrown) {
      const aborted = callers.find((one) => one.aborted);
      if (aborted) throw new AbortError(`${where} was aborted`, { cause: redact(aborted.reason, adminToken) });
      if (timer.aborted) throw new TimeoutError(`${where} had no answer within ${timeout} ms`);
      throw new ConnectionError(redact(`${where} failed: ${describeThrown(thrown)}`, adminToken), {
        cause: redact(thrown, adminToken),
      });
    }
    const isJson = /^application\/json\b/i.test(response.headers.get('content-type') ?? '');
    if (!response.ok && isJson) throw responseError(response, text, { method, path }, adminToken);
    let answer: unknown;
    try {
      answer = expected.kind === 'nothing' || !isJson ? undefined : JSON.parse(text);
    } catch {
      // Not JSON after all: said below.
    }
    const part = expected.key === undefined ? answer : isPlainObject(answer) ? answer[expected.key] : undefined;
    if (expected.kind === 'nothing' ? response.status === 204 : response.ok && isKind(part, expected.kind)) return part as Answer;
    // Whatever answered, it is not the mock's control API: an SPA's dev server, a proxy, another service.
    const wanted = expected.kind === 'nothing' ? '204 No Content' : `JSON${expected.key ? ` with "${expected.key}"` : ''}`;
    const message = redact(
      `${where}: expected ${wanted} from the mock's control API, got ${glimpse(response, text)}; is ${base} the mock?`,
      adminToken,
    );
    if (!response.ok) {
      const headers = Object.fromEntries(response.headers);
      throw apiError(
        redact({ status: response.status, code: 'unknown', message, details: text.slice(0, 2048), headers, method, path }, adminToken),
      );
    }
    throw new ResponseValidationError(message, { method, path, issues: [], status: response.status });
  }

  return {
    url: base,
    reset: (call) => send('POST', '/__mock/reset', NOTHING, undefined, call),
    async requests(filter, call) {
      const query = checkFilter(filter).toString();
      return send<MockRequest[]>('GET', `/__mock/requests${query ? `?${query}` : ''}`, DATA, undefined, call);
    },
    clearRequests: (call) => send('DELETE', '/__mock/requests', NOTHING, undefined, call),
    store(table) {
      if (typeof table !== 'string' || !TABLE_PATH.test(table)) {
        throw new InvalidArgumentError(
          `store(table): table must be a dotted path like main.logs or main.cad.calls, got ${describe(table)}`,
        );
      }
      return {
        async create(partial = {}, call) {
          if (!isPlainObject(partial)) {
            throw new InvalidArgumentError(`${table}.create(partial): partial must be an object of fields, got ${describe(partial)}`);
          }
          return send<never>('POST', `/__mock/store/${encodeURIComponent(table)}`, ROW, partial, call);
        },
      };
    },
    activity: {
      async step(n = 1, call) {
        checkInteger('activity.step(n): n', n, 0, 10_000);
        return send<ActivityEvent[]>('POST', '/__mock/activity/step', DATA, { n }, call);
      },
      async start(activity, call) {
        checkOptions(activity, ['intervalMs'], 'activity.start');
        checkInteger('intervalMs', activity?.intervalMs, 1, MAX_MS);
        return send('POST', '/__mock/activity/start', NOTHING, activity, call);
      },
      stop: (call) => send('POST', '/__mock/activity/stop', NOTHING, undefined, call),
      status: (call) => send('GET', '/__mock/activity', ROW, undefined, call),
    },
    faults: {
      async add(rule, call) {
        checkFaultRule(rule);
        return send<string>('POST', '/__mock/faults', { kind: 'string', key: 'id' }, rule, call);
      },
      clear: (call) => send('DELETE', '/__mock/faults', NOTHING, undefined, call),
    },
    clock: {
      async advance(ms, call) {
        checkInteger('clock.advance(ms): ms', ms, 0);
        return send<number>('POST', '/__mock/clock/advance', { kind: 'number', key: 'now' }, { ms }, call);
      },
    },
    async setHealth(health, call) {
      checkHealth(health);
      return send('PUT', '/__mock/health', NOTHING, health, call);
    },
    async setRateLimit(rateLimit, call) {
      checkRateLimit(rateLimit);
      return send('PUT', '/__mock/rate-limit', NOTHING, rateLimit, call);
    },
  };
}
