/**
 * Proactive rate limiting (`rateLimit: 'wait'`): the client reads `X-RateLimit-Remaining` and the
 * reset from every answer and, once the window's budget is spent, holds further requests until
 * the window resets instead of spending them on 429s.
 *
 * Requests held go out in the order they arrived: one queue, served from its head, so no loop,
 * page walk or watch on a client can overtake another and none starves. The budget is counted
 * as requests go out, not only as answers come back, so concurrent requests cannot overdraw it
 * between two answers. While the budget is unknown (the client's first request, or a window that
 * has ended), one request goes first and the rest wait for its answer: a first burst larger than
 * the limit never meets a 429 of its own making. An answer without rate-limit headers, before any
 * has shown a limit, says the service does not limit: nothing is held from then on.
 *
 * What every request runs is here: its admission and each answer's headers. Holding requests
 * (the queue, its timer, the refusal of one the wait would outlast) is `rate-limit-hold.ts`,
 * loaded the first time a request must wait: a plain call, which the budget lets go at once,
 * never runs it, so a bundle carries it as a chunk of its own. The first request held waits for
 * that chunk, once; those arriving meanwhile queue behind it in their order, and none goes
 * ahead of a held one.
 * @module
 */
import type { Log, LogTarget } from './log';
import { readDecimal } from './retry-policy';

/** What the gate learned from one answer's headers. */
export interface WindowInfo {
  remaining: number;
  /** When the window ends, in ms on the gate's clock (see {@link monotonicNow}). */
  resetAt: number;
}

/**
 * The longest window believed: a daily quota's. A reset further off is a header misread (a
 * Unix time in milliseconds where seconds belong is the year 58 000), and believing it would
 * hold every request, and a whole fleet's through a store, for good: the service is asked
 * instead, and answers for itself.
 */
const MAX_WINDOW_MS = 86_400_000;

/**
 * This machine's clock for waits, in milliseconds: monotonic, so a wall clock set back (NTP, a
 * resumed VM, a person) cannot hold a request for the hour it went back, nor one set forward
 * refuse it. Only a Unix time read from a header is put on it through the wall clock, at once.
 */
export const monotonicNow = (): number => Math.floor(performance.now()); // whole ms, as Date.now, for waits and messages

/**
 * Reads the window from `X-RateLimit-Remaining` and when it resets: `X-RateLimit-Reset-After`
 * (seconds from now, fractional) when the service sends it, else `X-RateLimit-Reset` (Unix
 * seconds, read against `wall`, this machine's wall clock now). The relative form is preferred:
 * whole seconds would hold a client up to a second past the reset (a 1-second window: nearly
 * double), and a delta needs no clock shared with the service. Taken on arrival, a delta lands a
 * little after the true reset, never before. `resetAt` is on the clock `now` reads.
 */
export function readWindow(headers: Headers, now: number, wall = Date.now()): WindowInfo | undefined {
  const remaining = readDecimal(headers.get('x-ratelimit-remaining'));
  if (!Number.isSafeInteger(remaining)) return undefined;
  const after = readDecimal(headers.get('x-ratelimit-reset-after'));
  const reset = readDecimal(headers.get('x-ratelimit-reset'));
  let resetInMs: number;
  if (Number.isFinite(after) && after >= 0) resetInMs = Math.ceil(after * 1000);
  else if (Number.isFinite(reset) && reset > 0) resetInMs = reset * 1000 - wall;
  else return undefined;
  return resetInMs <= MAX_WINDOW_MS ? { remaining, resetAt: now + resetInMs } : undefined;
}

/** Marks one admitted request as answered (with its `headers`) or failed without an answer. */
export type Settle = (headers: Headers | undefined) => void;

/** What a gate tells about a request it held, once it goes. */
export type OnHeld = (waitMs: number) => void;

/** Holds each request until the rate-limit budget allows it; one per client. */
export interface Gate {
  /**
   * Waits until one more request fits the budget and counts it as sent; the returned function
   * settles it. Rejects with `RateLimitError` (nothing sent) once the wait would exceed
   * `budgetMs` (the attempt's timeout), at once when that is already certain.
   */
  acquire(target: LogTarget, budgetMs: number, signal: AbortSignal | undefined, onHeld?: OnHeld): Promise<Settle>;
}

/** The requests a gate holds (`rate-limit-hold.ts`), loaded the first time one must wait. */
type Holds = import('./rate-limit-hold').Holds<Settle>;
/** The class of the holds, for a gate handed it by what carries it already (the client class, the store gate). */
export type HoldsClass = typeof import('./rate-limit-hold').Holds;

/**
 * The in-process budget (the default), counted in this client alone; also a store's fallback.
 * Here is what every request runs (its admission, and the bookkeeping of each answer's headers);
 * holding requests while the window is spent, in their order, loads the first time one must wait
 * (`rate-limit-hold.ts`, a chunk of its own): a client that never meets its limit never holds it.
 * What carries that module already (`CommunityServerClient`, the store gate) hands it over.
 */
