/**
 * Who may ask, and how often (spec Parts 5 and 8): bearer-token authentication, permissions,
 * suspension after repeated authentication failures, and a per-token rate limit. Counters live
 * here, apart from the data, and `reset()` clears them.
 * @module
 */
import { authErrors, MockHttpError } from './replies';
import type { Store } from './store';
import type { Permission, TokenRecord } from './world';

/**
 * A window of `limit` requests per `windowMs`, counted per token; it opens with the token's
 * first request; the health probes, which take no token, are not counted. Every other answer
 * carries `X-RateLimit-Limit`, `-Remaining`, `-Reset` (Unix seconds) and `-Reset-After` (seconds
 * from now, to the millisecond), and a request past the limit gets 429 with `Retry-After`.
 * @example
 * const mock = createMockApi({ rateLimit: { limit: 100, windowMs: 60_000 } });
 */
export interface RateLimitOptions {
  /** Requests a token may make per window. */
  limit: number;
  /** Length of a window, in milliseconds. */
  windowMs: number;
}

/**
 * Suspend a token after `failures` failed authentications, for `durationMs`: its requests then
 * get 401 `token_suspended` with `Retry-After`, even with a valid token (spec Part 5, item 8).
 * @example
 * const mock = createMockApi({ authFailureLimit: { failures: 5, durationMs: 30_000 } });
 */
export interface AuthFailureLimitOptions {
  /** Failed authentications that trigger a suspension. */
  failures: number;
  /** How long a suspension lasts, in milliseconds. */
  durationMs: number;
}

interface Window {
  start: number;
  used: number;
}

interface Failures {
  count: number;
  suspendedUntil: number;
}

/** An `Authorization` header that presents a token; the journal reads it the same way. */
export const BEARER = /^Bearer ([^\s]+)$/;
/** Past this many tracked keys, entries that no longer matter are dropped, so memory stays flat under random tokens. */
const SWEEP_AT = 10_000;

function sweep<Entry>(map: Map<string, Entry>, stale: (entry: Entry) => boolean): void {
  if (map.size < SWEEP_AT) return;
  for (const [key, entry] of map) if (stale(entry)) map.delete(key);
}

export class Gate {
  #windows = new Map<string, Window>();
  #failures = new Map<string, Failures>();
  #rateLimit: RateLimitOptions | undefined;

  constructor(
    rateLimit: RateLimitOptions | undefined,
    private readonly failureLimit: AuthFailureLimitOptions | undefined,
  ) {
    this.#rateLimit = rateLimit;
  }

  /** The window every token gets now, `undefined` when rate limiting is off. */
  get rateLimit(): RateLimitOptions | undefined {
    return this.#rateLimit;
  }

  /** Replaces the window (`undefined`: off); every token starts a fresh one, as after a restart of the service. */
  setRateLimit(rateLimit: RateLimitOptions | undefined): void {
    this.#rateLimit = rateLimit === undefined ? undefined : { limit: rateLimit.limit, windowMs: rateLimit.windowMs };
    this.#windows.clear();
  }

  /**
   * Counts one request against the presenter's window. Returns the `X-RateLimit-*` headers every
   * answer carries (none when rate limiting is off), and throws 429 when the window is spent.
   */
  admit(request: Request, now: number): Record<string, string> {
    if (!this.#rateLimit) return {};
    const { limit, windowMs } = this.#rateLimit;
    const key = request.headers.get('authorization') ?? '';
    let window = this.#windows.get(key);
    if (!window || now >= window.start + windowMs) {
      sweep(this.#windows, (w) => now >= w.start + windowMs);
      window = { start: now, used: 0 }; // a window opens with its first request
      this.#windows.set(key, window);
    }
    const resetAt = window.start + windowMs;
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - window.used - 1)),
      'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
      // The same moment as a delta with millisecond precision: whole Unix seconds would hold a
      // client up to a second past the reset, nearly doubling a walk at a 1-second window.
      'x-ratelimit-reset-after': ((resetAt - now) / 1000).toFixed(3),
    };
    if (window.used >= limit) {
      const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
      throw new MockHttpError(
        429,
        'rate_limited',
        `rate limit of ${limit} requests per ${windowMs} ms exceeded`,
        { limit, windowMs, retryAfter },
        { ...headers, 'x-ratelimit-remaining': '0', 'retry-after': String(retryAfter) },
      );
    }
    window.used++;
    return headers;
  }

  /** The active token the request presents, or a 401 in the spec's words. */
  authenticate(request: Request, store: Store, now: number): TokenRecord {
    const header = request.headers.get('authorization');
    if (header === null || header.trim() === '') throw authErrors.missing();
    const secret = BEARER.exec(header)?.[1];
    const failures = secret === undefined ? undefined : this.#failures.get(secret);
    if (failures && failures.suspendedUntil > now) throw authErrors.suspended(Math.ceil((failures.suspendedUntil - now) / 1000));
    const token = secret === undefined ? undefined : store.tokens.where('secret', secret)[0];
    if (!token || token.deactivatedAt !== null || (token.expiresAt !== null && token.expiresAt * 1000 <= now)) {
      if (secret !== undefined) this.#fail(secret, now);
      throw authErrors.invalid();
    }
    this.#failures.delete(secret as string);
    token.lastUsedAt = Math.floor(now / 1000);
    return token;
  }

  /** Throws 403 unless `token` holds `permission`. */
  require(token: TokenRecord, permission: Permission): void {
    if (!token.permissions.includes(permission)) throw authErrors.forbidden();
  }

  #fail(secret: string, now: number): void {
    if (!this.failureLimit) return;
    sweep(this.#failures, (f) => f.suspendedUntil <= now);
    const entry = this.#failures.get(secret) ?? { count: 0, suspendedUntil: 0 };
    entry.count++;
    if (entry.count >= this.failureLimit.failures) {
      entry.suspendedUntil = now + this.failureLimit.durationMs;
      entry.count = 0;
    }
    this.#failures.set(secret, entry);
  }

  /** Forgets every window and failure count. */
  reset(): void {
    this.#windows.clear();
    this.#failures.clear();
  }

  /** The counters of `tokens`, for the admin rate-limit endpoint. Secrets stay out. */
  report(tokens: readonly TokenRecord[], now: number) {
    return tokens.map((token) => {
      const window = this.#windows.get(`Bearer ${token.secret}`);
      const current = window && now < window.start + (this.#rateLimit?.windowMs ?? 0) ? window : undefined;
      const failures = this.#failures.get(token.secret);
      return {
        tokenId: token.id,
        name: token.name,
        used: current?.used ?? 0,
        remaining: this.#rateLimit ? this.#rateLimit.limit - (current?.used ?? 0) : null,
        resetAt: current && this.#rateLimit ? Math.ceil((current.start + this.#rateLimit.windowMs) / 1000) : null,
        authFailures: failures?.count ?? 0,
        suspendedUntil: failures && failures.suspendedUntil > now ? Math.ceil(failures.suspendedUntil / 1000) : null,
      };
    });
  }
}
