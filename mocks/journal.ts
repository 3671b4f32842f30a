/**
 * The journal behind `mock.requests`: one row per request the mock answered, on any door, so a
 * test can assert what a bot sent. Rows name the token by its role, never by its secret, and any
 * token secret a request carries in its path, query or body is replaced before it is kept.
 * @module
 */
import type { Credential } from './auth';
import type { Sequence } from './sequence';
import type { MockTokens } from './types';
import type { World } from './world';

/**
 * The token a request presented, by role: one of the five seeded tokens of `mock.tokens`,
 * `'created'` for any other token of `mock.store.tokens` (made by `tokens.create` or a test),
 * `'unknown'` for an `Authorization` header that names no token, `null` without one.
 * @example
 * expect(mock.requests.filter((request) => request.token !== 'readOnly')).toEqual([]); // the bot used only its read-only token
 */
export type MockRequestToken = keyof MockTokens | 'created' | 'unknown' | null;

/**
 * One request the mock answered: a row of `mock.requests`.
 * @example
 * const [row] = mock.requests;
 * // { method: 'GET', path: '/api/v1/server/members/m1', query: {}, endpoint: 'members.get',
 * //   token: 'main', body: null, status: 200, at: 1767225600000 }
 */
export interface MockRequest {
  /** Upper case, as sent (`HEAD` beside a GET is its own row). */
  readonly method: string;
  /** The URL's path, as sent (percent-encoded), without the query. */
  readonly path: string;
  /** The query parameters; for a repeated name, its last value. */
  readonly query: Readonly<Record<string, string>>;
  /** The client's method name of the request (`'members.get'`), or `null` where no request of the API matched. */
  readonly endpoint: string | null;
  /** Which token was presented (see {@link MockRequestToken}); never the secret. */
  readonly token: MockRequestToken;
  /** The request body: parsed JSON, or its text when it is not JSON (or is nested too deep to walk); `null` without one; past 64 KiB, `'[N characters, not kept]'`. */
  readonly body: unknown;
  /** The status the mock answered with; 0 when a fault (`mock.faults`, `network: true`) failed the connection. */
  readonly status: number;
  /** When the answer was given, in milliseconds on the mock's clock (`mock.clock`). */
  readonly at: number;
}

/**
 * Options of the journal: `createMockApi({ journal: { limit } })`.
 * @example
 * const mock = createMockApi({ journal: { limit: 10_000 } }); // keep more rows for a long test
 */
export interface JournalOptions {
  /**
   * Rows kept: the newest `limit` (default {@link DEFAULT_JOURNAL_LIMIT}); `0` keeps none. A
   * long-running HTTP mock so stays within a fixed amount of memory.
   */
  limit: number;
}

/**
 * How many rows `mock.requests` keeps unless told otherwise: enough for a test, small for a server.
 * @example
 * createMockApi({ journal: { limit: DEFAULT_JOURNAL_LIMIT * 10 } });
 */
export const DEFAULT_JOURNAL_LIMIT = 1000;

const REDACTED = '[redacted]';
/** A body kept whole up to this many characters; the API's only body is a token's name. */
const MAX_BODY_CHARS = 64 * 1024;

/** What the journal keeps of a request: what came in, read once by the pipeline, and its answer. */
export interface Entry {
  /** Upper case, as sent. */
  readonly method: string;
  /** The path from the mock's base, as sent (percent-encoded). */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The body's text; `undefined` without one. */
  readonly body: string | undefined;
  /** What the request presented, resolved once for it. */
  readonly credential: Credential;
  /** The client's method name of the request, `null` where no request of the API matched. */
  readonly endpoint: string | null;
  readonly status: number;
  /** When it was answered, on the mock's clock. */
  readonly at: number;
}

/** A secret as a pattern's alternative: its characters as themselves. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One pattern for every secret, matched in a single pass so a replacement is never matched again
 * (a secret `a` would otherwise turn `[redacted]` into `[red[redacted]cted]`). The store's
 * secrets are replaced wherever they occur; the presented token, which may be any string (`x`),
 * only where it stands alone, so a short wrong token does not mangle every path it occurs in.
 */
