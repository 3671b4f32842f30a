/**
 * The wire. Each attempt is one `ky` request with ky's own retries off (`retry: 0`): ky builds
 * the request (headers, JSON body), enforces the per-attempt `timeout`, and calls our `fetch`
 * wrapper, which runs the middleware around the client's `fetch` and reads the whole body inside
 * that timeout. What is ours: the loop around the attempts (the rate-limit gate before each, the
 * retry policy of `retry-policy.ts` after a failure), the observers and events of a call, the log
 * lines, and turning whatever went wrong into the SDK's typed errors. Owning the loop, rather
 * than steering ky's retries through its hooks, keeps retries ours across ky upgrades: a test pins
 * what we rely on ky for.
 *
 * A call's signal is one signal: the caller's, or, for a call with a deadline, one of its own that
 * its deadline's timer and a listener on the caller's signal abort (both released when the call
 * settles). ky's timeout aborts its own controller, so a call without a signal or a deadline builds
 * no signal of ours at all; ky links a call's signal to its request, so a `fetch` that reads only
 * the `Request`'s signal still sees every abort.
 *
 * What a call hands out leaves by one door, `send`'s: each event (to observers), the call as an
 * observer sees it, and the call's error are redacted there, once, whatever built them, and log
 * lines by the log itself. The code behind the door names the request by its raw path and quotes
 * what was thrown as it came: no step of it has to remember the token.
 * @module
 */
import ky, { TimeoutError as KyTimeoutError } from 'ky';
import type { Engine } from './core';
import { MiddlewareFailure } from './middleware';
import type { OutgoingRequest, Received } from './request';
import { AbortError, CommunityServerError, ConnectionError, TimeoutError, answerError, type RequestTarget } from './error-classes';
import type { ClientEvents } from './events';
import type { Settle } from './rate-limit';
import { label } from './log';
import { observeCall, type CallInfo } from './observe';
import { readText } from './read-text';
import { describeThrown } from './describe';
import { redactRecord } from './redact-text';
import { describeFailure, retryDelay, type Failure, type RetryPolicy } from './retry-policy';
import { sleep } from './sleep';

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
  (send: (request: Request) => Promise<Response>, read: (text: string) => void): typeof globalThis.fetch =>
  async (input) => {
    const response = await send(input as Request);
    read(await readText(response, MAX_BODY_BYTES));
    return response;
  };

/** Tells observers of an event of the call: its fields, to which the door adds the call's endpoint, method and path. */
type Notify = <Name extends keyof ClientEvents>(name: Name, fields: Omit<ClientEvents[Name], keyof RequestTarget | 'endpoint'>) => void;

/** One attempt: the gate's turn, then one ky request. Throws only for the call's abort and the gate's refusal. */
async function attempt(
  engine: Engine,
  request: OutgoingRequest,
  url: string,
  headers: Record<string, string>,
  n: number,
  notify: Notify | undefined,
): Promise<Outcome> {
  const { log } = engine.settings;
  const { signal } = request.options;
  // Requests without a token (the health probes) are not rate limited: the gate neither holds nor counts them.
  const onHeld = notify && ((waitMs: number) => notify('rateLimitWait', { waitMs }));
  const settle: Settle | undefined = request.auth ? await engine.shared.gate?.acquire(request, request.timeout, signal, onHeld) : undefined;
  notify?.('request', { attempt: n });
  const started = performance.now();
  let body = '';
  try {
    const response = await ky(url, {
      fetch: readingFetch(engine.fetch, (text) => (body = text)),
      method: request.method,
      headers,
      // ky takes an `undefined` body and a `null` signal for none: no spread of options per call.
      json: request.body,
      signal: signal ?? null,
      timeout: request.timeout,
      retry: 0,
      throwHttpErrors: false,
    });
    settle?.(response.headers);
    const durationMs = Math.round(performance.now() - started);
    log.debug?.(`${label(request)} → ${response.status} in ${durationMs} ms (attempt ${n})`);
    notify?.('response', { attempt: n, status: response.status, durationMs });
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
    log.debug?.(`${label(request)} → ${what} after ${Math.round(performance.now() - started)} ms (attempt ${n})`);
    if (signal?.aborted) throw thrown;
    return { received: undefined, failure, thrown, final };
  }
}

