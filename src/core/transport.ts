/**
 * The wire: one ky instance per client carrying base URL, bearer auth, per-attempt timeout and
 * retries (GET only, with backoff, jitter and `Retry-After`), and the translation of whatever
 * goes wrong into the SDK's typed errors. Everything here is ky's own behaviour, configured;
 * only the error translation is ours.
 * @module
 */
import ky, { HTTPError, TimeoutError as KyTimeoutError, isHTTPError, type RetryOptions } from 'ky';
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
import { StoreGate, type RateLimitStore } from './rate-limit-store';
import { describeThrown, redact } from './redact';

/** What the transport needs from the client's options. */
export interface TransportConfig {
  baseUrl: string;
  token: string | undefined;
  timeout: number;
  maxRetries: number;
  fetch: typeof globalThis.fetch | undefined;
  /**
   * `'wait'`: hold requests while the rate-limit window is spent; `'off'`: send regardless; a
   * store: the same as `'wait'`, with the budget counted in the store.
   */
  rateLimit: 'wait' | 'off' | RateLimitStore;
  /** Warnings for the caller (a failing rate-limit store). */
  warn: (message: string) => void;
}

function createGate(config: TransportConfig): Gate | undefined {
  const { rateLimit } = config;
  if (rateLimit === 'off') return undefined;
  if (rateLimit === 'wait') return new RateLimitGate();
  return new StoreGate({ store: rateLimit, baseUrl: config.baseUrl, token: config.token, warn: config.warn });
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

export type Send = (request: OutgoingRequest) => Promise<Response>;

/** Bodies read during their attempt (see `attemptFetch`), by the response they came with. */
const bodies = new WeakMap<Response, string>();

/** The text of a response the transport returned: read once, inside its attempt. */
export const bodyOf = (response: Response): Promise<string> => {
  const body = bodies.get(response);
  return body === undefined ? response.text() : Promise.resolve(body);
};

/** Statuses worth another GET: timeouts, rate limits and server errors (spec: every 5xx). */
const RETRY_STATUSES = [408, 429, ...Array.from({ length: 100 }, (_, i) => 500 + i)];
/** A `Retry-After` longer than this is not waited out: the caller gets the error and decides. */
const MAX_RETRY_AFTER_SECONDS = 60;
const FIRST_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8000;

export function createTransport(config: TransportConfig): Send {
  const authorization = config.token ? `Bearer ${config.token}` : undefined;
  // The global fetch is looked up per call, so interception installed later (msw) still applies.
  const baseFetch = config.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const gate = createGate(config);

  /**
   * The fetch of one attempt, as ky calls it (inside its timeout and retry): it waits for the
   * rate-limit budget, then reads the whole body. Reading it here makes a connection dropped
   * mid-body, or a body that stalls, this attempt's network error or timeout — retried for a
   * GET like any other — instead of a failure after the call has returned. The text is kept
   * beside the response rather than copied into a new one: one read, one decode.
   */
  const attemptFetch =
    (request: OutgoingRequest, budgetMs: number): typeof globalThis.fetch =>
    async (input, init) => {
      const signal = input instanceof Request ? input.signal : (init?.signal ?? undefined);
      const settle = await gate?.acquire(request, budgetMs, signal);
      let headers: Headers | undefined;
      try {
        const response = await baseFetch(input, init);
        headers = response.headers;
        bodies.set(response, await response.text());
        return response;
      } finally {
        settle?.(headers);
      }
    };

  // Built once and passed whole to plain `ky()`: an instance from `ky.create` deep-merges its
  // defaults into every call's options (~30 µs a request), which the SDK need not pay, since
  // each call's options are complete here anyway.
  const retry = {
    methods: ['get'],
    statusCodes: RETRY_STATUSES,
    afterStatusCodes: RETRY_STATUSES,
    maxRetryAfter: MAX_RETRY_AFTER_SECONDS * 1000,
    retryOnTimeout: true,
    delay: (attempt: number) => FIRST_RETRY_DELAY_MS * 2 ** (attempt - 1),
    backoffLimit: MAX_RETRY_DELAY_MS,
    // "Equal jitter": at least half the backoff, so retries spread out but never bunch at 0.
    jitter: (delay: number) => delay / 2 + (Math.random() * delay) / 2,
    shouldRetry: ({ error }: { error: Error }) => {
      if (error.name === 'AbortError') return false;
      if (error instanceof CommunityServerError) return false; // ours, already final (a rate-limit wait too long)
      if (isHTTPError(error)) {
        const wait = retryAfterSeconds(error.response.headers.get('retry-after') ?? undefined);
        if (wait !== null && wait > MAX_RETRY_AFTER_SECONDS) return false;
        // No readable Retry-After: our backoff, not ky's reading of it (a 60 s cap for junk) or of other headers.
        if (wait === null && RETRY_STATUSES.includes(error.response.status)) return true;
      }
      return undefined; // ky's own rules: statuses above, network errors, timeouts
    },
  } satisfies RetryOptions;

  return async function send(request) {
    const { options } = request;
    // Header names are case-insensitive: lower-cased, ours replace a caller's `Authorization`.
    // A plain object: ky builds the one `Headers` the request needs from it.
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    headers.accept = request.accept;
    if (request.auth && authorization) headers.authorization = authorization;
    else delete headers.authorization;
    try {
      options.signal?.throwIfAborted(); // not every fetch checks; an aborted call must send nothing
      const timeout = options.timeout ?? config.timeout;
      return await ky(config.baseUrl + request.path + request.query, {
        fetch: attemptFetch(request, timeout),
        method: request.method,
        headers,
        ...(request.body === undefined ? {} : { json: request.body }),
        ...(options.signal ? { signal: options.signal } : {}),
        timeout,
        retry: { ...retry, limit: options.maxRetries ?? request.maxRetries ?? config.maxRetries },
      });
    } catch (error) {
      // A thrown Proxy can throw again when only asked its class (`instanceof`), with the token:
      // that throw is the fetch's too, so it is reported as the failure, and nothing of it kept.
      throw await toSdkError(error, request, config).catch(() => new ConnectionError(`${request.method} ${request.path} failed: an unprintable value`));
    }
  };
}

async function toSdkError(error: unknown, request: OutgoingRequest, config: TransportConfig): Promise<Error> {
  const target = `${request.method} ${request.path}`;
  if (error instanceof HTTPError) {
    const { response } = error;
    const text = await bodyOf(response).catch(() => '');
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
