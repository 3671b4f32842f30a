/**
 * The journal behind `mock.requests`: one row per request the mock answered, on any door, so a
 * test can assert what a bot sent. Rows name the token by its role, never by its secret, and any
 * token secret a request carries in its path, query or body is replaced before it is kept.
 * @module
 */
import type { Credential } from './auth';
import { SecretIndex } from './secret-index';
import type { MockRequest, MockRequestToken } from '../contract/journal';
import type { TokenRecord, World } from './world';

/*
 * What a row keeps of a request: enough for any test of a real client, and little of a hostile
 * one. Rows are bounded in number, and anyone can send requests to a served mock, token or not:
 * 2 100 bodies of 16 300 empty objects each, kept parsed, held 2.4 GB.
 */
/** A body kept whole up to this many characters; the API's only body is a token's name. */
const MAX_BODY_CHARS = 4096;
/** A JSON body of more values than this is kept as its text, which costs its length; parsed, each value costs tens of bytes. */
const MAX_BODY_VALUES = 256;
/** Query parameters kept; a client of the API sends five at most. */
const MAX_QUERY_PARAMETERS = 64;
/** A path kept whole up to this many characters: all an HTTP client can send (Node takes 16 KiB of headers); only `mock.fetch` takes more. */
const MAX_PATH_CHARS = 16 * 1024;

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

/** Replaces each secret inside a string. */
type Scrub = (text: string) => string;

/** `value` with `scrub` applied to every string inside it (keys too), however deep. */
function scrubStrings(value: unknown, scrub: Scrub): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubStrings(item, scrub));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [scrub(key), scrubStrings(item, scrub)]));
  }
  return value;
}

/** The body as a row keeps it: parsed JSON, else its text, with every secret replaced. */
function bodyOf(text: string | undefined, scrub: Scrub): unknown {
  if (!text) return null;
  if (text.length > MAX_BODY_CHARS) return `[${text.length} characters, not kept]`;
  let values = 0;
  try {
    const parsed: unknown = JSON.parse(text, (_, value: unknown) => (++values > MAX_BODY_VALUES ? undefined : value));
    if (values <= MAX_BODY_VALUES) return scrubStrings(parsed, scrub);
  } catch {
    // Not JSON, or JSON nested deeper than the stack can walk (`[[[…]]]`): its text, so a
    // hostile body is recorded rather than failing the request it came with.
  }
  return scrub(text);
}

/** The query's parameters (a repeated one's last value), the first {@link MAX_QUERY_PARAMETERS} of them, and how many more there were. */
function queryOf(search: URLSearchParams, scrub: Scrub): Record<string, string> {
  const names = [...new Set(search.keys())];
  const kept = new Set(names.slice(0, MAX_QUERY_PARAMETERS));
  const query = scrubStrings(Object.fromEntries([...search].filter(([name]) => kept.has(name))), scrub) as Record<string, string>;
  if (names.length > kept.size) query['…'] = `${names.length - kept.size} more parameters, not kept`;
  return query;
}

/** The rows behind `mock.requests`, and how one is made from a request and its answer. */
export class Journal {
  /** Rows oldest first; up to twice the limit before trimming, so recording stays O(1) amortised. */
  #rows: MockRequest[] = [];
  readonly #roles: ReadonlyMap<string, keyof World['secrets']>;
  /** The secrets of the tokens table as last read (its rows in order: a new array after each write) and the reserved ones. */
  #secrets: { rows: readonly TokenRecord[]; reserved: number; index: SecretIndex } | undefined;

  constructor(
    secrets: World['secrets'],
    private readonly limit: number,
    /** Secrets no token may take (the control API's admin token): redacted as the store's are. */
    private readonly reserved: ReadonlySet<string> = new Set(),
  ) {
    this.#roles = new Map(Object.entries(secrets).map(([role, secret]) => [secret, role as keyof World['secrets']]));
  }

  /**
   * Keeps a row for `entry`. `tokens` are the rows of the tokens table the request was served
   * from, as its ordering holds them (a new array after each write): the journal is printed and
   * serialised, and a bot may put a secret in a token's name or a query, or present a real token
   * by mistake where another was meant.
   */
  record(entry: Entry, tokens: readonly TokenRecord[]): void {
    if (this.limit === 0) return;
    const { header, secret, token } = entry.credential;
    const role: MockRequestToken =
      header === null || header.trim() === ''
        ? null
        : secret === undefined
          ? 'unknown'
          : (this.#roles.get(secret) ?? (token ? 'created' : 'unknown'));
    // Every secret the store knows, the reserved ones, and the one presented (maybe a real token sent by mistake).
    const secrets = this.#indexOf(tokens);
    const scrub: Scrub = (text) => secrets.redact(text, secret);
    const { path } = entry;
    this.#rows.push({
      method: entry.method,
      path: path.length > MAX_PATH_CHARS ? `[${path.length} characters, not kept]` : scrub(path),
      query: queryOf(entry.query, scrub),
      endpoint: entry.endpoint,
      token: role,
      body: bodyOf(entry.body, scrub),
      status: entry.status,
      at: entry.at,
    });
    if (this.#rows.length >= this.limit * 2) this.#rows.splice(0, this.#rows.length - this.limit);
  }

  /**
   * The index of every secret to redact, built again only when the tokens table was written
   * since (its ordering, read once per write, is then a new array) or a secret was reserved: so a
   * request costs no more with 100 000 tokens than with five.
   */
  #indexOf(rows: readonly TokenRecord[]): SecretIndex {
    if (this.#secrets?.rows !== rows || this.#secrets.reserved !== this.reserved.size) {
      const index = new SecretIndex([...rows.map((row) => row.secret), ...this.reserved]);
      this.#secrets = { rows, reserved: this.reserved.size, index };
    }
    return this.#secrets.index;
  }

  /** The newest rows, oldest first: a copy, so a test may keep it while the mock goes on. */
  rows(): readonly MockRequest[] {
    return this.#rows.slice(-this.limit);
  }

  clear(): void {
    this.#rows = [];
  }
}
