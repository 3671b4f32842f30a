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
import { setupServer, type SetupServer } from 'msw/node';
import { checkOptions, describe, isPlainObject, kindOf } from '../src/core/arguments';
import { InvalidArgumentError } from '../src/core/errors';
import { MOCK_OPTION_NAMES } from './contract/options';
import { adminTokenProblem, createControlPlane, newAdminToken } from './doors/control/plane';
import { listen, type Root } from './doors/http/server';
import { createMockApi, engineOf, isMock, type MockApi } from './doors/mock-api';
import { requireMock } from './doors/mock-argument';
import { createSessions, DEFAULT_MAX_SESSION_ROWS, DEFAULT_MAX_SESSIONS, sessionRuns } from './doors/sessions/sessions';
import { engineRuns } from './engine/operations';

export type { MockSessionInfo, MockSessionOptions, NewMockSession } from './contract/sessions';

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
  const { engine, fetch: own } = engineOf(mock);
  // In-process writes too (a test's `mock.store.tokens.create`) can never give a token the admin token's secret.
  engine.reserveSecret(adminToken);
  const sessions = createSessions(engine, { maxSessions, maxRows: maxSessionRows });
  const runs = engineRuns(engine);
  const root: Root = {
    engine,
    control: createControlPlane(engine, adminToken, (origin) => ({ ...runs, sessions: sessionRuns(sessions, origin) })),
    wrapper: () => (mock.fetch === own ? undefined : mock.fetch),
  };
  const listening = await listen(root, sessions, port, host);
  return { mock, url: listening.url, port: listening.port, adminToken, close: () => listening.close() };
}
