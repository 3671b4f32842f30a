/**
 * The wire: one ky instance per client carrying base URL, bearer auth, per-attempt timeout and
 * retries (GET only, with backoff, jitter and `Retry-After`), and the translation of whatever
 * goes wrong into the SDK's typed errors. Everything here is ky's own behaviour, configured;
 * only the error translation is ours.
 * @module
 */
import ky, { HTTPError, TimeoutError as KyTimeoutError, isHTTPError } from 'ky';
import type { RequestOptions } from './endpoint';
import {
  AbortError,
  CommunityServerError,
  ConnectionError,
  TimeoutError,
  apiError,
  parseErrorBody,
  retryAfterSeconds,
  type RequestTarget,
} from './errors';
import { RateLimitGate, type Gate } from './rate-limit';
import { StoreGate, type RateLimitMode } from './rate-limit-store';
import { label, type Log } from './log';
import { describeThrown, redact } from './redact';

/** What the transport needs from the client's options. */
export interface TransportConfig {
  baseUrl: string;
  token: string | undefined;
  timeout: number;
  maxRetries: number;
  fetch: typeof globalThis.fetch | undefined;
  rateLimit: RateLimitMode;
  /** Warnings (a failing rate-limit store), waits (`info`) and attempts (`debug`). */
  log: Log;
}

function createGate({ rateLimit, log, baseUrl, token }: TransportConfig): Gate | undefined {
  if (rateLimit === 'off') return undefined;
  if (rateLimit === 'wait') return new RateLimitGate(log);
  return new StoreGate({ store: rateLimit, baseUrl, token, log });
}

/** One request, fully described: nothing left for the transport to decide but how to send it. */
export interface OutgoingRequest extends RequestTarget {
  /** Already encoded, with its leading `?`, or empty. */
  query: string;
  body: unknown;
  auth: boolean;
  accept: string;
  /** The endpoint's own default retries, if it has one; else the client's apply. */
  maxRetries: number | undefined;
  options: RequestOptions;
}

/** What an answer was: the response and its whole text, read inside the attempt (see `attemptFetch`). */
export interface Received {
  response: Response;
  body: string;
}

export type Send = (request: OutgoingRequest) => Promise<Received>;

/** One call's attempts so far, shared by its fetch and its retry decisions. */
interface CallState {
  attempts: number;
  /** The latest attempt's answer: the one ky resolves with, or the one its `HTTPError` carries. */
  received: Received | undefined;
  /** The wait before the next retry, decided with the reason for it (see `retryWait`). */
  wait: number;
}

/** Statuses worth another GET: timeouts, rate limits and server errors (spec: every 5xx). */
const isRetryStatus = (status: number) => status === 408 || status === 429 || (status >= 500 && status <= 599);
/** A `Retry-After` longer than this is not waited out: the caller gets the error and decides. */
const MAX_RETRY_AFTER_SECONDS = 60;
const FIRST_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8000;

