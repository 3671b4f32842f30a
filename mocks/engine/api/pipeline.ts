/**
 * The one pipeline every request to the mock goes through, whichever door it came in by (the HTTP
 * server, `mock.fetch`, msw's handlers):
 *
 *   route → latency → fault → rate limit → authentication → path and paging checks → route → answer
 *
 * Each door reads a request once into an {@link Incoming} (method, path, query, its
 * `Authorization` parsed by the one reader of it, body text) and writes the {@link MockAnswer} out
 * its own way; the pipeline looks the credential's token up once ({@link credentialOf}) and hands
 * it to the rate limit, authentication and the journal, and a route only what it needs
 * (`RouteContext`). Each request is routed once: by the pipeline, or by the door that had to
 * route it to find its handler (msw's), which hands the route over (`answerRouted`).
 *
 * A request keeps the state it arrived in (see `MockState`) to its answer: one in flight across
 * `mock.reset()` finishes in the state it began in, and takes no fault of the new one. A fault
 * (`mock.faults`) acts first, as a failure upstream of the service would: it delays the request,
 * answers it with an error status, or fails the connection ({@link NO_ANSWER}). HEAD is answered
 * wherever GET is, with the status and headers the GET would give and no body (RFC 9110 §9.3.2).
 * A path whose percent-encoding is broken is a 400; a request no route serves a 404, 405 or 501
 * (see `../routing.ts`): no request to the mock ever ends in a 500 but for a bug of the mock's own.
 * @module
 */
import { sleep } from '../../../src/core/sleep';
import type { AuthErrorShape } from '../../contract/options';
import { credentialOf, type Authorization, type Credential } from '../auth';
import { fail as raise, type RouteContext } from './context';
import type { MockState } from '../state';
import { faultError, type Fault } from '../faults';
import { DEFAULT_PAGE_SIZE, parsePageQuery, type PageQuery } from './paging';
import {
  bodyless,
  errorAnswer,
  internalError,
  invalidParameter,
  invalidPath,
  isAnswer,
  json,
  MockHttpError,
  NO_ANSWER,
  notFound,
  withHeaders,
  type MockAnswer,
} from '../replies';
import { routing, type RouteEntry, type Routing } from './router';

/** One request as a door hands it to the pipeline: read once, whatever door it came in by. */
export interface Incoming {
  /** Upper case. */
  readonly method: string;
  /** The path from the mock's base, as sent (percent-encoded). */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The `Authorization` header, read once by the door (`readAuthorization`). */
  readonly authorization: Authorization;
  /** The body's text; `undefined` without one. */
  readonly body: string | undefined;
  /** Aborted when the caller gives up: the mock stops waiting and answers nothing. */
  readonly signal: AbortSignal | undefined;
}

export interface PipelineOptions {
  authErrorShape: AuthErrorShape;
}

const INT32 = /^-?\d{1,10}$/;
const NO_PAGE: PageQuery = { page: 1, pageSize: DEFAULT_PAGE_SIZE, orderBy: undefined, sort: undefined };

/** The path parameters of `entry` in path order, from their `raw` (percent-encoded) text: decoded; int32 ones numbers or a 400. */
function pathParams({ endpoint }: RouteEntry, raw: readonly string[]): (string | number)[] {
  const values: (string | number)[] = [];
  let index = 0;
  for (const part of endpoint.parts) {
    if (typeof part === 'string') continue;
    const value = decodeURIComponent(raw[index++]!);
    if (part.kind === 'string') values.push(value);
    else {
      const number = INT32.test(value) ? Number(value) : Number.NaN;
      if (!(number >= -(2 ** 31) && number < 2 ** 31)) throw invalidParameter(part.name, value, 'a 32-bit integer');
      values.push(number);
    }
  }
  return values;
}

/** The route of a request: none for a path whose percent-encoding is broken (a 400), else the router's. */
export const routed = (method: string, path: string): Routing =>
  hasBrokenEscapes(path) ? { refusal: invalidPath('the path has a malformed percent-encoding') } : routing(method, path);