/** Every attempt of one call, until one succeeds, one fails for good, or the retries are spent. */
async function attempts(engine: Engine, request: OutgoingRequest, notify: Notify | undefined): Promise<Received> {
  const { options, maxRetries: limit } = request;
  const { authorization, baseUrl } = engine.shared;
  // Header names are case-insensitive: lower-cased, ours replace a caller's `Authorization`.
  const headers: Record<string, string> = {};
  if (options.headers) for (const [name, value] of Object.entries(options.headers)) headers[name.toLowerCase()] = value;
  headers.accept = request.accept;
  if (request.auth && authorization) headers.authorization = authorization;
  else delete headers.authorization;
  const url = baseUrl + request.path + request.query;
  for (let n = 1; ; n++) {
    options.signal?.throwIfAborted(); // not every fetch checks; an aborted call must send nothing
    const outcome = await attempt(engine, request, url, headers, n, notify);
    if (outcome.failure === undefined) return outcome.received;
    const wait = request.method === 'GET' && n <= limit && !outcome.final ? retryDelay(outcome.failure, n, CALL_RETRIES) : undefined;
    if (wait === undefined) throw failed(request, outcome);
    const reason = describeFailure(outcome.failure);
    engine.settings.log.info?.(`${label(request)}: ${reason}; retry ${n} of ${limit} in ${wait} ms`);
    notify?.('retry', { attempt: n, reason, status: outcome.received?.response.status, waitMs: wait });
    await sleep(wait, options.signal);
  }
}

/** The typed error of a call whose last attempt failed. */
function failed(request: OutgoingRequest, outcome: Outcome): Error {
  if (outcome.received) {
    const { response, body } = outcome.received;
    return answerError(response, body, request);
  }
  if (outcome.failure.kind === 'timeout') {
    return new TimeoutError(`${request.method} ${request.path} timed out after ${request.timeout} ms per attempt`);
  }
  return connectionError(request, outcome.thrown);
}

/**
 * Sends `request` and hands its answer to `read` (which checks the body and makes the call's
 * result): the call's observation covers both, and an error of either leaves by the same door.
 */
export async function send<T>(engine: Engine, request: OutgoingRequest, read: (received: Received) => T): Promise<T> {
  const { shared } = engine;
  const { token, observers } = shared;
  // The door: every payload, the call's description and its error are redacted here.
  const observed = observers.length
    ? observeCall(observers, redactRecord(callInfo(request, shared.baseUrl), token), (error) => {
        // Reported once per client family: a broken observer fails the same way on every call.
        if (shared.observerFailed) return;
        shared.observerFailed = true;
        engine.settings.log.warn?.(`a tracer failed (${describeThrown(error)}); calls go on unchanged`);
      })
    : undefined;
  /** The status its last attempt was answered with, if any: a refusal made here (the gate's 429) is none. */
  let answered: number | undefined;
  const notify: Notify | undefined = observed
    ? (name, fields) => {
        if (name === 'request') answered = undefined;
        if (name === 'response') answered = (fields as unknown as ClientEvents['response']).status;
        const { endpoint, method, path } = request;
        observed.event(name, redactRecord({ endpoint, method, path, ...fields } as ClientEvents[typeof name], token));
      }
    : undefined;
  let received: Received | undefined;
  try {
    received = await (observed ? observed.run(() => attempts(engine, request, notify)) : attempts(engine, request, notify));
    const result = read(received);
    observed?.end({ status: received.response.status, error: undefined });
    return result;
  } catch (thrown) {
    // What `read` threw is the SDK's own; what the attempts threw becomes the SDK's. Its every
    // field walked for the token: the walk loads with the first error a client hands back.
    const error = received ? (thrown as Error) : asSdkError(thrown, request);
    const redacted = token ? (await redactModule()).redactError(error, token) : error;
    observed?.end({ status: answered, error: redacted });
    throw redacted;
  }
}

