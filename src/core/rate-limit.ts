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
 * @module
 */
import { RateLimitError, type RequestTarget } from './error-classes';
import { label, type Log, type LogTarget } from './log';
import { Queue, type Queued } from './queue';
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

/** A request in the queue. */
interface Waiter extends Queued {
  readonly target: LogTarget;
  readonly since: number;
  /** When its budget runs out (ms since the epoch). */
  readonly deadline: number;
  readonly signal: AbortSignal | undefined;
  readonly onHeld: OnHeld | undefined;
  readonly go: (settle: Settle) => void;
  readonly fail: (error: unknown) => void;
  readonly abort: () => void;
}

/** The in-process budget (the default), counted in this client alone; also a store's fallback. */
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
  readonly #queue = new Queue<Waiter>();
  /** No waiter's budget ends before this (it may be earlier than any still queued: a scan then finds none and looks again). */
  #earliest = Number.POSITIVE_INFINITY;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = 0;

  constructor(
    private readonly log: Log,
    private readonly now: () => number = monotonicNow,
  ) {}

  /** Bound once: every plain admission hands out the same function. */
  readonly #settle: Settle = (headers) => this.settle(headers, false);
  readonly #settleProbe: Settle = (headers) => this.settle(headers, true);

  acquire(target: LogTarget, budgetMs: number, signal?: AbortSignal, onHeld?: OnHeld): Promise<Settle> {
    signal?.throwIfAborted();
    // Only with no one waiting may a request go at once: the queue's order is the order of arrival.
    const settle = this.#queue.size === 0 ? this.#admit() : undefined;
    if (settle) return Promise.resolve(settle);
    const wait = this.#spentFor();
    if (wait > budgetMs) return Promise.reject(waitTooLong(target, wait, budgetMs));
    if (wait > 0) this.log.info?.(`${label(target)}: the rate-limit window is spent; holding ${wait} ms until it resets`);
    return new Promise((resolve, reject) => {
      const since = this.now();
      const waiter: Waiter = {
        target,
        since,
        deadline: since + budgetMs,
        signal,
        onHeld,
        go: resolve,
        fail: reject,
        abort: () => {
          this.#remove(waiter);
          reject(signal?.reason);
          this.#pump(); // it may have been the head, held back by nothing else
        },
      };
      signal?.addEventListener('abort', waiter.abort, { once: true });
      this.#queue.push(waiter);
      this.#earliest = Math.min(this.#earliest, waiter.deadline);
      this.#pump();
    });
  }

  /**
   * Marks one acquired request as answered (with `headers`) or failed (without); `probe` says it
   * was the request out to learn the budget.
   */
  settle(headers: Headers | undefined, probe: boolean): void {
    this.#inFlight--;
    if (probe) this.#probing = false;
    if (headers) this.learn(headers);
    this.#pump();
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

  /** Milliseconds until the spent window resets; 0 when it is not spent (a probe's answer is awaited, or nothing holds). */
  #spentFor(): number {
    return this.#remaining === 0 ? Math.max(0, this.#resetAt - this.now()) : 0;
  }

  /** Lets go every waiter the budget allows, in order; refuses those whose budget cannot last; arms the timer for the rest. */
  #pump(): void {
    for (let head = this.#queue.peek(); head; head = this.#queue.peek()) {
      const settle = this.#admit();
      if (!settle) break;
      this.#remove(head);
      const held = this.now() - head.since;
      if (held > 0) head.onHeld?.(held);
      head.go(settle);
    }
    if (this.#queue.size === 0) return this.#disarm();
    const now = this.now();
    const until = now + this.#spentFor();
    // Who cannot go before its budget runs out is refused now, not at the end of its budget.
    if (this.#earliest < until || this.#earliest <= now) {
      this.#earliest = Number.POSITIVE_INFINITY;
      for (const waiter of this.#queue) {
        if (waiter.deadline < until || waiter.deadline <= now) {
          this.#remove(waiter);
          waiter.fail(waitTooLong(waiter.target, Math.max(until - now, now - waiter.since), waiter.deadline - waiter.since));
        } else this.#earliest = Math.min(this.#earliest, waiter.deadline);
      }
      if (this.#queue.size === 0) return this.#disarm();
    }
    // Woken at the reset (a spent window), or when the first budget runs out (a probe takes long).
    this.#arm(until > now ? Math.min(until, this.#earliest) : this.#earliest);
  }

  #remove(waiter: Waiter): void {
    this.#queue.remove(waiter);
    waiter.signal?.removeEventListener('abort', waiter.abort);
  }

  #arm(at: number): void {
    if (this.#timer !== undefined && this.#timerAt === at) return;
    this.#disarm();
    this.#timerAt = at;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#pump();
      },
      Math.max(0, at - this.now()),
    );
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** The error of a request not sent because the rate limit would hold it past its timeout. */
export function waitTooLong(target: RequestTarget, waitMs: number, budgetMs: number): RateLimitError {
  const retryAfter = Math.ceil(waitMs / 1000);
  return new RateLimitError({
    ...target,
    status: 429,
    code: 'rate_limit_wait_exceeds_timeout',
    message: `${target.method} ${target.path}: the rate limit would hold it ${waitMs} ms, longer than the ${budgetMs} ms timeout; not sent`,
    details: { waitMs, timeoutMs: budgetMs },
    headers: { 'retry-after': String(retryAfter) },
  });
}
