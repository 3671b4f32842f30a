/**
 * The mock's MSW request handlers: one per request of the API, each built from the client's
 * endpoint line and the mock's route for it, around one pipeline that every request goes through:
 *
 *   latency → fault → rate limit → authentication → path and paging checks → route → response
 *
 * A request keeps the state it arrived in (see `MockState`) to its answer: one in flight across
 * `mock.reset()` finishes in the state it began in, and takes no fault of the new one.
 * A fault (`mock.faults`) acts first, as a failure upstream of the service would: it delays the
 * request, answers it with an error status, or fails the connection (a `Response.error()`, which
 * msw turns into a failed fetch and `mock.fetch` and the HTTP server check for).
 * Handlers answer on any origin, in Node as in a browser, but only the spec's paths from the
 * origin: `/api/v1/server/info`, never `/prefix/api/v1/server/info`, so a client with a wrong
 * `baseUrl` fails against the mock as it would against the service. HEAD is answered wherever GET
 * is, with the status and headers the GET would give and no body (RFC 9110 §9.3.2), so link
 * checkers and `curl -I` see what a GET would. Two extra handlers frame the 64: a guard in front
 * answers 400 for a path whose percent-encoding is broken (MSW's matcher would throw on it), and
 * a fallback behind answers every request that looks like the API's (a path with `/api/`, or one
 * ending like one of the 64) but is none of them: 404, 405 with `Allow`, or 501 for a method HTTP
 * does not define. Anything else is left to the caller's other handlers, so no request to the
 * mock ever ends in a 500.
 * @module
 */
import { http, type HttpHandler } from 'msw';
import { resources } from '../src/resources/index';
import { endpointsOf, type Endpoint } from '../src/core/endpoint';
import { arrival, type Arrival } from './journal';
import { fail as raise, type MockState, type Route, type RouteContext } from './context';
import { DEFAULT_PAGE_SIZE, parsePageQuery, type PageQuery } from './paging';
import { faultError, isNetworkFailure, networkFailure, type Fault } from './faults';
import { errorResponse, internalError, invalidParameter, invalidPath, json, MockHttpError, notFound, type AuthErrorShape } from './replies';
import { routes } from './routes';
import { sleep } from '../src/core/sleep';

/** One request of the API as the mock serves it. */
export interface MockRoute {
  readonly endpoint: Endpoint;
  readonly handler: HttpHandler;
  /** The HEAD handler beside a GET's: the GET's answer without its body. */
  readonly head: HttpHandler | undefined;
  /** Matches the request paths this route answers: its template from the origin, on any origin. */
  readonly pattern: RegExp;
  /** Matches paths that end like this route's: what a client with a wrong base path sends. */
  readonly suffix: RegExp;
}

export interface PipelineOptions {
  authErrorShape: AuthErrorShape;
}

const INT32 = /^-?\d{1,10}$/;
const NO_PAGE: PageQuery = { page: 1, pageSize: DEFAULT_PAGE_SIZE, orderBy: undefined, sort: undefined };

/** The route of the request named `name` (`cad.calls.list`): the route table has the client's shape. */
const routeOf = (name: string): Route =>
  name.split('.').reduce<unknown>((table, key) => (table as Record<string, unknown>)[key], routes) as Route;

/** The path parameters of `endpoint` in path order; int32 ones become numbers or a 400. */
function pathParams(endpoint: Endpoint, raw: Record<string, string | readonly string[] | undefined>): (string | number)[] {
  const values: (string | number)[] = [];
  for (const part of endpoint.parts) {
    if (typeof part === 'string') continue;
    const value = String(raw[part.name] ?? '');
    if (part.kind === 'string') values.push(value);
    else {
      const number = INT32.test(value) ? Number(value) : Number.NaN;
      if (!(number >= -(2 ** 31) && number < 2 ** 31)) throw invalidParameter(part.name, value, 'a 32-bit integer');
      values.push(number);
    }
  }
  return values;
}

/** The path template of `endpoint` as a regular expression source, with an optional trailing slash. */
function templateOf(endpoint: Endpoint): string {
  const source = endpoint.parts.map((part) => (typeof part === 'string' ? part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : '[^/]+')).join('');
  return `${source}/?$`;
}

