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

/** What the gate learned from one answer's headers. */
interface WindowInfo {
  remaining: number;
  /** When the window ends, in ms since the epoch. */
  resetAt: number;
}

/** Reads the window from `X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix seconds). */
export function readWindow(headers: Headers): WindowInfo | undefined {
  const remaining = Number(headers.get('x-ratelimit-remaining') ?? Number.NaN);
  const reset = Number(headers.get('x-ratelimit-reset') ?? Number.NaN);
  if (!Number.isSafeInteger(remaining) || remaining < 0 || !Number.isFinite(reset) || reset <= 0) return undefined;
  return { remaining, resetAt: reset * 1000 };
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', done);
      resolve();
    }, ms);
    if (signal?.aborted) done();
    else signal?.addEventListener('abort', done, { once: true });
  });
}

export class RateLimitGate {
  /** Requests the current window still allows; `undefined` when unknown (none seen, or a new window). */
  #remaining: number | undefined;
  #resetAt = 0;
  /** Whether any answer has carried the headers: until then the service is not known to limit. */
  #known = false;
  #inFlight = 0;
  /** A request is out to learn a new window's budget; the others wait for its answer. */
  #probing = false;
  #onSettle: (() => void)[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Waits until one more request fits the budget, then counts it as sent. Throws
   * `RateLimitError` at once when that wait would exceed `budgetMs` (the attempt's timeout).
   */
  async acquire(target: RequestTarget, budgetMs: number, signal?: AbortSignal): Promise<void> {
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
      await sleep(wait, signal);
    }
    this.#inFlight++;
  }

  /** Marks one acquired request as answered (with `headers`) or failed (without). */
  settle(headers: Headers | undefined): void {
    this.#inFlight--;
    this.#probing = false;
    const window = headers && readWindow(headers);
    if (window) {
      this.#known = true;
      if (window.resetAt > this.#resetAt) {
        // A newer window: requests still out may land in it too, so count them against it.
        this.#resetAt = window.resetAt;
        this.#remaining = Math.max(0, window.remaining - this.#inFlight);
      } else if (window.resetAt === this.#resetAt) {
        this.#remaining = Math.min(this.#remaining ?? window.remaining, window.remaining);
      }
    }
    const waiting = this.#onSettle;
    this.#onSettle = [];
    for (const wake of waiting) wake();
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

function waitTooLong(target: RequestTarget, waitMs: number, budgetMs: number): RateLimitError {
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
