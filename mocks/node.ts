/**
 * `community-server-sdk/mock/node`: the mock in Node, by interception (`setupMockServer`, msw/node)
 * or as a real HTTP server on loopback (`startMockHttpServer`), for tools in any language.
 * @example
 * import { createMockApi } from 'community-server-sdk/mock';
 * import { setupMockServer, startMockHttpServer } from 'community-server-sdk/mock/node';
 *
 * const mock = createMockApi({ seed: 1 });
 * const server = setupMockServer(mock); // intercepts the global fetch: server.listen(), server.close()
 * const http = await startMockHttpServer({ mock }); // or serves it: curl ${http.url}/livez
 * @module community-server-sdk/mock/node
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer, type SetupServer } from 'msw/node';
import { internalsOf } from './control/internals';
import { adminTokenProblem, createControlPlane, isControlPath, newAdminToken } from './control/plane';
import { createSessions, DEFAULT_MAX_SESSION_ROWS, DEFAULT_MAX_SESSIONS, type Served, type Sessions } from './control/sessions';
import { InvalidArgumentError } from '../src/core/errors';
import { checkOptions, describe, isPlainObject, kindOf } from '../src/core/arguments';
import { createMockApi, type MockApi } from './index';
import { isMock, requireMock } from './mock-argument';
import { MOCK_OPTION_NAMES } from './option-names';
import {
  errorAnswer,
  internalError,
  invalidPath,
  MAX_BODY_BYTES,
  isNoAnswer,
  MockHttpError,
  NO_ANSWER,
  payloadTooLarge,
  type Answer,
} from './replies';
import { isNetworkFault } from './faults';
import type { Incoming } from './pipeline';

export type { MockSessionInfo, MockSessionOptions, NewMockSession } from './control/types';

/**
 * An msw/node server answering with the mock's handlers, on any origin.
 * @example
 * const server = setupMockServer(mock);
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
 * afterEach(() => { server.resetHandlers(); mock.reset(); });
 * afterAll(() => server.close());
 */
export function setupMockServer(mock: MockApi): SetupServer {
  return setupServer(...requireMock(mock, 'setupMockServer(mock)', 'setupMockServer(createMockApi({ seed: 1 }))').handlers);
}

/**
 * Options of {@link startMockHttpServer}.
 * @example
 * const http = await startMockHttpServer({ mock: createMockApi(), port: 4010, host: '127.0.0.1' });
 */
export interface MockHttpServerOptions {
  /** The mock to serve (default: `createMockApi()`, seed 1, reachable as `http.mock`). */
  mock?: MockApi;
  /** Default 0: any free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /**
   * The token that opens the control API (`/__mock/*`): at least 16 visible ASCII characters, none
   * of the mock's API tokens. Default: a fresh one from the platform's secure random source.
   */
  adminToken?: string;
  /**
   * How many sessions (`POST /__mock/sessions`) the server holds at once (default 64); past it,
   * opening one is a 429. `0`: none.
   */
  maxSessions?: number;
  /**
   * How many rows the worlds of the open sessions hold together (default 500,000, ~500 MB; 64
   * sessions of the default world hold 219,072); a session that would pass it is a 429.
   */
  maxSessionRows?: number;
}

/**
 * A running HTTP server of the mock: what {@link startMockHttpServer} resolves to.
 * @example
 * const http = await startMockHttpServer({ mock });
 * const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: http.url });
 * await http.close();
 */
export interface MockHttpServer {
  /** The mock it serves: the one given, or the default one it made (`http.mock.tokens.main`). */
  readonly mock: MockApi;
  /** Base URL of the server, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The port it listens on (the free one picked when asked for port 0). */
  readonly port: number;
  /**
   * The token of the control API (`/__mock/*`, `connectMock(url, adminToken)`): the one given, or
   * a generated one. It opens no request of the API, and no API token opens the control API.
   */
  readonly adminToken: string;
  /**
   * Stops accepting and ends open connections.
   * @example
   * afterAll(() => http.close());
   */
  close(): Promise<void>;
}

// Browsers on another origin (a dashboard on a dev server) may call the mock directly.
const CORS = {
  'access-control-allow-origin': '*',
  // PUT for the control API (`PUT /__mock/health`), which a browser test drives too.
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE, OPTIONS',
  // Any header a client sends: `RequestOptions.headers`, `traceparent`/`tracestate` of a traced
  // call. `*` covers every header but `Authorization`, which must be named; it is safe because
  // the mock answers any origin without credentials (cookies): a page sends only what it holds.
  'access-control-allow-headers': 'authorization, *',
  'access-control-expose-headers':
    'allow, retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, x-ratelimit-reset-after',
  'access-control-max-age': '600',
};