// The methods HTTP defines (RFC 9110, and PATCH): on a known path, one the API lacks is a 405;
// any other method is one the mock never knows, a 501 wherever it is sent.
const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** The methods that reach `endpoint`: its own, and HEAD beside GET. */
const methodsOf = (endpoint: Endpoint): string[] => (endpoint.method === 'GET' ? ['GET', 'HEAD'] : [endpoint.method]);

/** `GET`, `GET or POST`, `GET, HEAD or POST`. */
const orList = (words: readonly string[]) => (words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? ''));

/** `response` as the answer to a HEAD: the same status and headers, no body; a failed connection stays one. */
const bodyless = (response: Response): Response =>
  isNetworkFailure(response)
    ? response
    : new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });

/** `response` as the answer to a request of `method`: a HEAD gets no body, whatever the answer. */
const forMethod = (method: string, response: Response): Response => (method.toUpperCase() === 'HEAD' ? bodyless(response) : response);

/** Whether every `%` escape of the path decodes; MSW's matcher throws on one that does not. */
export function hasBrokenEscapes(url: string): boolean {
  try {
    decodeURIComponent(new URL(url).pathname);
    return false;
  } catch {
    return true;
  }
}

/**
 * The pipeline over the mock's state, which `current` reads (`mock.reset()` replaces it). Every
 * door's request takes the state current when it arrives, and keeps it to its answer.
 */
