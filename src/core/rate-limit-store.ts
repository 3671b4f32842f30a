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
import { monotonicNow, RateLimitGate, readWindow, waitTooLong, type Gate, type OnHeld, type Settle } from './rate-limit';
import { sleep, withTimeout } from './sleep';
import { label, type Log, type LogTarget } from './log';
import { describeThrown } from './redact';
import { tokenIdentity } from './identity';

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
  /** Tickets are this gate's id and a count: unique across clients, cheap to make. */
  readonly #owner = Math.random().toString(36).slice(2);
  #tickets = 0;

  constructor({ store, baseUrl, token, log, now = monotonicNow }: StoreGateOptions) {
    this.#store = store;
    this.#key = tokenIdentity(baseUrl, token);
    this.#log = log;
    this.#now = now;
    this.#local = new RateLimitGate(log, now);
  }

  async acquire(target: LogTarget, budgetMs: number, signal?: AbortSignal, onHeld?: OnHeld): Promise<Settle> {
    const key = await this.#key;
    const ticket = `${this.#owner}:${this.#tickets++}`;
    const since = this.#now();
    let queued = false;
    try {
      for (;;) {
        if (this.#down) {
          this.#checkBack(key);
          return await this.#local.acquire(target, budgetMs - (this.#now() - since), signal, onHeld);
        }
        let wait: number;
        try {
          wait = await withTimeout(() => this.#store.spend(key, ticket), STORE_TIMEOUT_MS);
          if (!Number.isFinite(wait) || wait < 0) throw new Error(`spend() answered ${String(wait)}, not milliseconds ≥ 0`);
        } catch (error) {
          this.#fail(error);
          continue;
        }
        const held = this.#now() - since;
        if (wait === 0) {
          if (held > 0) onHeld?.(held);
          return (headers) => this.#record(key, headers, ticket);
        }
        queued = true;
        if (held + wait > budgetMs) throw waitTooLong(target, held + wait, budgetMs);
        this.#log.info?.(`${label(target)}: the rate-limit store says wait; holding ${wait} ms`);
        await sleep(wait, signal);
      }
    } catch (error) {
      // Given up (aborted, or the wait outlasts the timeout): its place in the store's queue goes
      // now, so those behind it go at the reset, not once the store gives the place up itself.
      if (queued) this.#record(key, undefined, ticket);
      throw error;
    }
  }

  #record(key: string, headers: Headers | undefined, ticket: string): void {
    const now = this.#now();
    if (headers) this.#local.learn(headers);
    // Recorded even without a window (a failure, or one already over, which says nothing): the
    // store counts this request as out until its record arrives.
    const window = headers && readWindow(headers, now);
    let recorded: RateLimitWindow | null | undefined;
    if (window) recorded = window.resetAt > now ? { remaining: window.remaining, resetInMs: window.resetAt - now } : undefined;
    // No limit this client can read (none, `-1` as some services say unlimited, a reset past a
    // day): `null`, as the in-process gate reads it. Recorded as a failure, each answer freed the
    // probe for the next request alone: the whole fleet went one request at a time.
    else if (headers) recorded = null;
    // Not awaited: the answer goes back to its caller now. One connection keeps the order, so
    // this client's next spend sees it.
    withTimeout(() => this.#store.record(key, recorded, ticket), STORE_TIMEOUT_MS).catch((error: unknown) => this.#fail(error));
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
    withTimeout(() => this.#store.record(key, this.#local.current()), STORE_TIMEOUT_MS).then(
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
