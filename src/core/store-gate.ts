/**
 * The gate of `rateLimit: store`. The store does the counting in one atomic step per request
 * ({@link RateLimitStore.spend}); this module adds what every store needs around it: the window's
 * key (a hash: the token never leaves the client), a short timeout on each call, and a fallback
 * to the in-process budget when the store fails, with one warning, until it answers again.
 * Loaded only by a client whose `rateLimit` is a store (a dynamic import, split into a chunk of
 * its own): a client on the in-process gate never carries it.
 * @module
 */
import { monotonicNow, RateLimitGate, readWindow, type Gate, type OnHeld, type Settle } from './rate-limit';
import { Holds, waitTooLong } from './rate-limit-hold';
import { STORE_RETRY_MS, STORE_TIMEOUT_MS, type RateLimitStore, type RateLimitWindow } from './rate-limit-store';
import { sleep, withTimeout } from './sleep';
import { label, type Log, type LogTarget } from './log';
import { describeThrown } from './describe';
import { tokenIdentity } from './identity';

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
    this.#local = new RateLimitGate(log, now, Holds);
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
