/**
 * The journal's rows as the contract names them (`mock.requests`, `GET /__mock/requests`), and
 * its one option; the engine keeps them (`engine/journal.ts`).
 * @module
 */
import type { MockTokens } from './tokens';

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
  /** The URL's path, as sent (percent-encoded), without the query; past 16 KiB, `'[N characters, not kept]'`. */
  readonly path: string;
  /** The query parameters; for a repeated name, its last value. Past 64 names, the first 64 and `'…': 'N more parameters, not kept'`. */
  readonly query: Readonly<Record<string, string>>;
  /** The client's method name of the request (`'members.get'`), or `null` where no request of the API matched. */
  readonly endpoint: string | null;
  /** Which token was presented (see {@link MockRequestToken}); never the secret. */
  readonly token: MockRequestToken;
  /** The request body: parsed JSON, or its text when it is not JSON (or holds more than 256 values); `null` without one; past 4 KiB, `'[N characters, not kept]'`. */
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
