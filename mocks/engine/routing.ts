/**
 * The one router of the mock: which line of a table a method and path name, or the error HTTP
 * says to answer. The API's 64 requests (`api/router.ts`) and the control API's operations
 * (`doors/control/`) are both routed here, so 404, 405 with `Allow` (HEAD listed wherever GET is),
 * HEAD answered as GET, and 501 for a method HTTP does not define are written once.
 *
 * A table's path templates are compiled once into a tree of their segments (a literal segment,
 * or `{param}` for any non-empty one), so finding a route costs a few map reads whatever the
 * number of routes. Literal segments are compared as sent (percent-encoded); the raw values of
 * the parameters are returned for the caller to decode.
 * @module
 */
import { MockHttpError } from './replies';

/** One line of a table: its method and path template (`/api/v1/server/members/{memberId}`), and what it routes to. */
export interface RouteLine<Value> {
  readonly method: string;
  readonly path: string;
  readonly value: Value;
}

/** How a table's refusals are worded, and what it allows beyond its templates. */
export interface RouterRules {
  /** The message of a 404: no template fits `path`. */
  notFound(path: string): string;
  /** How a 405 lists the methods of a path (`GET, HEAD or POST`). */
  listMethods(methods: readonly string[]): string;
  /** The methods a path may lack (a 405); any other is a 501 wherever it is sent. Absent: every method is one a path may lack. */
  knownMethods?: ReadonlySet<string>;
  /** Whether one trailing slash names the same path. */
  trailingSlash: boolean;
}

/** What a method and path name: a line's value and the raw (percent-encoded) values of its parameters, or the error to answer. */
export type Routed<Value> = { readonly value: Value; readonly params: readonly string[] } | { readonly refusal: MockHttpError };

/** What stands for a parameter among a template's segments. */
export const PARAM = '{}';

/** The segments of a path template, {@link PARAM} standing for each parameter: `/api/v1/server/members/{memberId}` → `['api', …, '{}']`. */
export const templateSegments = (path: string): string[] =>
  path
    .split('/')
    .slice(1)
    .map((segment) => (/^\{\w+\}$/.test(segment) ? PARAM : segment));

/** A path's place in the tree: the lines whose template ends here, and where its next segment leads. */
interface Node<Value> {
  readonly literal: Map<string, Node<Value>>;
  param: Node<Value> | undefined;
  readonly lines: { readonly line: RouteLine<Value>; readonly order: number }[];
}

const node = <Value>(): Node<Value> => ({ literal: new Map(), param: undefined, lines: [] });

/** A line whose template a path fits, with the raw values of its parameters. */
interface Match<Value> {
  readonly line: RouteLine<Value>;
  readonly order: number;
  readonly params: readonly string[];
}

/**
 * Every line whose template fits `segments` from `index`, below `at`. Two templates can fit one
 * path (`/members/chat/{chatId}` and `/members/{memberId}/chat`, `/tokens/current` and
 * `/tokens/{tokenId}`): all are found, literal segments first.
 */
function collect<Value>(at: Node<Value>, segments: readonly string[], index: number, end: number, params: string[], found: Match<Value>[]) {
  if (index === end) {
    for (const { line, order } of at.lines) found.push({ line, order, params: [...params] });
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

/** `GET` answers HEAD too (RFC 9110 §9.3.2): the methods a 405 lists for a path whose lines have `methods`. */
const allowedOf = (methods: readonly string[]) => [
  ...new Set(methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]))),
];

/**
 * The router of `lines` (compiled once): the line `method` and `path` name (HEAD: the GET's;
 * where two fit, the table's first), or the error to answer: 501 for a method `rules` does not
 * know, 405 with `Allow` for a path some line has, 404 for any other path.
 */
export function createRouter<Value>(lines: readonly RouteLine<Value>[], rules: RouterRules) {
  const root = node<Value>();
  for (const [order, line] of lines.entries()) {
    let at = root;
    for (const segment of templateSegments(line.path)) {
      if (segment === PARAM) at = at.param ??= node();
      else at = at.literal.get(segment) ?? (at.literal.set(segment, node()), at.literal.get(segment)!);
    }
    at.lines.push({ line, order });
  }

  /** Every line whose template fits `path`, in the table's order. */
  function matching(path: string): Match<Value>[] {
    if (path[0] !== '/') return [];
    const segments = path.split('/');
    // One trailing slash is the same path where the rules say so; the empty segment it leaves is not one of the template's.
    const trailing = rules.trailingSlash && segments.length > 2 && segments[segments.length - 1] === '';
    const found: Match<Value>[] = [];
    collect(root, segments, 1, trailing ? segments.length - 1 : segments.length, [], found);
    return found.length > 1 ? found.sort((a, b) => a.order - b.order) : found;
  }

  return (method: string, path: string): Routed<Value> => {
    const found = matching(path);
    const wanted = method === 'HEAD' ? 'GET' : method;
    const hit = found.find((match) => match.line.method === wanted);
    if (hit) return { value: hit.line.value, params: hit.params };
    if (rules.knownMethods && !rules.knownMethods.has(method)) {
      return { refusal: new MockHttpError(501, 'method_not_implemented', `${method} is not a method this API knows`) };
    }
    if (found.length === 0) return { refusal: new MockHttpError(404, 'route_not_found', rules.notFound(path)) };
    const allowed = allowedOf(found.map((match) => match.line.method));
    return {
      refusal: new MockHttpError(
        405,
        'method_not_allowed',
        `${method} is not allowed here; use ${rules.listMethods(allowed)}`,
        { allowed },
        { allow: allowed.join(', ') },
      ),
    };
  };
}