let redactLoaded: Promise<typeof import('./redact')> | undefined;
/**
 * The deep redaction walk, loaded once: an `import()` of a module already loaded still costs a
 * trip through the loader (under a loader hook, a message to its thread), and a burst of
 * refusals (30,000 calls against a spent window) would pay it for each error.
 */
const redactModule = () => (redactLoaded ??= import('./redact'));

/** The call as an observer sees it before it starts. */
const callInfo = (request: OutgoingRequest, baseUrl: string): CallInfo => ({
  endpoint: request.endpoint,
  method: request.method,
  path: request.path,
  template: request.template,
  url: baseUrl + request.path + request.query,
});

/**
 * Why an attempt threw, and whether that is final: a fetch's own `AbortError` (not the caller's,
 * not a timeout) means something chose to stop it; a middleware's own throw ends the call.
 * Asking a thrown value its class can throw again (a Proxy's trap, with anything in its message):
 * such a value is a failure no one can describe.
 */
function classify(thrown: unknown): { failure: Failure; final: boolean } {
  try {
    if (thrown instanceof KyTimeoutError) return { failure: { kind: 'timeout' }, final: false };
    if (thrown instanceof MiddlewareFailure) return { failure: { kind: 'network', detail: describeThrown(thrown.thrown) }, final: true };
    const final = (thrown as { name?: unknown } | null)?.name === 'AbortError';
    return { failure: { kind: 'network', detail: describeThrown(thrown) }, final };
  } catch {
    return { failure: { kind: 'network', detail: 'an unprintable value' }, final: true };
  }
}

/**
 * What escaped the attempts, as the SDK's error: the call's abort (the caller's `AbortError`, or
 * its deadline's `TimeoutError`), an error already typed, or (a bug) anything else.
 */
function asSdkError(thrown: unknown, request: OutgoingRequest): Error {
  const { signal } = request.options;
  if (signal?.aborted) {
    const { reason } = signal as { reason: unknown };
    return isDeadline(reason) ? reason : new AbortError(`${request.method} ${request.path} was aborted`, { cause: reason });
  }
  try {
    if (thrown instanceof CommunityServerError) return thrown;
  } catch {
    // A thrown Proxy can throw again when only asked its class: a failure no one can describe.
  }
  return connectionError(request, thrown);
}

/** The error of a call that got no answer: what was thrown (or what a middleware threw), quoted, and kept as its cause. */
function connectionError(request: RequestTarget, thrown: unknown): Error {
  const cause = thrown instanceof MiddlewareFailure ? thrown.thrown : thrown;
  if (thrown instanceof MiddlewareFailure && cause instanceof CommunityServerError) return cause;
  return new ConnectionError(`${request.method} ${request.path} failed: ${describeThrown(cause)}`, { cause });
}

/** The reasons calls' deadlines abort them with: each call's own `TimeoutError`. */
const deadlines = new WeakSet<object>();
const isDeadline = (reason: unknown): reason is TimeoutError => typeof reason == 'object' && reason !== null && deadlines.has(reason);

/**
 * The signal a call runs under: the caller's, or with a deadline (`ms`) one of its own, aborted by
 * the caller's or, when `ms` pass, with the call's `TimeoutError`; and what releases its timer and
 * listener once the call settles.
 */
export function callSignal(
  target: RequestTarget,
  signal: AbortSignal | undefined,
  ms: number | undefined,
): { signal: AbortSignal | undefined; release?: () => void } {
  if (ms === undefined) return { signal };
  const controller = new AbortController();
  const follow = () => controller.abort(signal!.reason);
  const timer = setTimeout(() => {
    const error = new TimeoutError(`${target.method} ${target.path} timed out: its deadline of ${ms} ms for the whole call passed`);
    deadlines.add(error);
    controller.abort(error);
  }, ms);
  if (signal?.aborted) follow();
  else signal?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    release: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', follow);
    },
  };
}
