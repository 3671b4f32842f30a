/**
 * The one abortable wait, shared by the rate-limit gates, `watch()` and the mock's latency; and
 * any promise made abortable, or given a deadline.
 * @module
 */

/** The longest delay a timer takes: past it, Node and browsers fire at once (after 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Resolves after `ms` (at most ~24.8 days), or rejects with the signal's reason when it aborts first (no timer left behind). */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', done);
        resolve();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    if (signal?.aborted) done();
    else signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * `promise`, or the signal's reason as soon as it aborts; the listener goes with the answer, so
 * a long-lived signal raced against many promises holds none of them.
 */
export function abortable<R>(promise: Promise<R>, signal: AbortSignal): Promise<R> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/**
 * What `call` answers, or a rejection once `ms` pass without it: a store that hangs (a hung Redis)
 * must not stall the calls that ask it. A `call` that throws at once, rather than rejecting,
 * fails the same way.
 */
export function withTimeout<T>(call: () => T | PromiseLike<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([new Promise<T>((resolve) => resolve(call())), timeout]).finally(() => clearTimeout(timer));
}
