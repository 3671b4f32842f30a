/**
 * Who may ask, and how often (spec Parts 5 and 8): bearer-token authentication, permissions,
 * suspension after repeated authentication failures, and a per-token rate limit. Counters live
 * here, apart from the data, and `reset()` clears them.
 * @module
 */
import type { AuthFailureLimitOptions, RateLimitOptions } from '../contract/arguments';
import { authErrors, MockHttpError } from './replies';
import type { Store } from './store/store';
import type { Permission, TokenRecord } from './world';

interface Window {
  start: number;
  used: number;
}

interface Failures {
  count: number;
  suspendedUntil: number;
}

/**
 * An `Authorization` header that presents a token. The scheme is case-insensitive and one or more
 * spaces may follow it (RFC 9110 §11.1, §11.4): `bearer` and `BEARER` present a token as `Bearer`
 * does.
 */
const BEARER = /^bearer +(\S+)$/i;

/**
 * What a request's `Authorization` header presents, read once by the door it came in by and
 * carried with it: to the admin token's check (the control API), the rate limit, authentication
 * and the journal (the API).
 */
export interface Authorization {
  /** The header as sent; `null` without one. */
  readonly header: string | null;
  /** The bearer secret the header presents; `undefined` when it presents none. */
  readonly secret: string | undefined;
}

/** The one reading of an `Authorization` header, for the API and the control API alike. */
export const readAuthorization = (header: string | null): Authorization => ({
  header,
  secret: header === null ? undefined : BEARER.exec(header)?.[1],
});

/**
 * How many credentials that are no token of the store the admission counts at once, in each of
 * its ledgers (requests, failures): past it, stale counts are dropped, then the oldest. A flood of
 * made-up tokens so costs a fixed amount of memory (~1.5 MB), whatever their number and size.
 */
export const MAX_STRANGERS = 10_000;

/**
 * A fixed-size digest of `text` (64 bits, as 16 hex digits): how the admission keys what was
 * presented, so it never keeps a made-up token's text, however long. Two 32-bit multiplicative
 * hashes side by side (not a cryptographic one: the key is never shown, only compared).
 */
export function digestOf(text: string): string {
  let [high, low] = [0xdeadbeef, 0x41c6ce57];
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    high = Math.imul(high ^ code, 2654435761);
    low = Math.imul(low ^ code, 1597334677);
  }
  high = Math.imul(high ^ (high >>> 16), 2246822507) ^ Math.imul(low ^ (low >>> 13), 3266489909);
  low = Math.imul(low ^ (low >>> 16), 2246822507) ^ Math.imul(high ^ (high >>> 13), 3266489909);
  return (high >>> 0).toString(16).padStart(8, '0') + (low >>> 0).toString(16).padStart(8, '0');
}

/**
 * What a request presents, as the admission and the journal read it: its {@link Authorization},
 * the key the counters file it under, and the token of the store whose secret it is, looked up
 * once, when first asked (after the request's latency, so a token deactivated meanwhile is seen
 * so).
 */
export interface Credential extends Authorization {
  /** The digest of the secret, or of the header itself: how the counters key what was presented. */
  readonly key: string;
  /** The token of the store whose secret is `secret`, active or not; `undefined` for none. */
  readonly token: TokenRecord | undefined;
}

/** The credential `authorization` presents to `store`: its token looked up once, on first use. */
export function credentialOf({ header, secret }: Authorization, store: Store): Credential {
  let looked = false;
  let token: TokenRecord | undefined;
  return {
    header,
    secret,
    key: keyOf(header, secret),
    get token() {
      if (!looked) [token, looked] = [secret === undefined ? undefined : store.tokens.where('secret', secret)[0], true];
      return token;
    },
  };
}

/** The key of what a request presents: the digest of its bearer secret, or of the header itself. */
const keyOf = (header: string | null, secret: string | undefined) =>
  secret === undefined ? `header ${digestOf(header ?? '')}` : `bearer ${digestOf(secret)}`;

/**
 * Counts by credential key. A store token's count is kept as long as it matters; the others
 * (made-up tokens, other headers) are at most {@link MAX_STRANGERS}: past it, the ones `stale`
 * says no longer matter go first, then the oldest, down to nine tenths of it, so the scan that
 * makes room is paid once per thousand new strangers at most.
 */
class Ledger<Entry> {
  readonly #entries = new Map<string, { entry: Entry; token: boolean }>();
  #strangers = 0;

  constructor(private readonly stale: (entry: Entry, now: number) => boolean) {}

  get(key: string): Entry | undefined {
    return this.#entries.get(key)?.entry;
  }