export function createTransport(config: TransportConfig): Send {
  const { log } = config;
  const authorization = config.token ? `Bearer ${config.token}` : undefined;
  // The global fetch is looked up per call, so interception installed later (msw) still applies.
  const baseFetch = config.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const gate = createGate(config);

  /**
   * The fetch of one attempt, as ky calls it (inside its timeout and retry): it waits for the
   * rate-limit budget, then reads the whole body. Reading it here makes a connection dropped
   * mid-body, or a body that stalls, this attempt's network error or timeout — retried for a
   * GET like any other — instead of a failure after the call has returned. The text goes to
   * the call's state beside the response: one read, one decode.
   */
  const attemptFetch =
    (request: OutgoingRequest, budgetMs: number, state: CallState): typeof globalThis.fetch =>
    async (input, init) => {
      const attempt = ++state.attempts;
      const signal = input instanceof Request ? input.signal : (init?.signal ?? undefined);
      const settle = await gate?.acquire(request, budgetMs, signal);
      const started = log.debug && performance.now();
      let headers: Headers | undefined;
      try {
        const response = await baseFetch(input, init);
        headers = response.headers;
        const body = await response.text();
        // An attempt ky gave up on (a fetch deaf to its timeout) must not overwrite a later one's answer.
        if (attempt === state.attempts) state.received = { response, body };
        log.debug?.(`${label(request)} → ${response.status} in ${elapsed(started)} ms (attempt ${attempt})`);
        return response;
      } catch (error) {
        log.debug?.(`${label(request)} → ${failure(error, request, signal)} after ${elapsed(started)} ms (attempt ${attempt})`);
        throw error;
      } finally {
        settle?.(headers);
      }
    };

  /**
   * Whether a failed GET attempt is tried again, and after how long (in `state.wait`, which ky
   * reads through `delay`): the decision and its wait are taken together here, so the log can
   * say both before the wait. Every retried attempt gets here, since ky asks only within the
   * retry limit and for GETs.
   */
  const retryWait = (request: OutgoingRequest, state: CallState, error: Error, retry: number, limit: number): boolean => {
    if (request.options.signal?.aborted || error instanceof CommunityServerError) return false; // ours are final (a rate-limit wait too long)
    let why: string;
    let wait = backoff(retry);
    if (isHTTPError(error)) {
      const { status, headers } = error.response;
      if (!isRetryStatus(status)) return false;
      const retryAfter = headers.get('retry-after') ?? undefined;
      const seconds = retryAfterSeconds(retryAfter);
      if (seconds !== null && seconds > MAX_RETRY_AFTER_SECONDS) return false;
      // An unreadable Retry-After is as if absent: our backoff, never a guess at it.
      if (seconds !== null) wait = seconds * 1000;
      why = seconds === null ? `${status}` : `${status}, Retry-After ${retryAfter}`;
    } else if (error instanceof KyTimeoutError) {
      why = 'timed out';
    } else if (error.name === 'AbortError') {
      return false;
    } else {
      why = `network error (${describeThrown(error)})`;
    }
    state.wait = wait;
    log.info?.(`${label(request)}: ${why}; retry ${retry} of ${limit} in ${wait} ms`);
    return true;
  };

  return async function send(request) {
    const { options } = request;
    // Header names are case-insensitive: lower-cased, ours replace a caller's `Authorization`.
    // A plain object: ky builds the one `Headers` the request needs from it.
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    headers.accept = request.accept;
    if (request.auth && authorization) headers.authorization = authorization;
    else delete headers.authorization;
    const state: CallState = { attempts: 0, received: undefined, wait: 0 };
    try {
      options.signal?.throwIfAborted(); // not every fetch checks; an aborted call must send nothing
      const timeout = options.timeout ?? config.timeout;
      const limit = options.maxRetries ?? request.maxRetries ?? config.maxRetries;
      // Built per call: plain `ky()` with complete options, since an instance from `ky.create`
      // deep-merges its defaults into every call's options (~30 µs a request).
      await ky(config.baseUrl + request.path + request.query, {
        fetch: attemptFetch(request, timeout, state),
        method: request.method,
        headers,
        ...(request.body === undefined ? {} : { json: request.body }),
        ...(options.signal ? { signal: options.signal } : {}),
        timeout,
        retry: {
          limit,
          methods: ['get'],
          shouldRetry: ({ error, retryCount }) => retryWait(request, state, error, retryCount, limit),
          delay: () => state.wait,
        },
      });
      return state.received!; // ky resolves with the latest attempt's response, read into `received`
    } catch (error) {
      // A thrown Proxy can throw again when only asked its class (`instanceof`), with the token:
      // that throw is the fetch's too, so it is reported as the failure, and nothing of it kept.
      throw await toSdkError(error, request, state, config).catch(
        () => new ConnectionError(`${request.method} ${request.path} failed: an unprintable value`),
      );
    }
  };
}

/** Capped exponential backoff with "equal jitter": at least half of it, so retries spread out but never bunch at 0. */
function backoff(retry: number): number {
  const delay = Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** (retry - 1));
  return Math.round(delay / 2 + (Math.random() * delay) / 2);
}

/** Whole milliseconds since `started` (a `performance.now()` reading). */
const elapsed = (started: number | undefined) => Math.round(performance.now() - (started ?? 0));

/** What an attempt's failure was, for its log line: ky aborts an attempt's signal only on timeout. */
function failure(error: unknown, request: OutgoingRequest, signal: AbortSignal | undefined): string {
  if (request.options.signal?.aborted) return 'aborted';
  if (signal?.aborted) return 'timed out';
  return `network error (${describeThrown(error)})`;
}

async function toSdkError(error: unknown, request: OutgoingRequest, state: CallState, config: TransportConfig): Promise<Error> {
  const target = `${request.method} ${request.path}`;
  if (error instanceof HTTPError) {
    const { response } = error;
    const text = state.received?.response === response ? state.received.body : '';
    const headers = Object.fromEntries(response.headers);
    const parsed = parseErrorBody(response.status, response.statusText, text);
    return apiError(redact({ ...parsed, headers, status: response.status, method: request.method, path: request.path }, config.token));
  }
  if (request.options.signal?.aborted) {
    return new AbortError(`${target} was aborted`, { cause: redact(request.options.signal.reason, config.token) });
  }
  if (error instanceof KyTimeoutError) {
    const timeout = request.options.timeout ?? config.timeout;
    return new TimeoutError(`${target} timed out after ${timeout} ms per attempt`);
  }
  if (error instanceof CommunityServerError) return error;
  return new ConnectionError(redact(`${target} failed: ${describeThrown(error)}`, config.token), { cause: redact(error, config.token) });
}