function secretPattern(known: readonly string[], presented: string | undefined): RegExp | undefined {
  const alternatives = [...new Set(known)]
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map(escape);
  if (presented && !known.includes(presented)) alternatives.push(`(?<![A-Za-z0-9])${escape(presented)}(?![A-Za-z0-9])`);
  return alternatives.length ? new RegExp(alternatives.join('|'), 'g') : undefined;
}

/**
 * What replaces the secrets inside one request's strings: `known` (the store's) and `presented`.
 * Most strings hold none, which a substring test per secret tells; the pattern of them all is
 * built only for a string that holds one, so a request without secrets builds none.
 */
function secretScrubber(known: Sequence<string>, presented: string | undefined): (text: string) => string {
  const holdsSecret = (text: string) => {
    for (let index = 0; index < known.length; index++) {
      const secret = known.at(index);
      if (secret && text.includes(secret)) return true;
    }
    return presented !== undefined && presented !== '' && text.includes(presented);
  };
  let pattern: RegExp | undefined | null = null;
  return (text) => {
    if (!holdsSecret(text)) return text;
    pattern ??= secretPattern(
      Array.from({ length: known.length }, (_, index) => known.at(index) ?? ''),
      presented,
    );
    return pattern ? text.replace(pattern, REDACTED) : text;
  };
}

/** `value` with `scrub` applied to every string inside it (keys too), however deep. */
function scrubStrings(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubStrings(item, scrub));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [scrub(key), scrubStrings(item, scrub)]));
  }
  return value;
}

/** The body as a row keeps it: parsed JSON, else its text, with every secret replaced. */
function bodyOf(text: string | undefined, scrub: (text: string) => string): unknown {
  if (!text) return null;
  // Rows are bounded in number; a huge body must not make one row unbounded in size.
  if (text.length > MAX_BODY_CHARS) return `[${text.length} characters, not kept]`;
  try {
    return scrubStrings(JSON.parse(text), scrub);
  } catch {
    // Not JSON, or JSON nested deeper than the stack can walk (`[[[…]]]`, 30 000 deep): its text,
    // so a hostile body is recorded rather than failing the request it came with.
    return scrub(text);
  }
}

/** The rows behind `mock.requests`, and how one is made from a request and its answer. */
export class Journal {
  /** Rows oldest first; up to twice the limit before trimming, so recording stays O(1) amortised. */
  #rows: MockRequest[] = [];
  readonly #roles: ReadonlyMap<string, keyof World['secrets']>;

  constructor(
    secrets: World['secrets'],
    private readonly limit: number,
  ) {
    this.#roles = new Map(Object.entries(secrets).map(([role, secret]) => [secret, role as keyof World['secrets']]));
  }

  /**
   * Keeps a row for `entry`. `secrets` are the secrets of the store the request was served from
   * (a live view): the journal is printed and serialised, and a bot may put one in a token's
   * name or a query, or present a real token by mistake where another was meant.
   */
  record(entry: Entry, secrets: Sequence<string>): void {
    if (this.limit === 0) return;
    const { header, secret, token } = entry.credential;
    const role: MockRequestToken =
      header === null || header.trim() === ''
        ? null
        : secret === undefined
          ? 'unknown'
          : (this.#roles.get(secret) ?? (token ? 'created' : 'unknown'));
    const scrub = secretScrubber(secrets, secret);
    this.#rows.push({
      method: entry.method,
      path: scrub(entry.path),
      query: scrubStrings(Object.fromEntries(entry.query), scrub) as Record<string, string>,
      endpoint: entry.endpoint,
      token: role,
      body: bodyOf(entry.body, scrub),
      status: entry.status,
      at: entry.at,
    });
    if (this.#rows.length >= this.limit * 2) this.#rows.splice(0, this.#rows.length - this.limit);
  }

  /** The newest rows, oldest first: a copy, so a test may keep it while the mock goes on. */
  rows(): readonly MockRequest[] {
    return this.#rows.slice(-this.limit);
  }

  clear(): void {
    this.#rows = [];
  }
}
