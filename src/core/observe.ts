/**
 * Call observers (`client.observe()`, `observe(core, …)` of `community-server-sdk/core`): the
 * public hook around each whole call, where middleware is around each attempt. An observer is
 * told when a call starts and may return an observation of it: one that runs the call inside it
 * (so what the fetch does, an auto-instrumented undici span, nests under it), hears the call's
 * events and learns how it ended. `instrument()` of `community-server-sdk/otel` is one; the
 * client's listeners (`client.on`) are another.
 *
 * An observer observes a call and is never part of it: whatever one throws (starting a span, its
 * context manager, an attribute, a span processor's `onStart` or `onEnd`) is reported and
 * dropped, so the call returns, or throws, what it would unobserved, and runs once.
 * @module
 */
import type { ClientEvents } from './events';

/**
 * One call, as an observer sees it before it starts. Never the token.
 * @example
 * client.observe((call) => void console.log(`${call.endpoint}: ${call.method} ${call.url}`));
 */
export interface CallInfo {
  /** The client method, e.g. `members.get`. */
  readonly endpoint: string;
  /** `GET`, `POST` or `DELETE`. */
  readonly method: string;
  /** The path with its ids (no origin, no query). */
  readonly path: string;
  /** The path's template, e.g. `/api/v1/server/members/{memberId}`. */
  readonly template: string;
  /** The whole URL of the first attempt, query included. */
  readonly url: string;
}

/**
 * How a call ended: the status of its last answer when it had one, and its error when it failed.
 * @example
 * client.observe(() => ({ end: ({ status, error }) => console.log(status, error === undefined ? 'ok' : 'failed') }));
 */
export interface CallEnd {
  /** The status of the call's last answer; none when its last attempt got none (a network error, a timeout, the gate's refusal). */
  readonly status: number | undefined;
  /** What the call threw (redacted), or `undefined` when it succeeded. */
  readonly error: unknown;
}

/**
 * An observer's view of one call; every member optional.
 * @example
 * const observation: CallObservation = {
 *   run: (call) => tracingContext.run(span, call),
 *   event: (name, event) => span.addEvent(name, event),
 *   end: ({ error }) => span.end(error),
 * };
 */
export interface CallObservation {
  /**
   * Runs the call (every attempt, wait and fetch), e.g. inside a tracing context; calls `call`
   * once and returns its promise (the call runs once, and gives its own result, whatever it does).
   * @example
   * const observation: CallObservation = { run: (call) => context.with(trace.setSpan(context.active(), span), call) };
   */
  run?<T>(call: () => Promise<T>): Promise<T>;
  /**
   * Each event of the call, as listeners get it (`'request'`, `'response'`, `'retry'`, `'rateLimitWait'`).
   * @example
   * const observation: CallObservation = { event: (name, event) => span.addEvent(name, { ...event }) };
   */
  event?<Name extends keyof ClientEvents>(name: Name, event: ClientEvents[Name]): void;
  /**
   * The call is over: answered and read (its body checked against its schema), or failed.
   * @example
   * const observation: CallObservation = { end: ({ status, error }) => metrics.record(status, error !== undefined) };
   */
  end?(end: CallEnd): void;
}

/**
 * Told of each call as it starts (after its arguments were checked, before its first attempt);
 * returns an observation of it, or nothing to leave it be. Calls answered from the cache, or that
 * join an identical one in flight, send nothing: no observer hears of them.
 * @example
 * const stop = client.observe((call) => {
 *   const started = performance.now();
 *   return { end: ({ status }) => metrics.observe(call.endpoint, status, performance.now() - started) };
 * });
 */
export type CallObserver = (call: CallInfo) => CallObservation | undefined | void;

/** The observations of one call as one, every member there. */
export type Observed = Required<Pick<CallObservation, 'event' | 'end'>> & { run<T>(call: () => Promise<T>): Promise<T> };

/**
 * The observations of one call, one per observer, as one: the first observer's `run` outermost.
 * What an observer throws goes to `failed`, and that part of it is skipped; `undefined` when no
 * observer took the call. The call runs once, whatever an observation's `run` does with it
 * (throws before running it or after, never runs it, runs it again), and gives its own result,
 * never the observation's.
 */
export function observeCall(observers: readonly CallObserver[], call: CallInfo, failed: (error: unknown) => void): Observed | undefined {
  const guard = <T>(action: () => T): T | undefined => {
    try {
      return action();
    } catch (error) {
      failed(error);
    }
  };
  const taken = observers.flatMap((observer) => guard(() => observer(call)) ?? []);
  if (taken.length === 0) return undefined;
  return {
    run: (run) =>
      taken.reduceRight(
        (inner, observation) => () => {
          if (!observation.run) return inner();
          let running: ReturnType<typeof inner> | undefined;
          const once = () => (running ??= inner());
          guard(() => void observation.run!(once)); // what it returns is ignored: the call's own promise is `running`
          return running ?? once();
        },
        run,
      )(),
    event: (name, event) => taken.forEach((observation) => guard(() => observation.event?.(name, event))),
    end: (end) => taken.forEach((observation) => guard(() => observation.end?.(end))),
  };
}
