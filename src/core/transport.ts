/**
 * The wire. Each attempt is one `ky` request with ky's own retries off (`retry: 0`): ky builds
 * the request (base URL, headers, JSON body), enforces the per-attempt `timeout`, and calls our
 * `fetch` wrapper, which reads the whole body inside that timeout. What is ours: the loop around
 * the attempts (the rate-limit gate before each, the retry policy of `retry-policy.ts` after a
 * failure), the events and traces of a call, the log lines, and turning whatever went wrong into
 * the SDK's typed errors. Owning the loop, rather than steering ky's retries through its hooks,
 * keeps retries ours across ky upgrades: a test pins what we rely on ky for.
 *
 * What a call hands out leaves by one door, `send`'s: each event (to listeners and tracers), the
 * call as a tracer sees it, and the call's error are redacted there, once, whatever built them,
 * and log lines by the log itself. The code behind the door names the request by its raw path
 * and quotes what was thrown as it came: no step of it has to remember the token.
 * @module
 */
import ky, { TimeoutError as KyTimeoutError } from 'ky';
import type { RequestOptions } from './types';
import { AbortError, CommunityServerError, ConnectionError, TimeoutError, responseError, type RequestTarget } from './errors';
import type { ClientEvents, Emitter } from './events';
import { RateLimitGate, type Gate, type Settle } from './rate-limit';
import { StoreGate, type RateLimitMode } from './rate-limit-store';
import { label, type Log } from './log';
import { readText } from './read-text';
import { describeThrown, redactError, redactRecord } from './redact';
import { describeFailure, retryDelay, type Failure, type RetryPolicy } from './retry-policy';
import { sleep } from './sleep';
import { traceCall, type CallInfo, type Tracer } from './trace';

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
  /** The client's listeners. */
  events: Emitter;
  /** The client's tracers (`instrument()`); read per call, so one installed later applies. */
  tracers: readonly Tracer[];
}

/** One request, fully described: nothing left for the transport to decide but how to send it. */
export interface OutgoingRequest extends RequestTarget {
  /** The client method, e.g. `members.get`. */
  endpoint: string;
  /** The endpoint's path template, e.g. `/api/v1/server/members/{memberId}`. */
  template: string;
  /** Already encoded, with its leading `?`, or empty. */
  query: string;
  body: unknown;
  auth: boolean;
  accept: string;
  /** The endpoint's own default retries, if it has one; else the client's apply. */
  maxRetries: number | undefined;
  /** A health probe: it reports the state now, so it is never cached nor shared. */
  probe: boolean | undefined;
  options: RequestOptions;
}

/** What an answer was: the response and its whole text, read inside the attempt (see `readingFetch`). */
export interface Received {
  response: Response;
  body: string;
}

/**
 * Sends `request` and hands its answer to `read` (which checks the body and makes the call's
 * result): the call's trace covers both, and an error of either leaves by the same door.
 */
export type Send = <T>(request: OutgoingRequest, read: (received: Received) => T) => Promise<T>;

/** Retries of a call: 0.5 s, 1 s, … up to 8 s (jittered), or the service's `Retry-After` up to a minute. */
const CALL_RETRIES: RetryPolicy = {
  firstMs: 500,
  maxMs: 8000,
  maxRetryAfterMs: 60_000,
  // A longer wait is not waited out: the caller gets the error and decides.
  overlong: 'give-up',
  retryAfterReplacesBackoff: true,
};

/** How one attempt ended: answered (any status), or failed without an answer. */
type Outcome =
  | { received: Received; failure: undefined; final?: undefined }
  | { received: Received; failure: Failure; final?: undefined }
  | { received: undefined; failure: Failure; thrown: unknown; final: boolean };

function createGate({ rateLimit, log, baseUrl, token }: TransportConfig): Gate | undefined {
  if (rateLimit === 'off') return undefined;
  if (rateLimit === 'wait') return new RateLimitGate(log);
  return new StoreGate({ store: rateLimit, baseUrl, token, log });
}

/**
 * The most of a body the client reads: far past any answer of the API (its pages are 100 rows of
 * a few KiB; a page of the mock's largest rows, 100 of 128 Ki characters, is under 40 MiB).
 */
