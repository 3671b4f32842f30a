/**
 * What the mock answers with: JSON bodies, and errors in the spec's shapes. A route throws a
 * {@link MockHttpError}; one place turns it into a response, so every error body of every
 * request has the same shape and a stable `code` per kind of failure.
 * @module
 */
import type { AuthErrorShape } from '../contract/options';

/** A failure a route reports; the pipeline renders it. */
export class MockHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 404 for a missing thing of kind `kind` (`member`, `cad`, `department`…): code `<kind>_not_found`. */
export const notFound = (kind: string, id?: string | number) =>
  new MockHttpError(
    404,
    `${kind}_not_found`,
    id === undefined ? `${kind.replaceAll('_', ' ')} not found` : `${kind.replaceAll('_', ' ')} ${JSON.stringify(String(id))} not found`,
  );

/**
 * 404 for a lookup through an account link that is not there (spec Part 7: "for chat-ID and
 * game-connection lookups the link is missing"): the message says what has no link, so a member
 * without a chat link does not read as a missing member or a missing chat id.
 */
export const missingLink = (code: string, message: string) => new MockHttpError(404, code, message);

/** Characters of a sent value a message repeats: enough to recognise it, never megabytes of it. */
const SHOWN_CHARS = 40;

/** `value` as JSON for a message, cut to {@link SHOWN_CHARS} with `…` when longer. */
export function shownJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

/**
 * 400 for a bad query or path parameter: the message names it, says what it must be and what it
 * was (`pageSize must be an integer from 1 to 100, got "500"`); `details` say the same as data,
 * with `more`.
 */
export const invalidParameter = (parameter: string, value: unknown, expected: string, more: Record<string, unknown> = {}) =>
  new MockHttpError(400, 'invalid_parameter', `${parameter} must be ${expected}, got ${shownJson(value)}`, {
    parameter,
    value,
    expected,
    ...more,
  });

/** 400 for a request body the spec's schema refuses; the message names each field and its problem. */
export const invalidBody = (message: string, details?: unknown) => new MockHttpError(400, 'invalid_request', message, details);

/** 400 for a path whose percent-encoding does not decode, or a request target that is not a path. */
export const invalidPath = (message: string) => new MockHttpError(400, 'invalid_path', message);

/** The largest request body the HTTP mock reads, API and control API alike: 1 MiB (the API's only body is a token name). */
export const MAX_BODY_BYTES = 1 << 20;

/** 413 for a body over {@link MAX_BODY_BYTES}; the connection is closed, as what is left of the body is not read. */
export const payloadTooLarge = () =>
  new MockHttpError(413, 'payload_too_large', `request bodies are limited to ${MAX_BODY_BYTES} bytes (1 MiB)`, undefined, {
    connection: 'close',
  });

/** 500: a bug in the mock, not the caller's doing; said in the spec's error shape rather than crashing the caller. */
export const internalError = (error: unknown) =>
  new MockHttpError(500, 'mock_internal_error', error instanceof Error ? error.message : String(error));

// The texts the live service answers with (DESIGN.md: facts about the live service).
export const authErrors = {
  missing: () => new MockHttpError(401, 'authorization_required', 'authorization header is required'),
  invalid: () => new MockHttpError(401, 'invalid_token', 'invalid or expired token'),
  suspended: (retryAfter: number) =>
    new MockHttpError(
      401,
      'token_suspended',
      'token suspended after repeated authentication failures',
      { retryAfter },
      { 'retry-after': String(retryAfter) },
    ),
  forbidden: () => new MockHttpError(403, 'insufficient_permissions', 'insufficient permissions for this operation'),
};

/**
 * What the mock answers a request with, whichever door it came through: a status, headers (lower
 * case names) and the body (text, or UTF-8 bytes), `null` for none (a HEAD, a 204). Each door
 * writes it out its own way: node:http as is, `mock.fetch` and msw as a `Response`.
 */
export interface MockAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array<ArrayBuffer> | null;
}

/**
 * The answer that is none: a fault (`mock.faults`, `network: true`) failed the connection, or the
 * caller gave up while the mock waited. `mock.fetch` rejects as undici does, msw fails the fetch,
 * the HTTP server drops the socket.
 */
export const NO_ANSWER: MockAnswer = Object.freeze({ status: 0, headers: Object.freeze({}), body: null });

/**
 * Whether `answer` is {@link NO_ANSWER}, told by its status 0 rather than by identity: the CommonJS
 * build bundles `mock` and `mock/node` apart, each with a `NO_ANSWER` of its own.
 */
export const isNoAnswer = (answer: MockAnswer): boolean => answer.status === 0;

/** Marks the answers `json`, `encodedJson` and `text` build: how the pipeline tells them from a body that is an object. */
const BUILT = Symbol('answer');

/** Whether `value` is an answer a route built (`json`, `encodedJson`, `text`) rather than a body. */
export const isAnswer = (value: unknown): value is MockAnswer => typeof value === 'object' && value !== null && BUILT in value;

/** `answer` with `headers` added (the rate limit's, which every answer carries). */
export const withHeaders = <Built extends MockAnswer>(answer: Built, headers: Readonly<Record<string, string>>): Built =>
  Object.keys(headers).length === 0 ? answer : { ...answer, headers: { ...answer.headers, ...headers } };

/** `answer` without its body, as the answer to a HEAD; no answer stays none. */
export const bodyless = (answer: MockAnswer): MockAnswer =>
  isNoAnswer(answer) || answer.body === null ? answer : { ...answer, body: null };

/** The headers of every JSON answer without headers of its own: one object, never written to. */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });

declare const bodyType: unique symbol;
/**
 * An answer whose body is the JSON of a `Body`: what `json` and `text` build. The body's type is
 * carried in the type alone (nothing at run time), so a route's answer is checked against the
 * client's schema even when it sets its own status.
 */
export type Reply<Body> = MockAnswer & { readonly [bodyType]: Body };

/**
 * An answer of `status` whose body is `encoded`, already the JSON of a `Body`: text, or UTF-8
 * kept from an earlier answer (a stored row's).
 */
export const encodedJson = <Body>(
  status: number,
  encoded: string | Uint8Array<ArrayBuffer>,
  headers?: Record<string, string>,
): Reply<Body> =>
  ({ [BUILT]: true, status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS, body: encoded }) as unknown as Reply<Body>;

export const json = <Body>(status: number, body: Body, headers?: Record<string, string>): Reply<Body> =>
  encodedJson<Body>(status, JSON.stringify(body), headers);

export const textReply = (status: number, body: string, headers: Record<string, string> = {}): Reply<string> =>
  ({ [BUILT]: true, status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers }, body }) as unknown as Reply<string>;

/** The answer for `error`: the object shape, or for 401/403 the shape the mock was asked for. */
export function errorAnswer(error: MockHttpError, authShape: AuthErrorShape, headers: Record<string, string> = {}): MockAnswer {
  const isAuth = error.status === 401 || error.status === 403;
  const body =
    isAuth && authShape === 'string'
      ? { error: error.message }
      : { error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) } };
  return json(error.status, body, { ...headers, ...error.headers });
}
