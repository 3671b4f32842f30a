/**
 * The doors of the mock that speak `Request` and `Response`: its MSW request handlers and
 * `mock.fetch`. Each reads a `Request` once into the pipeline's `Incoming` and writes its answer
 * out as a `Response`; the pipeline (`engine/api/pipeline.ts`) does the rest, as for the HTTP
 * server. Each request is routed once: an msw handler of one of the 64 routes it to find whether
 * it is its own, and hands that route to the pipeline.
 *
 * The handlers are one per request of the API (and HEAD beside each GET), on any origin, in Node
 * as in a browser, but only the spec's paths from the origin: `/api/v1/server/info`, never
 * `/prefix/api/v1/server/info`, so a client with a wrong `baseUrl` fails against the mock as it
 * would against the service. Two extra handlers frame them: a guard in front answers 400 for a
 * path whose percent-encoding is broken (MSW's matcher would throw on it), and a fallback behind
 * answers every request that looks like the API's (a path with `/api/`, or one ending like one of
 * the 64) but is none of them: 404, 405 with `Allow`, or 501. Anything else is left to the
 * caller's other handlers.
 * @module
 */
import { http, type HttpHandler } from 'msw';
import { hasBrokenEscapes, routed, type Incoming, type Pipeline } from '../engine/api/pipeline';
import { looksLikeApi, ROUTES } from '../engine/api/router';
import { readAuthorization } from '../engine/auth';
import { fetchFailed } from '../engine/faults';
import { isNoAnswer, type MockAnswer } from '../engine/replies';

/**
 * `request` as the pipeline reads it; `method` where the request is a stand-in of another
 * (TRACE), `signal` where the caller's is not the request's own (`mock.fetch`).
 */
export async function incomingOf(
  request: Request,
  method = request.method,
  signal: AbortSignal | undefined = request.signal,
): Promise<Incoming> {
  const url = new URL(request.url);
  return {
    method: method.toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    authorization: readAuthorization(request.headers.get('authorization')),
    // GET and HEAD carry no body: nothing to read.
    body: request.body ? await request.text() : undefined,
    signal,
  };
}

/** `answer` as a `Response`; no answer is a `Response.error()`, which msw turns into a failed fetch. */
export const responseOf = (answer: MockAnswer): Response =>
  isNoAnswer(answer) ? Response.error() : new Response(answer.body, { status: answer.status, headers: answer.headers });

// `new Request` throws on these methods: `mock.fetch` reads such a request through a stand-in.
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * A `fetch` answered by `pipeline` in-process. A bare path (`/api/v1/...`) is welcome: the mock
 * answers on any origin. Where the mock gives no answer, it rejects as undici's would: with the
 * caller's abort reason, or `TypeError('fetch failed')` for a network fault.
 */
export function mockFetchOf(pipeline: Pipeline): typeof globalThis.fetch {
  return async (input, init) => {
    const target = typeof input === 'string' && input.startsWith('/') ? `http://localhost${input}` : input;
    const method = (init?.method ?? (target instanceof Request ? target.method : 'GET')).toUpperCase();
    const signal = callerSignal(target, init);
    // The Request that reads the call follows no signal: one that did would hang a listener on the
    // caller's (a client's 30 s timeout, a bot's shutdown signal) until that signal is collected
    // or fires, ~1.2 KB a request. The caller's signal itself goes to the pipeline, which listens
    // only while it waits.
    const reading = { ...init, signal: null };
    // TRACE, CONNECT and TRACK are answered as any method the API lacks (405, 404, or 501 for
    // TRACK), never with a thrown TypeError: their headers and body are read through a POST.
    const request = FORBIDDEN_METHODS.has(method)
      ? new Request(target, { ...reading, method: 'POST', duplex: 'half' } as RequestInit)
      : new Request(target, reading);
    const answer = await pipeline.answer(await incomingOf(request, method, signal));
    if (isNoAnswer(answer)) throw signal?.aborted ? (signal.reason as Error) : fetchFailed();
    return responseOf(answer);
  };
}

/** The signal a `fetch(input, init)` call follows, as fetch reads it: `init.signal` when given (`null`: none), else the Request's. */
function callerSignal(input: RequestInfo | URL, init: RequestInit | undefined): AbortSignal | undefined {
  if (init?.signal !== undefined) return init.signal ?? undefined;
  return input instanceof Request ? input.signal : undefined;
}

/** Guard, the 64 and their HEADs, fallback: what an MSW server or worker uses, all answered by `pipeline`. */
export function mswHandlersOf(pipeline: Pipeline): HttpHandler[] {
  const answer = async (request: Request) => responseOf(await pipeline.answer(await incomingOf(request)));
  const routeHandlers = ROUTES.flatMap(({ name, endpoint }) => {
    // MSW's `*` prefix matches any origin (and any base path): the resolver declines a path that
    // is not the template from the origin, so the fallback answers it. The route it finds is the
    // one the pipeline answers by: the request is routed once.
    const path = `*${endpoint.path.replace(/\{(\w+)\}/g, ':$1')}`;
    const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'delete';
    const resolver = async ({ request }: { request: Request }) => {
      const found = routed(request.method, new URL(request.url).pathname);
      if (!('value' in found) || found.value.name !== name) return undefined;
      return responseOf(await pipeline.answerRouted(await incomingOf(request), found));
    };
    return method === 'get' ? [http.get(path, resolver), http.head(path, resolver)] : [http[method](path, resolver)];
  });
  const guard = http.all(
    ({ request }) => hasBrokenEscapes(new URL(request.url).pathname),
    ({ request }) => answer(request),
  );
  // A predicate, not a resolver that declines: a handler that matches and declines would make MSW
  // pass the request through silently, hiding it from the caller's `onUnhandledRequest`.
  const fallback = http.all(
    ({ request }) => looksLikeApi(new URL(request.url).pathname),
    ({ request }) => answer(request),
  );
  return [guard, ...routeHandlers, fallback];
}