const MAX_BODY_BYTES = 64 * 2 ** 20;

/**
 * A `fetch` that reads the whole body (up to {@link MAX_BODY_BYTES}) before it resolves: ky's
 * timeout then covers a body that stalls or drops, and one that never ends fails the attempt.
 */
const readingFetch =
  (fetch: typeof globalThis.fetch, read: (text: string) => void): typeof globalThis.fetch =>
  async (input, init) => {
    const response = await fetch(input, init);
    read(await readText(response, MAX_BODY_BYTES));
    return response;
  };

export function createTransport(config: TransportConfig): Send {
  const { log, events, token } = config;
  const authorization = token ? `Bearer ${token}` : undefined;
  // The global fetch is looked up per call, so interception installed later (msw) still applies.
  const baseFetch = config.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const gate = createGate(config);

  /** One attempt: the gate's turn, then one ky request. Throws only for the caller's abort and the gate's refusal. */
  async function attempt(
    request: OutgoingRequest,
    url: string,
    headers: Record<string, string>,
    attempt: number,
    timeout: number,
    notify: Notify | undefined,
  ): Promise<Outcome> {
    const { signal } = request.options;
    // Requests without a token (the health probes) are not rate limited: the gate neither holds nor counts them.
    const onHeld = notify && ((waitMs: number) => notify('rateLimitWait', { waitMs }));
    const settle: Settle | undefined = request.auth ? await gate?.acquire(request, timeout, signal, onHeld) : undefined;
    notify?.('request', { attempt });
    const started = performance.now();
    let body = '';
    try {
      const response = await ky(url, {
        fetch: readingFetch(baseFetch, (text) => (body = text)),
        method: request.method,
        headers,
        ...(request.body === undefined ? {} : { json: request.body }),
        ...(signal ? { signal } : {}),
        timeout,
        retry: 0,
        throwHttpErrors: false,
      });
      settle?.(response.headers);
      const durationMs = Math.round(performance.now() - started);
      log.debug?.(`${label(request)} → ${response.status} in ${durationMs} ms (attempt ${attempt})`);
      notify?.('response', { attempt, status: response.status, durationMs });
      const received = { response, body };
      if (response.ok) return { received, failure: undefined };
      return {
        received,
        failure: { kind: 'status', status: response.status, retryAfter: response.headers.get('retry-after') ?? undefined },
      };
    } catch (thrown) {
      settle?.(undefined);
      const { failure, final } = classify(thrown);
      const what = signal?.aborted ? 'aborted' : describeFailure(failure);
      log.debug?.(`${label(request)} → ${what} after ${Math.round(performance.now() - started)} ms (attempt ${attempt})`);
      if (signal?.aborted) throw thrown;
      return { received: undefined, failure, thrown, final };
    }
  }

  /** Every attempt of one call, until one succeeds, one fails for good, or the retries are spent. */
  async function attempts(request: OutgoingRequest, notify: Notify | undefined): Promise<Received> {
    const { options } = request;
    // Header names are case-insensitive: lower-cased, ours replace a caller's `Authorization`.
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    headers.accept = request.accept;
    if (request.auth && authorization) headers.authorization = authorization;
    else delete headers.authorization;
    const url = config.baseUrl + request.path + request.query;
    const timeout = options.timeout ?? config.timeout;
    const limit = options.maxRetries ?? request.maxRetries ?? config.maxRetries;
    for (let n = 1; ; n++) {
      options.signal?.throwIfAborted(); // not every fetch checks; an aborted call must send nothing
      const outcome = await attempt(request, url, headers, n, timeout, notify);
      if (outcome.failure === undefined) return outcome.received;
      const wait = request.method === 'GET' && n <= limit && !outcome.final ? retryDelay(outcome.failure, n, CALL_RETRIES) : undefined;
      if (wait === undefined) throw failed(request, outcome, timeout);
      const reason = describeFailure(outcome.failure);
      log.info?.(`${label(request)}: ${reason}; retry ${n} of ${limit} in ${wait} ms`);
      notify?.('retry', { attempt: n, reason, status: outcome.received?.response.status, waitMs: wait });
      await sleep(wait, options.signal);
    }
  }

  /** The typed error of a call whose last attempt failed. */
  function failed(request: OutgoingRequest, outcome: Outcome, timeout: number): Error {
    const target = `${request.method} ${request.path}`;
    if (outcome.received) {
      const { response, body } = outcome.received;
      return responseError(response, body, request);
    }
    if (outcome.failure.kind === 'timeout') return new TimeoutError(`${target} timed out after ${timeout} ms per attempt`);
    return connectionError(request, outcome.thrown);
  }

  // Reported once per client: a broken tracer fails the same way on every call.
  let tracerFailed = false;
  const onTracerFailure = (error: unknown) => {
    if (tracerFailed) return;
    tracerFailed = true;
    log.warn?.(`a tracer failed (${describeThrown(error)}); calls go on unchanged`);
  };

  return async function send(request, read) {
    // The door: every payload, the call's description and its error are redacted here.
    const trace = config.tracers.length
      ? traceCall(config.tracers, redactRecord(callInfo(request, config.baseUrl), token), onTracerFailure)
      : undefined;
    /** The status its last attempt was answered with, if any: a refusal made here (the gate's 429) is none. */
    let answered: number | undefined;
    const notify: Notify | undefined =
      events.active || trace
        ? (name, fields) => {
            if (name === 'request') answered = undefined;
            if (name === 'response') answered = (fields as unknown as ClientEvents['response']).status;
            const { endpoint, method, path } = request;
            const event = redactRecord({ endpoint, method, path, ...fields } as ClientEvents[typeof name], token);
            events.emit(name, event);
            trace?.event(name, event);
          }
        : undefined;
    let received: Received | undefined;
    try {
      const call = () => attempts(request, notify);
      received = await (trace ? trace.run(call) : call());
      const result = read(received);
      trace?.end({ status: received.response.status, error: undefined });
      return result;
    } catch (thrown) {
      // What `read` threw is the SDK's own; what the attempts threw becomes the SDK's.
      const error = redactError(received ? (thrown as Error) : asSdkError(thrown, request), token);
      trace?.end({ status: answered, error });
      throw error;
    }
  };
}

