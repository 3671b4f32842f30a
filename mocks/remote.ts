/**
 * `community-server-sdk/mock/remote`: the typed client of the mock's control API (`/__mock/*`),
 * for a mock served by another process (the bin, `startMockHttpServer`): reset it, read its
 * journal, add rows, step its activity, inject faults, move its clock, open a session of its own
 * per test worker, from a Playwright suite, a browser page or any script. Its methods, their
 * types, checks and documentation are derived from the control API's table
 * (`mocks/contract/operations.ts`). It uses the global `fetch` alone: no msw, no faker, no zod.
 * @example
 * import { connectMock } from 'community-server-sdk/mock/remote';
 *
 * const mock = connectMock('http://127.0.0.1:4010', process.env.MOCK_ADMIN_TOKEN!);
 * await mock.reset();
 * await mock.faults.add({ endpoint: 'members.list', status: 503, times: 1 });
 * const sent = await mock.requests({ endpoint: 'members.list' });
 * const session = await mock.sessions.create(); // a mock of this worker's own, at session.baseUrl
 * @module community-server-sdk/mock/remote
 */
import { checkOptions, checkTimeout, describe, isAbortSignal } from '../src/core/arguments';
import {
  AbortError,
  apiError,
  ConnectionError,
  InvalidArgumentError,
  NotFoundError,
  ResponseValidationError,
  responseError,
  TimeoutError,
} from '../src/core/errors';
import { readText } from '../src/core/read-text';
import { describeThrown, redact } from '../src/core/redact';
import { checkCall, requestOf } from './contract/calls';
import { deriveCalls, type ControlApi, type ControlOperation } from './contract/operations';
import { problemsOf } from './contract/schema';
import type { MockSessionInfo, MockSessionOptions } from './contract/sessions';
import type { MockTokens } from './contract/tokens';
import type { Collection } from './engine/rows/collection';
import type { CadStore, DepartmentStore, ServerStore } from './engine/store/store';
import type { TokenRecord } from './engine/world';

export type { RemoteRequestsFilter } from './contract/arguments';
export type { MockSessionInfo, MockSessionOptions } from './contract/sessions';

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
export interface RemoteMock extends RemoteCalls<Omit<ControlApi, 'store' | 'sessions' | 'activity' | 'faults' | 'clock'>> {
  /** The mock's base URL, as given (without a trailing slash). */
  readonly url: string;
  /** The world changing by itself, as `mock.activity`. */
  readonly activity: RemoteActivity;
  /** Faults on demand, as `mock.faults`. */
  readonly faults: RemoteFaults;
  /** The mock's clock, as `mock.clock`. */
  readonly clock: RemoteClock;
  /**
   * The table at a dotted path (see {@link RemoteTablePath}); no request until `create`.
   * @example
   * await remote.store('main.cad.calls').create({ title: 'Noise complaint' });
   */
  store<Path extends RemoteTablePath>(table: Path): RemoteTable<RemoteRow<Path>>;
  /**
   * Sessions: whole mocks of their own on the same server, one per test worker (see
   * {@link RemoteSession}). Only the root admin token opens, lists and closes them: called on a
   * session's own `mock`, they reject with a `PermissionDeniedError`.
   */
  readonly sessions: {
    /**
     * Opens a session: its own world (the server's unless `options` give `seed`, `counts` or
     * `world`), tokens, journal, faults, clock, rate limit, health and activity, served under its
     * `baseUrl`. Past the server's `--max-sessions`, a `RateLimitError` (429).
     * @example
     * const session = await remote.sessions.create({ seed: 7 });
     * const client = new CommunityServerClient({ token: session.tokens.main, baseUrl: session.baseUrl });
     */
    create(options?: MockSessionOptions, call?: RemoteCallOptions): Promise<RemoteSession>;
    /**
     * The open sessions, oldest first.
     * @example
     * const open = await remote.sessions.list();
     */
    list(call?: RemoteCallOptions): Promise<MockSessionInfo[]>;
  };
}

/**
 * The activity of a running mock, as `mock.activity` in-process: `remote.activity`.
 * @example
 * await remote.activity.start({ intervalMs: 250 });
 * const { running } = await remote.activity.status();
 */
export interface RemoteActivity extends RemoteCalls<ControlApi['activity']> {}

/**
 * The faults of a running mock, as `mock.faults` in-process: `remote.faults`.
 * @example
 * const id = await remote.faults.add({ network: true, times: 1 });
 */