async function readBody(incoming: IncomingMessage): Promise<Buffer | 'too large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return 'too large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Writes `answer` out: its status, headers and body (none for a HEAD: node:http drops it). */
function send(outgoing: ServerResponse, { status, headers, body }: Answer): void {
  outgoing.writeHead(status, { ...CORS, ...headers }).end(body ?? undefined);
}

/** An error this door finds itself, before the mock sees the request; the body is the mock's error shape. */
const refuse = (outgoing: ServerResponse, error: MockHttpError) => send(outgoing, errorAnswer(error, 'object'));

// A request body's text as `Request.text()` reads it: UTF-8, a byte-order mark dropped, bad bytes replaced.
const utf8 = new TextDecoder();

/** The origin a request was sent to, as its `Host` names it (`http://localhost:4010`), or the server's own. */
function originOf(incoming: IncomingMessage, own: string): string {
  try {
    const origin = new URL(`http://${incoming.headers.host ?? ''}`).origin;
    return origin === 'null' ? own : origin;
  } catch {
    return own;
  }
}

/** Answers one request: a session's or the root's, its control API's or its API's. */
async function answer(
  root: Served,
  sessions: Sessions,
  origin: string,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  const method = incoming.method ?? 'GET';
  if (method === 'OPTIONS') return send(outgoing, { status: 204, headers: {}, body: null });
  let url: URL;
  try {
    url = new URL(incoming.url ?? '/', origin);
    if (url.origin !== origin) throw new Error('absolute-form request target for another origin');
  } catch {
    return refuse(outgoing, invalidPath('the request target is not a path'));
  }
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(incoming);
  if (body === 'too large') {
    return refuse(outgoing, payloadTooLarge());
  }
  // Looked up once the body is read: nothing awaits between here and the session's answer beginning.
  const entered = sessions.enter(url.pathname);
  if (entered instanceof MockHttpError) return refuse(outgoing, entered);
  const served = entered?.session ?? root;
  try {
    await serve(served, entered?.path ?? url.pathname, url, method, body, incoming, outgoing);
  } finally {
    if (entered) sessions.release(entered.session);
  }
}

/** Answers a request of `served` (the root or a session) whose path from its base is `path`. */
async function serve(
  { mock, control }: Served,
  path: string,
  url: URL,
  method: string,
  body: Buffer | undefined,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  // The control API never reaches the mock: it is not journaled, not rate limited, not delayed.
  if (isControlPath(path)) {
    const request = {
      method,
      path,
      query: url.searchParams,
      authorization: incoming.headers.authorization ?? null,
      body: body ? new Uint8Array(body) : undefined,
      origin: originOf(incoming, url.origin),
    };
    return send(outgoing, await control.answer(request));
  }
  const authorization = incoming.headers.authorization ?? null;
  // Aborted when the client goes away before its answer is written. Made only when the mock
  // waits (latency, a fault's delay) and so asks for it: most requests never do, and an
  // AbortController (with the DOMException of its abort) per request costs ~6% of the server's time.
  let controller: AbortController | undefined;
  let gone = false;
  outgoing.once('close', () => {
    gone = !outgoing.writableFinished;
    if (gone) controller?.abort();
  });
  const read: Incoming = {
    method: method.toUpperCase(),
    // A session's mock sees the path from its base, as a client with the session's baseUrl means it.
    path,
    query: url.searchParams,
    // The admin token opens no API request, whatever the store holds (a row written in-process
    // with it as a secret included): presented, it reaches the mock as a bearer header with no
    // token, which the mock answers, journals and counts as any token it does not know.
    authorization: control.presentsAdminToken(authorization) ? 'Bearer' : authorization,
    body: body && utf8.decode(body),
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (gone) controller.abort();
      }
      return controller.signal;
    },
  };
  const internals = internalsOf(mock);
  // A mock whose `fetch` was wrapped (to count or change what it answers) is served through its wrapper.
  const answer =
    mock.fetch === internals.fetch
      ? await internals.answer(read)
      : await answerByFetch(mock.fetch, read, new URL(path + url.search, url.origin), incoming.headers);
  // No answer (a network fault, or the caller went away): the connection fails, as one that broke.
  if (isNoAnswer(answer)) return void outgoing.destroy();
  send(outgoing, answer);
}

/**
 * The answer of `fetch` (a wrapper of the mock's own) to `read`, sent to `target` with the
 * request's `headers`: what the HTTP server answered every request with before it had the
 * pipeline to itself. A rejection for a network fault, or for the client gone away, is no answer.
 */
async function answerByFetch(
  fetch: typeof globalThis.fetch,
  read: Incoming,
  target: URL,
  headers: IncomingMessage['headers'],
): Promise<Answer> {
  const sent = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) sent.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  if (read.authorization !== null) sent.set('authorization', read.authorization);
  try {
    const response = await fetch(target, { method: read.method, headers: sent, signal: read.signal ?? null, body: read.body ?? null });
    return { status: response.status, headers: Object.fromEntries(response.headers), body: new Uint8Array(await response.arrayBuffer()) };
  } catch (error) {
    if (read.signal?.aborted || isNetworkFault(error)) return NO_ANSWER;
    throw error;
  }
}