/** Tells listeners and tracers of an event of the call: its fields, to which the door adds the call's endpoint, method and path. */
type Notify = <Name extends keyof ClientEvents>(name: Name, fields: Omit<ClientEvents[Name], keyof RequestTarget | 'endpoint'>) => void;

/** The call as a tracer sees it before it starts. */
const callInfo = (request: OutgoingRequest, baseUrl: string): CallInfo => ({
  endpoint: request.endpoint,
  method: request.method,
  path: request.path,
  template: request.template,
  url: baseUrl + request.path + request.query,
});

/**
 * Why an attempt threw, and whether that is final: a fetch's own `AbortError` (not the caller's,
 * not a timeout) means something chose to stop it. Asking a thrown value its class can throw
 * again (a Proxy's trap, with anything in its message): such a value is a failure no one can describe.
 */
function classify(thrown: unknown): { failure: Failure; final: boolean } {
  try {
    if (thrown instanceof KyTimeoutError) return { failure: { kind: 'timeout' }, final: false };
    const final = (thrown as { name?: unknown } | null)?.name === 'AbortError';
    return { failure: { kind: 'network', detail: describeThrown(thrown) }, final };
  } catch {
    return { failure: { kind: 'network', detail: 'an unprintable value' }, final: true };
  }
}

/** What escaped the attempts, as the SDK's error: the caller's abort, an error already typed, or (a bug) anything else. */
function asSdkError(thrown: unknown, request: OutgoingRequest): Error {
  const { signal } = request.options;
  if (signal?.aborted) return new AbortError(`${request.method} ${request.path} was aborted`, { cause: signal.reason });
  try {
    if (thrown instanceof CommunityServerError) return thrown;
  } catch {
    // A thrown Proxy can throw again when only asked its class: a failure no one can describe.
  }
  return connectionError(request, thrown);
}

/** The error of a call that got no answer: what was thrown, quoted, and kept as its cause. */
const connectionError = (request: RequestTarget, thrown: unknown) =>
  new ConnectionError(`${request.method} ${request.path} failed: ${describeThrown(thrown)}`, { cause: thrown });
