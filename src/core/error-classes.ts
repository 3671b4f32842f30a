/**
 * Every error the SDK throws, and the one place an HTTP failure becomes one of them. Apart from
 * `errors.ts` (which re-exports them all, with `responseError`) so that what a call carries up
 * front holds no walk of a whole value: that loads with the first error a call hands back.
 * @module
 */
import type { z } from 'zod/mini';
import { brand } from './brand';
import { CommunityServerError } from './error-base';
import { retryAfterSeconds } from './retry-policy';

// The two that need no response live apart (see error-base.ts); this module stays the one to import.
export { CommunityServerError, InvalidArgumentError } from './error-base';

/**
 * The fields of an {@link ApiError}, parsed from the response; also what a test double passes
 * to build one.
 * @example
 * const error = new NotFoundError({ status: 404, code: 'member_not_found', message: 'member "1" not found', details: undefined, headers: {}, method: 'GET', path: '/api/v1/server/members/1' });
 */
export interface ApiErrorInit {
  /** `GET`, `POST` or `DELETE`. */
  method: string;
  /** The path, ids percent-encoded, without origin or query (never a credential). */
  path: string;
  /** HTTP status. */
  status: number;
  /** The body's error code, or `"unknown"`. */
  code: string;
  /** The body's message, or the status text. */
  message: string;
  /** The body's `details`, or the whole body when it is not the spec's error shape. */
  details: unknown;
  /** Response headers, lower-cased names. */
  headers: Record<string, string>;
}

/** Where a request went: method and path, as errors and log lines name it. */
export type RequestTarget = Pick<ApiErrorInit, 'method' | 'path'>;

/**
 * The service answered with a status outside 2xx. Subclasses name the common statuses; other
 * statuses (405, 409, …) are plain `ApiError`s.
 * @example
 * try { await client.members.get('nobody'); }
 * catch (error) {
 *   if (error instanceof ApiError) console.log(error.status, error.code, error.message);
 * }
 */
export class ApiError extends CommunityServerError {
  override name = 'ApiError';
  static {
    brand(this, 'ApiError');
  }
  /** HTTP status of the response. */
  readonly status: number;
  /** The body's error code; `"unknown"` when the body carries none (text errors, non-JSON). */
  readonly code: string;
  /** The body's `error.details`, or the whole body when it is not the spec's error shape. */
  readonly details: unknown;
  /** Response headers, lower-cased names. */
  readonly headers: Record<string, string>;
  /** Request method. */
  readonly method: string;
  /** Request path, without origin or query. */
  readonly path: string;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.headers = init.headers;
    this.method = init.method;
    this.path = init.path;
  }
}

/**
 * 400: the service refused the request as malformed.
 * @example
 * try { await client.tokens.create({ name: 'x', expiresInDays: 7 }); }
 * catch (error) { if (error instanceof BadRequestError) console.log(error.code, error.details); else throw error; }
 */
export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
  static {
    brand(this, 'BadRequestError');
  }
}
/**
 * 401: the token is missing, malformed, unknown, expired, revoked or suspended.
 * @example
 * try { await client.members.list(); }
 * catch (error) { if (error instanceof AuthenticationError) console.log('token rejected:', error.message); else throw error; }
 */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
  static {
    brand(this, 'AuthenticationError');
  }
}
/**
 * 403: the token lacks the permission the operation needs.
 * @example
 * try { await client.tokens.deactivate(tokenId); }
 * catch (error) { if (error instanceof PermissionDeniedError) console.log('this token may not manage tokens'); else throw error; }
 */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
  static {
    brand(this, 'PermissionDeniedError');
  }
}
/**
 * 404: the resource, or its parent (CAD, a department), does not exist.
 * @example
 * const member = await client.members.get(id).catch((error) => {
 *   if (error instanceof NotFoundError) return null; // error.code says what was missing, e.g. member_not_found
 *   throw error;
 * });
 */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  static {
    brand(this, 'NotFoundError');
  }
}
/**
 * 429: too many requests. `retryAfter` says how long to wait, when the service said. GETs are
 * retried after it on their own (up to `maxRetries`); you see this once retries are spent, for
 * a wait over 60 s, or when `rateLimit: 'wait'` would have to wait longer than the timeout.
 * @example
 * try { await client.logs.list(); }
 * catch (error) {
 *   if (!(error instanceof RateLimitError)) throw error;
 *   await new Promise((resolve) => setTimeout(resolve, (error.retryAfter ?? 1) * 1000));
 * }
 */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  static {
    brand(this, 'RateLimitError');
  }
  /** Seconds to wait before trying again (from `Retry-After`), or `null` when not given. */
  readonly retryAfter: number | null;
  constructor(init: ApiErrorInit) {
    super(init);
    this.retryAfter = retryAfterSeconds(init.headers['retry-after']);
  }
}
/**
 * A 5xx answer. {@link ServiceUnavailableError} (503) extends it, so this catches every 5xx.
 * @example
 * try { await client.server.info(); }
 * catch (error) { if (error instanceof InternalServerError) console.log(`the service failed (${error.status}); try later`); else throw error; }
 */