/** The options `startMockHttpServer` knows, as `MockHttpServerOptions` declares them. */
const SERVER_OPTION_NAMES = ['mock', 'port', 'host', 'adminToken', 'maxSessions', 'maxSessionRows'];
const CALL = 'startMockHttpServer';

/**
 * The options `given` stand for, checked: a mock alone is `{ mock }`, nothing is `{}`; a
 * createMockApi option among them is said to be one.
 */
function serverOptions(given: unknown): MockHttpServerOptions {
  if (given === undefined) return {};
  if (isMock(given)) return { mock: given };
  if (!isPlainObject(given)) {
    throw new InvalidArgumentError(
      `${CALL}: pass { mock, port, host, adminToken, maxSessions, maxSessionRows } (each optional) or a mock from createMockApi(), got ${kindOf(given)}`,
    );
  }
  const mockOption = Object.keys(given).find((key) => MOCK_OPTION_NAMES.includes(key));
  if (mockOption !== undefined) {
    throw new InvalidArgumentError(
      `${CALL}: ${mockOption} is an option of the mock, not of the server: ${CALL}({ mock: createMockApi({ ${mockOption}: … }) })`,
    );
  }
  checkOptions(given, SERVER_OPTION_NAMES, CALL);
  const { port, host } = given;
  if (port !== undefined && !(Number.isInteger(port) && (port as number) >= 0 && (port as number) <= 65_535)) {
    throw new InvalidArgumentError(`${CALL}: port must be an integer from 0 (any free port) to 65535, got ${describe(port)}`);
  }
  if (host !== undefined && !(typeof host === 'string' && host.trim() !== '')) {
    throw new InvalidArgumentError(`${CALL}: host must be a host name or address such as "127.0.0.1", got ${describe(host)}`);
  }
  if (given.mock !== undefined) requireMock(given.mock, `${CALL}: mock`, `${CALL}({ mock: createMockApi({ seed: 1 }) })`);
  return given;
}

/**
 * Serves the mock over real HTTP, for curl, Postman or a client in another language, with its
 * control API at `/__mock/*` and, opened there, sessions: whole mocks of their own under
 * `/sessions/{id}` on the same port, one per test worker (at most `maxSessions` at once).
 * `startMockHttpServer()` serves a default mock (`createMockApi()`), `startMockHttpServer(mock)`
 * that mock; anything else throws `InvalidArgumentError` saying what to pass.
 * @example
 * const http = await startMockHttpServer({ mock, port: 0 });
 * console.log(http.url); // http://127.0.0.1:41234
 * await http.close();
 */
export async function startMockHttpServer(options?: MockHttpServerOptions | MockApi): Promise<MockHttpServer> {
  const {
    mock = createMockApi(),
    port = 0,
    host = '127.0.0.1',
    adminToken = newAdminToken(),
    maxSessions = DEFAULT_MAX_SESSIONS,
    maxSessionRows = DEFAULT_MAX_SESSION_ROWS,
  } = serverOptions(options);
  // The five come back with every reset(), whatever the store holds now.
  const apiTokens = [...(Object.values(mock.tokens) as string[]), ...mock.store.tokens.all().map((token) => token.secret)];
  const problem = adminTokenProblem(adminToken, apiTokens);
  if (problem) throw new InvalidArgumentError(`startMockHttpServer: ${problem} (value not shown)`);
  for (const [name, value] of Object.entries({ maxSessions, maxSessionRows })) {
    if (!(Number.isSafeInteger(value) && value >= 0)) {
      throw new InvalidArgumentError(`startMockHttpServer: ${name} must be an integer ≥ 0, got ${describe(value)}`);
    }
  }
  // In-process writes too (a test's `mock.store.tokens.create`) can never give a token the admin token's secret.
  internalsOf(mock).reserveSecret(adminToken);
  const sessions = createSessions(mock, { maxSessions, maxRows: maxSessionRows });
  const root: Served = { mock, control: createControlPlane({ mock, sessions }, adminToken) };
  let origin = '';
  const server = createServer((incoming, outgoing) => {
    answer(root, sessions, origin, incoming, outgoing).catch((error: unknown) => {
      // A bug of the mock's own: said in the spec's error shape, or, once the answer began, by a broken connection.
      if (outgoing.headersSent || outgoing.destroyed) return outgoing.destroy();
      refuse(outgoing, internalError(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${hostname}:${address.port}`;
  return {
    mock,
    url: origin,
    port: address.port,
    adminToken,
    close: () =>
      new Promise<void>((resolve, reject) => {
        sessions.closeAll();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