export class RateLimitGate implements Gate {
  /** Requests the current window still allows; `undefined` while unknown (none seen, or a new window). */
  #remaining: number | undefined;
  #resetAt = 0;
  /** An answer has come: with `#limited` false, the service is not known to limit. */
  #answered = false;
  /** An answer has shown a limit: from then on an unknown budget is learned by a probe. */
  #limited = false;
  #inFlight = 0;
  /** A request is out to learn the budget; the others wait for its answer. */
  #probing = false;
  /** The holds, once loaded; `#loading` while they load, with the requests on their way to them. */
  #holds: Holds | undefined;
  #loading: Promise<Holds> | undefined;
  #onTheWay = 0;

  constructor(
    private readonly log: Log,
    private readonly now: () => number = monotonicNow,
    loaded?: HoldsClass,
  ) {
    if (loaded) this.#holds = this.#makeHolds(loaded);
  }

  /** Bound once: every plain admission hands out the same function. */
  readonly #settle: Settle = (headers) => this.settle(headers, false);
  readonly #settleProbe: Settle = (headers) => this.settle(headers, true);

  acquire(target: LogTarget, budgetMs: number, signal?: AbortSignal, onHeld?: OnHeld): Promise<Settle> {
    signal?.throwIfAborted();
    // Only with no one held may a request go at once: the holds' order is the order of arrival.
    const settle = this.#onTheWay === 0 && !this.#holds?.size ? this.#admit() : undefined;
    if (settle) return Promise.resolve(settle);
    if (this.#holds) return this.#holds.hold(target, budgetMs, signal, onHeld);
    this.#onTheWay++;
    const since = this.now();
    // Each on its way takes its place as the module arrives, in the order they came, its budget counted from now.
    return this.#loadHolds().then((holds) => {
      this.#onTheWay--;
      return holds.hold(target, budgetMs, signal, onHeld, since);
    });
  }

  /**
   * The holds, loaded once: when a request must wait, or as soon as an answer shows the window
   * spent, so that the request it will hold seldom waits for them.
   */
  #loadHolds(): Promise<Holds> {
    return (this.#loading ??= import('./rate-limit-hold').then(({ Holds }) => (this.#holds = this.#makeHolds(Holds))));
  }

  #makeHolds(Holds: HoldsClass): Holds {
    return new Holds({ admit: () => this.#admit(), spentFor: () => this.#spentFor(), now: this.now, log: this.log });
  }

  /**
   * Marks one acquired request as answered (with `headers`) or failed (without); `probe` says it
   * was the request out to learn the budget.
   */
  settle(headers: Headers | undefined, probe: boolean): void {
    this.#inFlight--;
    if (probe) this.#probing = false;
    if (headers) this.learn(headers);
    this.#holds?.pump();
  }
  /**
   * Takes in what an answer says about the window. While the window this gate knows is still
   * open, the answer is of the same window (a delta-based reset differs by the answer's latency
   * from one answer to the next): both budget and reset take the smaller figure, each of which is
   * safe. Once it is over, the answer's window is the next one. An answer without a window, before
   * any showed one, says the service does not limit.
   */
  learn(headers: Headers): void {
    const now = this.now();
    this.#answered = true;
    const window = readWindow(headers, now);
    if (!window || window.resetAt <= now) return;
    this.#limited = true;
    if (this.#resetAt > now && this.#remaining !== undefined) {
      this.#resetAt = Math.min(this.#resetAt, window.resetAt);
      this.#remaining = Math.min(this.#remaining, window.remaining);
    } else {
      // A newer window: requests still out may land in it too, so count them against it.
      this.#resetAt = window.resetAt;
      this.#remaining = Math.max(0, window.remaining - this.#inFlight);
    }
    if (this.#remaining === 0 && !this.#holds) this.#loadHolds().catch(() => {}); // a failure to load is the held request's to report
  }

  /** The window as this gate knows it now, if it knows one: its budget left and when it resets. */
  current(): { remaining: number; resetInMs: number } | undefined {
    const resetInMs = this.#resetAt - this.now();
    return this.#remaining === undefined || resetInMs <= 0 ? undefined : { remaining: this.#remaining, resetInMs };
  }

  /** Counts one more request out if the budget allows it now, returning its settle; else nothing. */
  #admit(): Settle | undefined {
    if (this.#remaining !== undefined && this.now() >= this.#resetAt) this.#remaining = undefined; // the window is over
    let settle = this.#settle;
    if (this.#remaining === undefined) {
      if (this.#limited || !this.#answered) {
        if (this.#probing) return undefined;
        this.#probing = true;
        settle = this.#settleProbe;
      }
    } else if (this.#remaining > 0) this.#remaining--;
    else return undefined;
    this.#inFlight++;
    return settle;
  }

  /**
   * Milliseconds until the spent window resets; 0 when it is not spent (a probe's answer is
   * awaited, or nothing holds). A spent window is at least 1 ms off: `#admit` read the clock
   * before the reset, and this reading may fall after it; 0 would arm no timer for the reset and
   * hold the request until its timeout.
   */
  #spentFor(): number {
    return this.#remaining === 0 ? Math.max(1, this.#resetAt - this.now()) : 0;
  }
}