  /** Keeps `entry` under `key`; `token` says whether `key` is a token's of the store (never dropped for room). */
  set(key: string, entry: Entry, token: boolean, now: number): void {
    const had = this.#entries.get(key);
    if (had) this.delete(key);
    else if (!token && this.#strangers >= MAX_STRANGERS) this.#makeRoom(now);
    this.#entries.set(key, { entry, token });
    if (!token) this.#strangers++;
  }

  delete(key: string): void {
    const had = this.#entries.get(key);
    if (had && !had.token) this.#strangers--;
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#strangers = 0;
  }

  #makeRoom(now: number): void {
    const enough = Math.floor(MAX_STRANGERS * 0.9);
    for (const [key, { entry, token }] of this.#entries) if (!token && this.stale(entry, now)) this.delete(key);
    for (const [key, { token }] of this.#entries) {
      if (this.#strangers <= enough) break;
      if (!token) this.delete(key); // oldest first: a Map iterates in insertion order
    }
  }
}

/**
 * Who may ask, and how often: the per-token request windows of the rate limit, authentication
 * (with suspension after repeated failures) and permission checks of the mock's API requests.
 */
export class TokenAdmission {
  readonly #windows = new Ledger<Window>((window, now) => now >= window.start + (this.#rateLimit?.windowMs ?? 0));
  readonly #failures = new Ledger<Failures>((failures, now) => failures.suspendedUntil <= now);
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
  countRequest(credential: Credential, now: number): Record<string, string> {
    if (!this.#rateLimit) return {};
    const { limit, windowMs } = this.#rateLimit;
    // One window per token, however its header spells the scheme (`report` looks windows up this way).
    const { key } = credential;
    let window = this.#windows.get(key);
    if (!window || !this.#isOpen(window, now)) {
      window = { start: now, used: 0 }; // a window opens with its first request
      this.#windows.set(key, window, credential.token !== undefined, now);
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
  authenticate(credential: Credential, now: number): TokenRecord {
    const { header, key, secret } = credential;
    if (header === null || header.trim() === '') throw authErrors.missing();
    const failures = secret === undefined ? undefined : this.#failures.get(key);
    // A clock that went back (see #isOpen) does not lengthen a suspension past its duration from now.
    if (failures && this.failureLimit) failures.suspendedUntil = Math.min(failures.suspendedUntil, now + this.failureLimit.durationMs);
    if (failures && failures.suspendedUntil > now) throw authErrors.suspended(Math.ceil((failures.suspendedUntil - now) / 1000));
    const token = credential.token;
    if (!token || token.deactivatedAt !== null || (token.expiresAt !== null && token.expiresAt * 1000 <= now)) {
      if (secret !== undefined) this.#fail(key, token !== undefined, now);
      throw authErrors.invalid();
    }
    this.#failures.delete(key);
    token.lastUsedAt = Math.floor(now / 1000);
    return token;
  }

  /** Throws 403 unless `token` holds `permission`. */
  require(token: TokenRecord, permission: Permission): void {
    if (!token.permissions.includes(permission)) throw authErrors.forbidden();
  }

  /** Counts a failed authentication of the credential keyed `key` (`token`: one of the store's). */
  #fail(key: string, token: boolean, now: number): void {
    if (!this.failureLimit) return;
    const entry = this.#failures.get(key) ?? { count: 0, suspendedUntil: 0 };
    entry.count++;
    if (entry.count >= this.failureLimit.failures) {
      entry.suspendedUntil = now + this.failureLimit.durationMs;
      entry.count = 0;
    }
    this.#failures.set(key, entry, token, now);
  }

  /**
   * Whether `window` is the one open at `now`: opened at or before it, less than a window ago. A
   * clock that went back (`reset()` taking an advance back under a request in flight, a `now`
   * option) leaves a window opened "later": reported as open, it ended as far ahead as the clock
   * went back (a 500 ms window read 60 s), and a client, or a fleet through Redis, waited that long.
   */
  #isOpen(window: Window, now: number): boolean {
    return now >= window.start && now < window.start + (this.#rateLimit?.windowMs ?? 0);
  }

  /** Forgets every window and failure count. */
  reset(): void {
    this.#windows.clear();
    this.#failures.clear();
  }

  /** The counters of `tokens`, for the admin rate-limit endpoint. Secrets stay out. */
  report(tokens: readonly TokenRecord[], now: number) {
    return tokens.map((token) => {
      const key = keyOf(null, token.secret);
      const window = this.#windows.get(key);
      const current = window && this.#isOpen(window, now) ? window : undefined;
      const failures = this.#failures.get(key);
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
