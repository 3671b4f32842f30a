/**
 * Which of the API's 64 requests a method and path name, from a table compiled once from the
 * client's endpoint lines: the path's segments are walked through a tree of the templates' own
 * (a literal segment, or `{param}` for any non-empty one), so finding a route costs a few map
 * reads whatever the number of routes. Only the spec's paths from the origin are routes:
 * `/api/v1/server/info`, never `/prefix/api/v1/server/info`, and one trailing slash is allowed.
 * Literal segments are compared as sent (percent-encoded); parameters are decoded.
 *
 * A request no route serves is answered as HTTP says: 501 for a method HTTP does not define,
 * 405 (with `Allow`, HEAD listed wherever GET is) for a known path and another method, 404
 * otherwise. HEAD takes the GET's route.
 * @module
 */
import { endpointsOf, type Endpoint } from '../src/core/endpoint';
import { resources } from '../src/resources/index';
import type { Route } from './context';
import { MockHttpError } from './replies';
import { routes } from './routes';

/** One request of the API as the mock serves it: the client's method name, its endpoint line and its route. */
export interface RouteEntry {
  /** The client's method name (`members.get`). */
  readonly name: string;
  readonly endpoint: Endpoint;
  readonly route: Route;
}

/** A path's place in the tree: the routes whose template ends here, and where its next segment leads. */
interface Node {
  readonly literal: Map<string, Node>;
  param: Node | undefined;
  readonly entries: RouteEntry[];
}

const node = (): Node => ({ literal: new Map(), param: undefined, entries: [] });

/** What a method and path name: a route and its raw (percent-encoded) path parameters, or the error to answer. */
export type Routing = { readonly entry: RouteEntry; readonly params: readonly string[] } | { readonly refusal: MockHttpError };

/** The route of the request named `name` (`cad.calls.list`): the route table has the client's shape. */
const routeOf = (name: string): Route =>
  name.split('.').reduce<unknown>((table, key) => (table as Record<string, unknown>)[key], routes) as Route;

/** The segments of a path template, `{}` standing for each parameter: `/api/v1/server/members/{}` → `['api', …, '{}']`. */
const PARAM = '{}';
const templateSegments = (endpoint: Endpoint) =>
  endpoint.parts
    .map((part) => (typeof part === 'string' ? part : PARAM))
    .join('')
    .split('/')
    .slice(1);

// The methods HTTP defines (RFC 9110, and PATCH): on a known path, one the API lacks is a 405;
// any other method is one the mock never knows, a 501 wherever it is sent.
const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** `GET`, `GET or POST`, `GET, HEAD or POST`. */
const orList = (words: readonly string[]) => (words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? ''));

/** The routes of all 64 requests, in the client's order, compiled once: every mock and session uses the same table. */
export const ROUTES: readonly RouteEntry[] = endpointsOf(resources).map(({ name, endpoint }) => ({ name, endpoint, route: routeOf(name) }));

const root = node();
/** Each route's segments, for {@link looksLikeApi}: what a path ending like a route's ends with. */
const templates: (readonly string[])[] = [];
for (const entry of ROUTES) {
  const segments = templateSegments(entry.endpoint);
  let at = root;
  for (const segment of segments) {
    if (segment === PARAM) at = at.param ??= node();
    else at = at.literal.get(segment) ?? (at.literal.set(segment, node()), at.literal.get(segment)!);
  }
  at.entries.push(entry);
  templates.push(segments);
}

/** A route whose template a path fits, with the raw values of its parameters. */
interface Match {
  readonly entry: RouteEntry;
  readonly params: readonly string[];
}

/**
 * Every route whose template fits `segments` from `index`, below `at`. Two templates can fit one
 * path (`/members/chat/{chatId}` and `/members/{memberId}/chat`, `/tokens/current` and
 * `/tokens/{tokenId}`): all are found, literal segments first.
 */
function collect(at: Node, segments: readonly string[], index: number, end: number, params: string[], found: Match[]): void {
  if (index === end) {
    for (const entry of at.entries) found.push({ entry, params: [...params] });
    return;
  }
  const segment = segments[index]!;
  const next = at.literal.get(segment);
  if (next) collect(next, segments, index + 1, end, params, found);
  if (at.param && segment !== '') {
    params.push(segment);
    collect(at.param, segments, index + 1, end, params, found);
    params.pop();
  }
}

/** Every route whose template fits `path` (one trailing slash allowed), in the client's order. */
function matching(path: string): Match[] {
  if (path[0] !== '/') return [];
  const segments = path.split('/');
  // One trailing slash is the same path; the empty segment it leaves is not one of the template's.
  const end = segments.length > 2 && segments[segments.length - 1] === '' ? segments.length - 1 : segments.length;
  const found: Match[] = [];
  collect(root, segments, 1, end, [], found);
  return found.length > 1 ? found.sort((a, b) => ROUTES.indexOf(a.entry) - ROUTES.indexOf(b.entry)) : found;
}

/**
 * The route `method` and `path` name (HEAD: the GET's; where two fit, the client's first), or
 * the error to answer: 501 for a method HTTP does not define, 405 with `Allow` for a known path,
 * 404 for any other path.
 */
export function routing(method: string, path: string): Routing {
  const found = matching(path);
  const wanted = method === 'HEAD' ? 'GET' : method;
  const hit = found.find((match) => match.entry.endpoint.method === wanted);
  if (hit) return hit;
  if (!HTTP_METHODS.has(method)) {
    return { refusal: new MockHttpError(501, 'method_not_implemented', `${method} is not a method this API knows`) };
  }
  const allowed = [...new Set(found.flatMap(({ entry }) => (entry.endpoint.method === 'GET' ? ['GET', 'HEAD'] : [entry.endpoint.method])))];
  if (allowed.length === 0) return { refusal: new MockHttpError(404, 'route_not_found', `no request of the API has the path ${path}`) };
  return {
    refusal: new MockHttpError(
      405,
      'method_not_allowed',
      `${method} is not allowed here; use ${orList(allowed)}`,
      { allowed },
      { allow: allowed.join(', ') },
    ),
  };
}

/** Whether `path` ends like the template `segments`: what a client with a wrong base path sends. */
function endsLike(path: readonly string[], segments: readonly string[]): boolean {
  const offset = path.length - segments.length;
  if (offset < 1) return false;
  return segments.every((segment, index) => (segment === PARAM ? path[offset + index] !== '' : path[offset + index] === segment));
}

/**
 * Whether a path is one a client of the API would send: under `/api/`, or ending like a route
 * (one trailing slash allowed). msw leaves any other request to the caller's own handlers.
 */
export function looksLikeApi(path: string): boolean {
  if (path.includes('/api/')) return true;
  const segments = path.split('/');
  if (segments.length > 2 && segments[segments.length - 1] === '') segments.pop();
  return templates.some((template) => endsLike(segments, template));
}