export function createHandlers(current: () => MockState, options: PipelineOptions) {
  const count = (state: MockState, response: Response) => {
    state.served.set(response.status, (state.served.get(response.status) ?? 0) + 1);
    return response;
  };

  const renderError = (state: MockState, error: unknown, headers: Record<string, string> = {}) => {
    // Anything else is a bug in the mock, not the caller's doing: say so rather than crash the test run.
    return count(state, errorResponse(error instanceof MockHttpError ? error : internalError(error), options.authErrorShape, headers));
  };

  /** `response`, kept in the journal of `state` as the answer to `request` by the request named `endpoint`. */
  const answered = (state: MockState, request: Arrival, endpoint: string | null, response: Response) =>
    state.journal.record(request, endpoint, response, state.store, state.now());

  async function serve(
    name: string,
    endpoint: Endpoint,
    route: Route,
    request: Request,
    raw: Record<string, string | readonly string[] | undefined>,
  ) {
    const state = current();
    try {
      const latency = state.latency();
      if (latency > 0) await sleep(latency, request.signal);
      // Read before the route consumes the body.
      const seen = await arrival(request.method, request.url, request);
      // Faults are the current state's: a request a reset overtook takes none of the new one's.
      const fault = state === current() ? state.faults.take(name) : undefined;
      const response = (fault && (await faulted(state, fault, request))) ?? (await respond(state, endpoint, route, request, raw));
      return answered(state, seen, name, response);
    } catch (error) {
      // The caller gave up while the mock waited (latency, a fault's delay): nobody reads an
      // answer, and none is journaled. A handler that threw would make msw report a crash.
      if (request.signal.aborted) return networkFailure();
      throw error;
    }
  }

  /** What `fault` answers after its delay: an error status, a failed connection, or nothing (the request goes on). */
  async function faulted(state: MockState, fault: Fault, request: Request): Promise<Response | undefined> {
    if (fault.latencyMs > 0) await sleep(fault.latencyMs, request.signal);
    if (fault.network) return networkFailure();
    return fault.status === undefined ? undefined : renderError(state, faultError(fault.status, state.gate.rateLimit, state.now()));
  }

  async function respond(
    state: MockState,
    endpoint: Endpoint,
    route: Route,
    request: Request,
    raw: Record<string, string | readonly string[] | undefined>,
  ) {
    let headers: Record<string, string> = {};
    try {
      const now = state.now();
      // The limit is per token (spec Part 8): the four probes carry none and are not counted, so a
      // load balancer's health checks never meet a 429 their description does not have.
      headers = endpoint.auth ? state.gate.admit(request, state.store, now) : {};
      const token = endpoint.auth ? state.gate.authenticate(request, state.store, now) : undefined;
      const params = pathParams(endpoint, raw);
      const query = endpoint.kind === 'page' ? parsePageQuery(new URL(request.url).searchParams) : NO_PAGE;
      const context: RouteContext = {
        request,
        params,
        query,
        get token() {
          return token!;
        },
        get server() {
          return state.store.server(token!.serverId) ?? raise(notFound('server'));
        },
        mock: state,
      };
      const result = await route(context);
      if (!(result instanceof Response)) return count(state, json(200, result, headers));
      for (const [name, value] of Object.entries(headers)) result.headers.set(name, value);
      return count(state, result);
    } catch (error) {
      return renderError(state, error, headers);
    }
  }

  const mockRoutes: MockRoute[] = endpointsOf(resources).map(({ name, endpoint }) => {
    const route = routeOf(name);
    const path = `*${endpoint.path.replace(/\{(\w+)\}/g, ':$1')}`;
    const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'delete';
    const pattern = new RegExp(`^${templateOf(endpoint)}`);
    // MSW's `*` prefix matches any origin (and any base path): the resolver declines a path that
    // is not the template from the origin, so the fallback answers it.
    const fits = (request: Request) => pattern.test(new URL(request.url).pathname);
    const handler = http[method](path, ({ request, params }) =>
      fits(request) ? serve(name, endpoint, route, request, params) : undefined,
    );
    const head =
      method === 'get'
        ? http.head(path, async ({ request, params }) =>
            fits(request) ? bodyless(await serve(name, endpoint, route, request, params)) : undefined,
          )
        : undefined;
    return { endpoint, handler, head, pattern, suffix: new RegExp(templateOf(endpoint)) };
  });

  /**
   * The answer to a request no route serves: 501 for a method HTTP does not define, 405 (with
   * `Allow`, HEAD listed wherever GET is) for a known path and another method, 404 otherwise. It
   * takes the method and URL, the `Request` only where there is one: `fetch` cannot even build
   * one for TRACE or CONNECT.
   */
  const unknownRoute = async (method: string, url: string, request?: Request) => {
    const state = current();
    const seen = await arrival(method, url, request);
    const path = new URL(url).pathname;
    const allowed = [...new Set(mockRoutes.filter((r) => r.pattern.test(path)).flatMap((r) => methodsOf(r.endpoint)))];
    const error = !HTTP_METHODS.has(method)
      ? new MockHttpError(501, 'method_not_implemented', `${method} is not a method this API knows`)
      : allowed.length
        ? new MockHttpError(
            405,
            'method_not_allowed',
            `${method} is not allowed here; use ${orList(allowed)}`,
            { allowed },
            { allow: allowed.join(', ') },
          )
        : new MockHttpError(404, 'route_not_found', `no request of the API has the path ${path}`);
    return answered(state, seen, null, forMethod(method, renderError(state, error)));
  };

  /** Whether a path is one a client of the API would send: under `/api/`, or ending like a route. */
  const looksLikeApi = (path: string) => path.includes('/api/') || mockRoutes.some((r) => r.suffix.test(path));

  const brokenPath = async (request: Request) => {
    const state = current();
    const seen = await arrival(request.method, request.url, request);
    return answered(
      state,
      seen,
      null,
      forMethod(request.method, renderError(state, invalidPath('the path has a malformed percent-encoding'))),
    );
  };

  const guard = http.all(
    ({ request }) => hasBrokenEscapes(request.url),
    ({ request }) => brokenPath(request),
  );
  // A predicate, not a resolver that declines: a handler that matches and declines would make MSW
  // pass the request through silently, hiding it from the caller's `onUnhandledRequest`.
  const fallback = http.all(
    ({ request }) => looksLikeApi(new URL(request.url).pathname),
    ({ request }) => unknownRoute(request.method, request.url, request),
  );

  return {
    /** The routes of all 64 requests. */
    routes: mockRoutes,
    /** Guard, the 64 and their HEADs, fallback: what an MSW server or worker uses. */
    handlers: [guard, ...mockRoutes.flatMap((r) => (r.head ? [r.handler, r.head] : [r.handler])), fallback],
    unknownRoute,
    brokenPath,
  };
}
