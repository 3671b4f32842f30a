/**
 * Which of the API's 64 requests a method and path name, from a table compiled once from the
 * client's endpoint lines by the mock's one router (`../routing.ts`). Only the spec's paths from
 * the origin are routes: `/api/v1/server/info`, never `/prefix/api/v1/server/info`, and one
 * trailing slash is allowed. Literal segments are compared as sent (percent-encoded); parameters
 * are decoded.
 *
 * A request no route serves is answered as HTTP says: 501 for a method HTTP does not define,
 * 405 (with `Allow`, HEAD listed wherever GET is) for a known path and another method, 404
 * otherwise. HEAD takes the GET's route.
 * @module
 */
import { endpointsOf, type Endpoint } from '../../../src/core/endpoint';
import { resources } from '../../../src/resources/index';
import { entryAt } from '../../contract/operations';
import { createRouter, PARAM, templateSegments, type Routed } from '../routing';
import type { Route } from './context';
import { routes } from './routes';

/** One request of the API as the mock serves it: the client's method name, its endpoint line and its route. */
export interface RouteEntry {
  /** The client's method name (`members.get`). */
  readonly name: string;
  readonly endpoint: Endpoint;
  readonly route: Route;
}

/** The route of the request named `name` (`cad.calls.list`): the route table has the client's shape. */
const routeOf = (name: string): Route => entryAt(routes, name) as Route;

// The methods HTTP defines (RFC 9110, and PATCH): on a known path, one the API lacks is a 405;
// any other method is one the mock never knows, a 501 wherever it is sent.
const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** `GET`, `GET or POST`, `GET, HEAD or POST`. */
const orList = (words: readonly string[]) => (words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? ''));

/** The routes of all 64 requests, in the client's order, compiled once: every mock and session uses the same table. */
export const ROUTES: readonly RouteEntry[] = endpointsOf(resources).map(({ name, endpoint }) => ({ name, endpoint, route: routeOf(name) }));

/** What a method and path name: a route and its raw (percent-encoded) path parameters, or the error to answer. */
export type Routing = Routed<RouteEntry>;

/**
 * The route `method` and `path` name (HEAD: the GET's; where two fit, the client's first), or
 * the error to answer: 501 for a method HTTP does not define, 405 with `Allow` for a known path,
 * 404 for any other path.
 */
export const routing: (method: string, path: string) => Routing = createRouter(
  ROUTES.map((entry) => ({ method: entry.endpoint.method, path: entry.endpoint.path, value: entry })),
  {
    notFound: (path) => `no request of the API has the path ${path}`,
    listMethods: orList,
    knownMethods: HTTP_METHODS,
    trailingSlash: true,
  },
);

/** Each route's segments, for {@link looksLikeApi}: what a path ending like a route's ends with. */
const templates = ROUTES.map((entry) => templateSegments(entry.endpoint.path));

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
