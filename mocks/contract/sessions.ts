/**
 * Mock sessions as the control API names them (`POST /__mock/sessions`, `connectMock(…).sessions`):
 * what opening one takes and answers, apart from the code that keeps them (`doors/sessions/`,
 * Node only), so the operations table and the browser-safe `mock/remote` entry name them
 * without importing it.
 * @module
 */
import type { MockOptions } from './options';
import type { MockTokens } from './tokens';

/**
 * What a new session differs in from the server's own mock (`sessions.create(options)`): left
 * out, each is the root mock's (its world, latency, rate limit…). The tokens are always fresh
 * random secrets, so no other session and not the root accepts them.
 * @example
 * const session = await remote.sessions.create({ seed: 7, ttlMs: 60_000 });
 */
export interface MockSessionOptions extends Pick<
  MockOptions,
  'seed' | 'counts' | 'world' | 'latency' | 'rateLimit' | 'authFailureLimit' | 'authErrorShape' | 'activity'
> {
  /** Milliseconds without a request (API or control) after which the session is closed (default 600 000: 10 minutes). */
  ttlMs?: number;
}

/**
 * A session as `POST /__mock/sessions` answers it: where it is served, the admin token of its own
 * control API, and its five API tokens.
 * @example
 * const { baseUrl, tokens } = await (await fetch(`${url}/__mock/sessions`, { method: 'POST', headers })).json();
 */
export interface NewMockSession {
  /** Names the session in `DELETE /__mock/sessions/{id}`. */
  readonly id: string;
  /** The session's mock: its API at `baseUrl + '/api/v1/…'`, its control API at `baseUrl + '/__mock/…'`. */
  readonly baseUrl: string;
  /** Opens the session's own control API, and nothing else. */
  readonly adminToken: string;
  /** The five API tokens of its world: `main`, `noCad`, `readOnly`, `expired`, `revoked`. */
  readonly tokens: MockTokens;
}

/**
 * An open session, as `sessions.list()` describes it.
 * @example
 * const idle = (await remote.sessions.list()).filter((session) => Date.now() - session.lastUsedAt > 60_000);
 */
export interface MockSessionInfo {
  /** Names the session in `DELETE /__mock/sessions/{id}`. */
  readonly id: string;
  /** Where it is served, as the request that listed it reached the server. */
  readonly baseUrl: string;
  /** When it was opened, in ms since the epoch. */
  readonly createdAt: number;
  /** When it last received a request, API or control, in ms since the epoch. */
  readonly lastUsedAt: number;
}