/** Whether every `%` escape of `path` decodes. */
export function hasBrokenEscapes(path: string): boolean {
  if (!path.includes('%')) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/**
 * The pipeline over the mock's state, which `current` reads (`mock.reset()` replaces it): what
 * answers each request. Every door's request takes the state current when it arrives, and keeps
 * it to its answer.
 */
export function createPipeline(current: () => MockState, options: PipelineOptions) {
  const count = (state: MockState, answer: MockAnswer) => {
    state.served.set(answer.status, (state.served.get(answer.status) ?? 0) + 1);
    return answer;
  };

  // Anything but a MockHttpError is a bug in the mock, not the caller's doing: say so rather than crash the test run.
  const errorOf = (state: MockState, error: unknown, headers: Record<string, string> = {}) =>
    count(state, errorAnswer(error instanceof MockHttpError ? error : internalError(error), options.authErrorShape, headers));

  /** What `fault` answers after its delay: an error status, no answer, or `undefined` (the request goes on). */
  async function faulted(state: MockState, fault: Fault, signal: AbortSignal | undefined): Promise<MockAnswer | undefined> {
    if (fault.latencyMs > 0) await sleep(fault.latencyMs, signal);
    if (fault.network) return NO_ANSWER;
    return fault.status === undefined ? undefined : errorOf(state, faultError(fault.status, state.admission.rateLimit, state.now()));
  }

  /** Rate limit, authentication, the route's checks and the route itself. */
  async function respond(state: MockState, entry: RouteEntry, raw: readonly string[], incoming: Incoming, credential: Credential) {
    const { endpoint, route } = entry;
    let headers: Record<string, string> = {};
    try {
      const now = state.now();
      // The limit is per token (spec Part 8): the four probes carry none and are not counted, so a
      // load balancer's health checks never meet a 429 their description does not have.
      headers = endpoint.auth ? state.admission.countRequest(credential, now) : {};
      const token = endpoint.auth ? state.admission.authenticate(credential, now) : undefined;
      const context: RouteContext = {
        params: pathParams(entry, raw),
        query: endpoint.kind === 'page' ? parsePageQuery(incoming.query) : NO_PAGE,
        body: incoming.body,
        get token() {
          return token!;
        },
        get server() {
          return state.store.server(token!.serverId) ?? raise(notFound('server'));
        },
        mock: state,
      };
      const result = await route(context);
      return count(state, isAnswer(result) ? withHeaders(result, headers) : json(200, result, headers));
    } catch (error) {
      return errorOf(state, error, headers);
    }
  }

  /** The answer of the route `entry`: after the latency and any fault, its own. */
  async function serve(state: MockState, entry: RouteEntry, raw: readonly string[], incoming: Incoming, credential: Credential) {
    const latency = state.latency();
    if (latency > 0) await sleep(latency, incoming.signal);
    // Faults are the current state's: a request a reset overtook takes none of the new one's.
    const fault = state === current() ? state.faults.take(entry.name) : undefined;
    return (fault && (await faulted(state, fault, incoming.signal))) ?? (await respond(state, entry, raw, incoming, credential));
  }

  /** The answer to `incoming`, routed as `found` says, kept in the journal; {@link NO_ANSWER} where none is given. */
  async function answerRouted(incoming: Incoming, found: Routing): Promise<MockAnswer> {
    const state = current();
    const credential = credentialOf(incoming.authorization, state.store);
    let answered: MockAnswer;
    if ('refusal' in found) answered = errorOf(state, found.refusal);
    else {
      try {
        answered = await serve(state, found.value, found.params, incoming, credential);
      } catch (error) {
        // The caller gave up while the mock waited (latency, a fault's delay): nobody reads an
        // answer, and none is journaled.
        if (incoming.signal?.aborted) return NO_ANSWER;
        throw error;
      }
    }
    state.journal.record(
      {
        method: incoming.method,
        path: incoming.path,
        query: incoming.query,
        body: incoming.body,
        credential,
        endpoint: 'value' in found ? found.value.name : null,
        status: answered.status,
        at: state.now(),
      },
      state.store.tokens.ordered(),
    );
    return incoming.method === 'HEAD' ? bodyless(answered) : answered;
  }

  /** The answer to `incoming`, kept in the journal; {@link NO_ANSWER} where none is given. */
  const answer = (incoming: Incoming): Promise<MockAnswer> => answerRouted(incoming, routed(incoming.method, incoming.path));

  return { answer, answerRouted };
}

/** What answers each request: {@link createPipeline}'s. */
export type Pipeline = ReturnType<typeof createPipeline>;
