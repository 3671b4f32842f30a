/**
 * A rate-limit budget counted outside the client (`rateLimit: store`), so that several clients —
 * in several processes or machines — sharing one token stay inside the one window together.
 *
 * The store does the counting in one atomic step per request ({@link RateLimitStore.spend});
 * this module adds what every store needs around it: the window's key (a hash: the token never
 * leaves the client), a short timeout on each call, and a fallback to the in-process budget when
 * the store fails, with one warning, until it answers again.
 * @module
 */
import { RateLimitGate, readWindow, waitTooLong, type Gate, type Settle } from './rate-limit';
import { sleep } from './sleep';
import { label, type Log, type LogTarget } from './log';
import { describeThrown } from './redact';

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
 * The protocol: before each request the client calls `spend(key)`; the store either counts the
 * request against the window and answers `0` ("go"), or answers how long to wait before asking
 * again (until the window resets, or briefly while another client's first request of a new
 * window learns its budget). After the answer, `record(key, window)` hands the store what the
 * service said: the window's real budget and reset.
 * @example
 * import { CommunityServerClient, type RateLimitStore, type RateLimitWindow } from 'community-server-sdk';
 *
 * // A store in one process (what the default does), to show the protocol:
 * const windows = new Map<string, { remaining: number; resetAt: number }>();
 * const store: RateLimitStore = {
 *   async spend(key) {
 *     const window = windows.get(key);
 *     if (!window || Date.now() >= window.resetAt) return 0; // unknown or over: go and learn
 *     if (window.remaining > 0) return (window.remaining--, 0);
 *     return window.resetAt - Date.now();
 *   },
 *   async record(key, window?: RateLimitWindow) {
 *     if (window) windows.set(key, { remaining: window.remaining, resetAt: Date.now() + window.resetInMs });
 *   },
 * };
 * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com', rateLimit: store });
 */
export interface RateLimitStore {
  /**
   * Spends one request of the window `key` names, atomically: resolves `0` when the request may
   * go (it is counted), else the milliseconds to wait before asking again.
   * @example
   * // What a client does before each request, e.g. when testing a store of your own:
   * for (let wait = await store.spend(key); wait > 0; wait = await store.spend(key)) await sleep(wait);
   */
  spend(key: string): Promise<number>;
  /**
   * Records what an answer said about the window, or `undefined` when the request failed without
   * an answer (a probe for a new window is then free to go again). While the store is failing, a
   * client also calls `record` now and then, with the window as it knows it, to learn when the
   * store answers again.
   * @example
   * // What a client does after an answer with X-RateLimit-Remaining: 41 and a reset in 30 s:
   * await store.record(key, { remaining: 41, resetInMs: 30_000 });
   */
  record(key: string, window: RateLimitWindow | undefined): Promise<void>;
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

/**
 * The window's key: a hash of base URL and token, so the token itself never reaches the store
 * (nor its keys, logs or dumps), while clients of one token on one service find one window.
 */
async function windowKey(baseUrl: string, token: string | undefined): Promise<string> {
  const bytes = new TextEncoder().encode(`${baseUrl}\n${token ?? ''}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${STORE_TIMEOUT_MS} ms`)), STORE_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface StoreGateOptions {
  store: RateLimitStore;
  baseUrl: string;
  token: string | undefined;
  /** Warned once, the first time the store fails; told (`info`) of holds and of the store's return. */
  log: Log;
  now?: () => number;
}

/** The gate of `rateLimit: store`: the store's budget, or this client's own while it fails. */
export class StoreGate implements Gate {
  readonly #store: RateLimitStore;
  readonly #key: Promise<string>;
  readonly #log: Log;
  readonly #now: () => number;
  /** The fallback, kept informed by every answer so it knows the window when it takes over. */
  readonly #local: RateLimitGate;
  /** The store failed: requests count on `#local` until a check in the background succeeds. */
  #down = false;
  #checking = false;
  #checkAfter = 0;
  #warned = false;

  constructor({ store, baseUrl, token, log, now = Date.now }: StoreGateOptions) {
    this.#store = store;
    this.#key = windowKey(baseUrl, token);
    this.#log = log;
    this.#now = now;
    this.#local = new RateLimitGate(log, now);
  }

  async acquire(target: LogTarget, budgetMs: number, signal?: AbortSignal): Promise<Settle> {
    const key = await this.#key;
    for (;;) {
      if (this.#down) {
        this.#checkBack(key);
        return this.#local.acquire(target, budgetMs, signal);
      }
      let wait: number;
      try {
        wait = await withTimeout(this.#store.spend(key));
        if (!Number.isFinite(wait) || wait < 0) throw new Error(`spend() answered ${String(wait)}, not milliseconds ≥ 0`);
      } catch (error) {
        this.#fail(error);
        continue;
      }
      if (wait === 0) return (headers) => this.#record(key, headers);
      if (wait > budgetMs) throw waitTooLong(target, wait, budgetMs);
      this.#log.info?.(`${label(target)}: the rate-limit store says wait; holding ${wait} ms`);
      await sleep(wait, signal);
    }
  }

  #record(key: string, headers: Headers | undefined): void {
    const now = this.#now();
    if (headers) this.#local.learn(headers);
    const window = headers && readWindow(headers, now);
    // Recorded even without a window (a failure, or one already over, which says nothing): the
    // store counts this request as out until its record arrives.
    const recorded = window && window.resetAt > now ? { remaining: window.remaining, resetInMs: window.resetAt - now } : undefined;
    // Not awaited: the answer goes back to its caller now. One connection keeps the order, so
    // this client's next spend sees it.
    withTimeout(this.#store.record(key, recorded)).catch((error: unknown) => this.#fail(error));
  }

  /**
   * While the store is down, no request waits on it: a check runs beside them, at most one at a
   * time and one per `STORE_RETRY_MS`, and the first that succeeds brings the store back. The
   * check hands the store what this client knows of the window: a store that comes back empty
   * (a restarted Redis) would otherwise let requests go into a window this client has spent.
   */
  #checkBack(key: string): void {
    if (this.#checking || this.#now() < this.#checkAfter) return;
    this.#checking = true;
    withTimeout(this.#store.record(key, this.#local.current())).then(
      () => {
        this.#down = false;
        this.#checking = false;
        this.#log.info?.('the rate-limit store answers again; counting the budget in it');
      },
      () => {
        this.#checkAfter = this.#now() + STORE_RETRY_MS;
        this.#checking = false;
      },
    );
  }

  #fail(error: unknown): void {
    this.#down = true;
    this.#checkAfter = this.#now() + STORE_RETRY_MS;
    if (this.#warned) return;
    this.#warned = true;
    // The store's own message (a Redis host, a timeout). The token never reaches the store, but
    // a store is the caller's code: the log redacts it all the same.
    this.#log.warn?.(
      `the rate-limit store failed (${describeThrown(error)}); counting this client's budget in-process until it answers again`,
    );
  }
}