export class InternalServerError extends ApiError {
  override name = 'InternalServerError';
  static {
    brand(this, 'InternalServerError');
  }
}
/**
 * 503: the service, or one of its dependencies, is unavailable (or not ready).
 * @example
 * const ready = await client.health.ready().then(() => true, (error) => {
 *   if (error instanceof ServiceUnavailableError) return false; // error.details holds the readiness body
 *   throw error;
 * });
 */
export class ServiceUnavailableError extends InternalServerError {
  override name = 'ServiceUnavailableError';
  static {
    brand(this, 'ServiceUnavailableError');
  }
}

/**
 * The request could not reach the service (DNS, refused or reset connection…), after every
 * retry allowed. `cause` is the platform's error, with the token redacted.
 * @example
 * try { await client.health.live(); }
 * catch (error) { if (error instanceof ConnectionError) console.log('unreachable:', error.message); else throw error; }
 */
export class ConnectionError extends CommunityServerError {
  override name = 'ConnectionError';
  static {
    brand(this, 'ConnectionError');
  }
}
/**
 * An attempt took longer than its `timeout`, after every retry allowed.
 * @example
 * try { await client.members.list({}, { timeout: 2000, maxRetries: 0 }); }
 * catch (error) { if (error instanceof TimeoutError) console.log('too slow'); else throw error; }
 */
export class TimeoutError extends CommunityServerError {
  override name = 'TimeoutError';
  static {
    brand(this, 'TimeoutError');
  }
}
/**
 * The caller aborted the request through its `signal`; `cause` is the signal's reason.
 * @example
 * const controller = new AbortController();
 * const pending = client.members.list({}, { signal: controller.signal });
 * controller.abort('user left the page');
 * await pending.catch((error) => { if (!(error instanceof AbortError)) throw error; });
 */
export class AbortError extends CommunityServerError {
  override name = 'AbortError';
  static {
    brand(this, 'AbortError');
  }
}

/**
 * A 2xx body that is not what the spec promises: not JSON, or failing its schema under
 * `validation: 'error'`. `issues` are zod's (empty when the body did not parse as JSON).
 * @example
 * try { await client.members.get(id); }
 * catch (error) {
 *   if (!(error instanceof ResponseValidationError)) throw error;
 *   for (const issue of error.issues) console.log(issue.path.join('.'), issue.message);
 * }
 */
export class ResponseValidationError extends CommunityServerError {
  override name = 'ResponseValidationError';
  static {
    brand(this, 'ResponseValidationError');
  }
  /** zod's issues: where the body differs from the schema. Empty when it was not JSON at all. */
  readonly issues: z.core.$ZodIssue[];
  /** Request method. */
  readonly method: string;
  /** Request path, without origin or query. */
  readonly path: string;
  /** The (2xx) status the body came with. */
  readonly status: number;

  constructor(message: string, init: { method: string; path: string; issues: z.core.$ZodIssue[]; status: number }) {
    super(message);
    this.issues = init.issues;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
  }
}

const errorClassByStatus: Record<number, new (init: ApiErrorInit) => ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  429: RateLimitError,
  503: ServiceUnavailableError,
};

/** The one status → error class factory. */
export function apiError(init: ApiErrorInit): ApiError {
  const ErrorClass = errorClassByStatus[init.status] ?? (init.status >= 500 ? InternalServerError : ApiError);
  return new ErrorClass(init);
}

/**
 * The typed error of a non-2xx answer to `target`, as the service sent it: its body read whatever
 * its shape, its class by status. The client's transport makes its errors here, and redacts them
 * where they leave it; `responseError` (`errors.ts`) also replaces a secret in what it holds.
 */
export function answerError(response: Response, body: string, target: RequestTarget): ApiError {
  const parsed = parseErrorBody(response.status, response.statusText, body);
  const headers = Object.fromEntries(response.headers);
  return apiError({ ...parsed, headers, status: response.status, method: target.method, path: target.path });
}

/** Longest text kept from a body that is not JSON (an HTML error page, say). */
const MAX_TEXT_DETAILS = 2048;

/**
 * Reads `code`, `message` and `details` out of an error body of any shape: the spec's object
 * shape, the `{"error":"text"}` shape, other JSON, plain text, HTML or nothing. Never throws.
 */
export function parseErrorBody(status: number, statusText: string, text: string): Pick<ApiErrorInit, 'code' | 'message' | 'details'> {
  const fallback = `${status}${statusText ? ` ${statusText}` : ''}`;
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    const trimmed = text.trim();
    const isShortText = trimmed.length > 0 && trimmed.length <= 200 && !trimmed.startsWith('<');
    return { code: 'unknown', message: isShortText ? trimmed : fallback, details: text.slice(0, MAX_TEXT_DETAILS) };
  }
  const error = isRecord(body) ? body.error : undefined;
  if (typeof error === 'string') return { code: 'unknown', message: error || fallback, details: undefined };
  if (isRecord(error)) {
    return {
      code: typeof error.code === 'string' && error.code ? error.code : 'unknown',
      message: typeof error.message === 'string' && error.message ? error.message : fallback,
      details: error.details,
    };
  }
  return { code: 'unknown', message: fallback, details: body };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