export interface RemoteFaults extends RemoteCalls<ControlApi['faults']> {}

/**
 * The clock of a running mock, as `mock.clock` in-process: `remote.clock`.
 * @example
 * const tomorrow = await remote.clock.advance(86_400_000);
 */
export interface RemoteClock extends RemoteCalls<ControlApi['clock']> {}

/**
 * A session of a mock server (`remote.sessions.create()`): a whole mock of its own, served under
 * `baseUrl` on the server's port, which nothing done to another session or to the root mock
 * changes. Point a client at `baseUrl` with one of `tokens`, and drive the session with `mock`.
 * An idle session closes by itself after its `ttlMs` (default 10 minutes).
 * @example
 * const session = await remote.sessions.create();
 * const client = new CommunityServerClient({ token: session.tokens.main, baseUrl: session.baseUrl });
 * await session.mock.faults.add({ endpoint: 'members.list', status: 503, times: 1 });
 * await session.close();
 */
export interface RemoteSession {
  /** Names the session in `DELETE /__mock/sessions/{id}` and `sessions.list()`. */
  readonly id: string;
  /** Where its API is served: give it to a client as its `baseUrl` (`http://127.0.0.1:4010/sessions/…`). */
  readonly baseUrl: string;
  /** Its five API tokens: fresh random secrets, which no other session and not the root mock accept. */
  readonly tokens: MockTokens;
  /** Its control API: `reset()`, `requests()`, `faults.add()`… act on this session alone. */
  readonly mock: RemoteMock;
  /**
   * Closes it: its activity stops, its base URL and tokens answer no more. Closing a session that
   * is gone already (closed, or expired) is no error.
   * @example
   * afterAll(() => session.close());
   */
  close(call?: RemoteCallOptions): Promise<void>;
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

  /** One call of `operation` (named `name`): its arguments checked and sent, its answer checked and read, or the SDK's typed error. */
  async function send(name: string, operation: ControlOperation, args: readonly unknown[], call: unknown): Promise<unknown> {
    const { timeout = connection.timeout ?? DEFAULT_TIMEOUT_MS, signal } = checkCallOptions(call, 'call');
    checkCall(name, operation, args);
    const { method } = operation;
    const { path, body } = requestOf(operation, args);
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
    const nothing = operation.status === 204;
    let answer: unknown;
    try {
      answer = nothing || !isJson ? undefined : JSON.parse(text);
    } catch {
      // Not JSON after all: said below.
    }
    if (nothing ? response.status === 204 : response.ok && isJson && problemsOf(operation.answer ?? {}, answer).length === 0) {
      return operation.result === undefined ? answer : (answer as Record<string, unknown>)[operation.result];
    }
    // Whatever answered, it is not the mock's control API: an SPA's dev server, a proxy, another service.
    const wanted = nothing ? '204 No Content' : `JSON${operation.result ? ` with "${operation.result}"` : ''}`;
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

  // Every operation of the table, as a method of its name: its arguments, then the call's options.
  const derived = deriveCalls(
    (name, operation) =>
      (...args: unknown[]) =>
        send(name, operation, args.slice(0, operation.args.length), args[operation.args.length]),
  ) as unknown as RemoteCalls<ControlApi>;

  return {
    url: base,
    ...derived,
    store: (table) => ({ create: (partial, call) => derived.store.create(table, partial, call) as Promise<never> }),
    sessions: {
      async create(sessionOptions, call) {
        const session = await derived.sessions.create(sessionOptions, call);
        // Its path on the server, under the base this connection reaches the server by (a proxy's prefix included).
        const baseUrl = base + new URL(session.baseUrl).pathname;
        return {
          id: session.id,
          baseUrl,
          tokens: session.tokens,
          mock: connectMock(baseUrl, session.adminToken, options),
          close: (closeCall) =>
            derived.sessions.close(session.id, closeCall).catch((error: unknown) => {
              if (!(error instanceof NotFoundError && error.code === 'session_not_found')) throw error;
            }),
        };
      },
      list: derived.sessions.list,
    },
  };
}

/** The remote method of each operation of `Table`: the call's arguments, then its options; its result, awaited. */
type RemoteCalls<Table> = {
  readonly [Name in keyof Table]: Table[Name] extends ControlOperation<infer Args, infer Result>
    ? (...args: [...Args, options?: RemoteCallOptions]) => Promise<Awaited<Result>>
    : RemoteCalls<Table[Name]>;
};
