/**
 * The waiting side of the in-process rate-limit gate (`rate-limit.ts`): the requests it holds
 * while the window's budget is spent (or while a probe's answer is awaited), let go in the order
 * they arrived as the budget allows, each refused with `RateLimitError` once it cannot go before
 * its budget of time runs out. A plain call whose budget allows it at once never runs any of
 * this, so the gate loads it the first time a request must wait (a dynamic import, a chunk of its
 * own); the store-backed gate (`store-gate.ts`) uses its refusal too.
 * @module
 */
import { RateLimitError, type RequestTarget } from './error-classes';
import { label, type Log, type LogTarget } from './log';
import { Queue, type Queued } from './queue';

/**
 * What the holds need of their gate's budget: one more request counted out if it allows it now
 * (its `Ticket`, what settles it), how long until a spent window resets, the gate's clock and log.
 */
export interface Budget<Ticket> {
  admit(): Ticket | undefined;
  spentFor(): number;
  readonly now: () => number;
  readonly log: Log;
}

/** What a gate tells about a request it held, once it goes: how long it was held. */
type OnHeld = (waitMs: number) => void;

/** A request in the queue. */
interface Waiter<Ticket> extends Queued {
  readonly target: LogTarget;
  readonly since: number;
  /** When its budget runs out (on the gate's clock). */
  readonly deadline: number;
  readonly signal: AbortSignal | undefined;
  readonly onHeld: OnHeld | undefined;
  readonly go: (ticket: Ticket) => void;
  readonly fail: (error: unknown) => void;
  readonly abort: () => void;
}

/** The requests one gate holds: one queue, served from its head, so none overtakes another and none starves. */
export class Holds<Ticket> {
  readonly #budget: Budget<Ticket>;
  readonly #queue = new Queue<Waiter<Ticket>>();
  /** No waiter's budget ends before this (it may be earlier than any still queued: a scan then finds none and looks again). */
  #earliest = Number.POSITIVE_INFINITY;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = 0;

  constructor(budget: Budget<Ticket>) {
    this.#budget = budget;
  }

  /** Requests held now. */
  get size(): number {
    return this.#queue.size;
  }

  /**
   * Holds a request behind those already held, until the budget lets it go; rejects at once
   * with `RateLimitError` when the spent window outlasts its `budgetMs`.
   */
  hold(
    target: LogTarget,
    budgetMs: number,
    signal: AbortSignal | undefined,
    onHeld: OnHeld | undefined,
    /** When the request came to the gate: before this module had loaded, for the first held. */
    since = this.#budget.now(),
  ): Promise<Ticket> {
    // Aborted while the holds loaded: it goes no further, as one aborted before its turn.
    if (signal?.aborted) return Promise.reject(signal.reason);
    const { now, log } = this.#budget;
    const wait = this.#budget.spentFor();
    const waited = now() - since;
    if (waited + wait > budgetMs) return Promise.reject(waitTooLong(target, waited + wait, budgetMs));
    if (wait > 0) log.info?.(`${label(target)}: the rate-limit window is spent; holding ${wait} ms until it resets`);
    return new Promise((resolve, reject) => {
      const waiter: Waiter<Ticket> = {
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
          this.pump(); // it may have been the head, held back by nothing else
        },
      };
      signal?.addEventListener('abort', waiter.abort, { once: true });
      this.#queue.push(waiter);
      this.#earliest = Math.min(this.#earliest, waiter.deadline);
      this.pump();
    });
  }

  /** Lets go every waiter the budget allows, in order; refuses those whose budget cannot last; arms the timer for the rest. */
  pump(): void {
    const budget = this.#budget;
    for (let head = this.#queue.peek(); head; head = this.#queue.peek()) {
      const ticket = budget.admit();
      if (!ticket) break;
      this.#remove(head);
      const held = budget.now() - head.since;
      if (held > 0) head.onHeld?.(held);
      head.go(ticket);
    }
    if (this.#queue.size === 0) return this.#disarm();
    const now = budget.now();
    const until = now + budget.spentFor();
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

  #remove(waiter: Waiter<Ticket>): void {
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
        this.pump();
      },
      Math.max(0, at - this.#budget.now()),
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
