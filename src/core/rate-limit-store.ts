/**
 * A rate-limit budget counted outside the client (`rateLimit: store`), so that several clients —
 * in several processes or machines — sharing one token stay inside the one window together: the
 * {@link RateLimitStore} contract, and the `rateLimit` option's modes. The gate that drives a
 * store (`store-gate.ts`) loads only with a client given one.
 * @module
 */

/**
 * What one answer said about the rate-limit window, as a store records it.
 * @example
 * const window: RateLimitWindow = { remaining: 19, resetInMs: 1000 };
 */
export interface RateLimitWindow {
  /** Requests the window still allows, per the service (`X-RateLimit-Remaining`). */
  remaining: number;
  /**
   * Milliseconds until the window resets, from when the answer arrived. Relative, so a store
   * shared across machines puts it on its own clock rather than comparing theirs.
   */
  resetInMs: number;
}

/**
 * Where a rate-limit window's budget is counted: pass one as `rateLimit` to share the budget of
 * one token between clients (`redisRateLimitStore` from `community-server-sdk/redis` counts it
 * in Redis). Both methods must be atomic for the clients sharing the store.
 *
 * The protocol: before each request the client calls `spend(key, ticket)` until it answers `0`
 * ("go": the request is counted), waiting the milliseconds of any other answer between calls.
 * `ticket` names the request: the same string on every call for it, unique across clients. A
 * fair store serves tickets in the order of their first call, so waiting requests go out in the
 * order they arrived, whichever client sent them. A request that gives up waiting (its caller
 * aborts, or the wait outlasts its timeout) is recorded at once with its ticket and no window,
 * and leaves the queue then: those behind it go at the reset. A ticket not asked about again
 * within the wait it was given (and a second of grace) belongs to a client that died, and loses
 * its place.
 * While no window is known (at the start, or after a reset) a store lets one request go to learn
 * the budget and holds the rest until that one is recorded. After the answer,
 * `record(key, window, ticket)` hands the store what the service said: the window's budget and
 * reset; `null` when the answer carried no rate-limit headers the client can read (the service
 * does not limit: until an answer shows a limit, requests need not wait); `undefined` when the
 * request failed without an answer, or its answer told of a window already over, or it gave up
 * while still queued.
 * @example
 * import { CommunityServerClient, type RateLimitStore, type RateLimitWindow } from 'community-server-sdk';
 *
 * // The protocol in one process, first come first served (what the default does in-process):
 * const queue: string[] = [];
 * let window: { remaining: number; resetAt: number } | undefined;
 * let probe: string | undefined;
 * let unlimited = false;
 * const store: RateLimitStore = {
 *   async spend(_key, ticket) {
 *     if (!queue.includes(ticket)) queue.push(ticket);
 *     if (queue[0] !== ticket) return 10; // not its turn yet
 *     if (window && Date.now() < window.resetAt) {
 *       if (window.remaining === 0) return window.resetAt - Date.now();
 *       window.remaining--;
 *     } else if (!unlimited) {
 *       if (probe) return 10; // the window's first request is out to learn its budget
 *       probe = ticket;
 *     }
 *     queue.shift();
 *     return 0;
 *   },
 *   async record(_key, answered: RateLimitWindow | null | undefined, ticket) {
 *     if (ticket && queue.includes(ticket)) return void queue.splice(queue.indexOf(ticket), 1); // gave up waiting
 *     if (ticket === probe) probe = undefined;
 *     if (answered === null) unlimited = !window;
 *     if (answered) window = { remaining: answered.remaining, resetAt: Date.now() + answered.resetInMs };
 *   },
 * };
 * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com', rateLimit: store });
 */
export interface RateLimitStore {
  /**
   * Spends one request of the window `key` names, atomically: resolves `0` when the request may
   * go (it is counted), else the milliseconds to wait before asking again. `ticket` is the
   * request's, the same on every call for it.
   * @example
   * // What a client does before each request, e.g. when testing a store of your own:
   * const ticket = crypto.randomUUID();
   * for (let wait = await store.spend(key, ticket); wait > 0; wait = await store.spend(key, ticket)) await sleep(wait);
   */
  spend(key: string, ticket: string): Promise<number>;
  /**
   * Records what an answer said about the window: the window; `null` for an answer without
   * rate-limit headers the client can read; `undefined` when the request failed without an
   * answer (a probe for a new window is then free to go again), or gave up while queued (it
   * leaves the queue, and nothing else changes). `ticket` is the request's (the one its `spend` was given);
   * absent when the client, while the store was failing, only asks whether it answers again,
   * handing it the window as the client knows it.
   * @example
   * // What a client does after an answer with X-RateLimit-Remaining: 41 and a reset in 30 s:
   * await store.record(key, { remaining: 41, resetInMs: 30_000 }, ticket);
   */
  record(key: string, window: RateLimitWindow | null | undefined, ticket?: string): Promise<void>;
}

/**
 * What `rateLimit` takes: `'wait'` (hold requests while the window is spent), `'off'` (send
 * regardless), or a store (as `'wait'`, with the budget counted in the store).
 * @example
 * const mode: RateLimitMode = process.env.CI ? 'off' : 'wait';
 * const client = new CommunityServerClient({ rateLimit: mode });
 */
export type RateLimitMode = 'wait' | 'off' | RateLimitStore;

/** Whether `value` has the two methods of a {@link RateLimitStore}. */
export const isRateLimitStore = (value: unknown): value is RateLimitStore =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as RateLimitStore).spend === 'function' &&
  typeof (value as RateLimitStore).record === 'function';

/** A store call slower than this counts as a failure: a hung store must not stall requests. */
export const STORE_TIMEOUT_MS = 500;
/** After a failure, the store is tried again this often, in the background. */
export const STORE_RETRY_MS = 500;
