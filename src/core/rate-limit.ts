/**
 * Proactive rate limiting (`rateLimit: 'wait'`): the client reads `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` from every answer and, once the window's budget is spent, holds the next
 * request until the window resets instead of spending it on a 429.
 *
 * The budget is counted here as requests go out, not only as answers come back, so concurrent
 * requests (`toArray({ concurrency })`) cannot overdraw it between two answers. When a window
 * ends, one request goes first and the rest wait for its answer to learn the new budget.
 * @module
 */
import { RateLimitError, type RequestTarget } from './errors';
import { label, type Log, type LogTarget } from './log';
import { sleep } from './sleep';

/** What the gate learned from one answer's headers. */
export interface WindowInfo {
  remaining: number;
  /** When the window ends, in ms since the epoch, on this machine's clock. */
  resetAt: number;
}

/**
 * Reads the window from `X-RateLimit-Remaining` and when it resets: `X-RateLimit-Reset-After`
 * (seconds from now, fractional) when the service sends it, else `X-RateLimit-Reset` (Unix
 * seconds). The relative form is preferred: whole seconds would hold a client up to a second
 * past the reset (a 1-second window: nearly double), and a delta needs no clock shared with the
 * service. Taken on arrival, a delta lands a little after the true reset, never before.
 */
export function readWindow(headers: Headers, now: number): WindowInfo | undefined {
  const remaining = Number(headers.get('x-ratelimit-remaining') ?? Number.NaN);
  if (!Number.isSafeInteger(remaining) || remaining < 0) return undefined;
  const after = Number(headers.get('x-ratelimit-reset-after') ?? Number.NaN);
  if (Number.isFinite(after) && after >= 0) return { remaining, resetAt: now + Math.ceil(after * 1000) };
  const reset = Number(headers.get('x-ratelimit-reset') ?? Number.NaN);
  if (!Number.isFinite(reset) || reset <= 0) return undefined;
  return { remaining, resetAt: reset * 1000 };
}

/** Marks one admitted request as answered (with its `headers`) or failed (without). */
export type Settle = (headers: Headers | undefined) => void;

/** Holds each request until the rate-limit budget allows it; one per client. */
export interface Gate {
  /**
   * Waits until one more request fits the budget and counts it as sent; the returned function
   * settles it. Throws `RateLimitError` at once when that wait would exceed `budgetMs` (the
   * attempt's timeout).
   */
  acquire(target: LogTarget, budgetMs: number, signal?: AbortSignal): Promise<Settle>;
}

/** The in-process budget (the default): counted in this client alone. */
export class RateLimitGate implements Gate {
  /** Requests the current window still allows; `undefined` when unknown (none seen, or a new window). */
  #remaining: number | undefined;
  #resetAt = 0;
  /** Whether any answer has carried the headers: until then the service is not known to limit. */
  #known = false;
  #inFlight = 0;
  /** A request is out to learn a new window's budget; the others wait for its answer. */
  #probing = false;
  #onSettle: (() => void)[] = [];

  constructor(
    private readonly log: Log,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bound once: every `acquire` hands out the same function, no closure per request. */
  readonly #settle: Settle = (headers) => this.settle(headers);

  async acquire(target: LogTarget, budgetMs: number, signal?: AbortSignal): Promise<Settle> {
    for (;;) {
      if (this.#remaining === undefined) {
        if (!this.#known || !this.#probing) {
          this.#probing = this.#known;
          break;
        }
        await this.#nextSettle(signal);
        continue;
      }
      const wait = this.#resetAt - this.now();
      if (wait <= 0) {
        this.#remaining = undefined; // the window is over: its budget no longer says anything
        continue;
      }
      if (this.#remaining > 0) {
        this.#remaining--;
        break;
      }
      if (wait > budgetMs) throw waitTooLong(target, wait, budgetMs);
      this.log.info?.(`${label(target)}: the rate-limit window is spent; holding ${wait} ms until it resets`);
      await sleep(wait, signal);
    }
    this.#inFlight++;
    return this.#settle;
  }

  /** Marks one acquired request as answered (with `headers`) or failed (without). */
  settle(headers: Headers | undefined): void {
    this.#inFlight--;
    this.#probing = false;
    if (headers) this.learn(headers);
    const waiting = this.#onSettle;
    this.#onSettle = [];
    for (const wake of waiting) wake();
  }

  /**
   * Takes in what an answer says about the window. While the window this gate knows is still
   * open, the answer is of the same window (a delta-based reset differs by the answer's latency
   * from one answer to the next): both budget and reset take the smaller figure, each of which is
   * safe. Once it is over, the answer's window is the next one.
   */
  learn(headers: Headers): void {
    const now = this.now();
    const window = readWindow(headers, now);
    if (!window || window.resetAt <= now) return;
    this.#known = true;
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

  #nextSettle(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      signal?.throwIfAborted();
      const abort = () => reject(signal?.reason);
      signal?.addEventListener('abort', abort, { once: true });
      this.#onSettle.push(() => {
        signal?.removeEventListener('abort', abort);
        resolve();
      });
    });
  }
}

/** The error of a request not sent because the window resets after its timeout. */
export function waitTooLong(target: RequestTarget, waitMs: number, budgetMs: number): RateLimitError {
  const retryAfter = Math.ceil(waitMs / 1000);
  return new RateLimitError({
    ...target,
    status: 429,
    code: 'rate_limit_wait_exceeds_timeout',
    message: `${target.method} ${target.path}: the rate-limit window resets in ${waitMs} ms, longer than the ${budgetMs} ms timeout; not sent`,
    details: { waitMs, timeoutMs: budgetMs },
    headers: { 'retry-after': String(retryAfter) },
  });
}
