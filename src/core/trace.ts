/**
 * The hook a tracer (`community-server-sdk/otel`'s `instrument`) installs on a client: a trace
 * per call that runs the call inside it (so what the fetch does, an auto-instrumented undici span,
 * nests under it), hears the call's events and learns how it ended. Internal: reached through a
 * registered symbol, so the tracing entry stays out of the client's bundle.
 *
 * A tracer observes a call and is never part of it: whatever one throws (starting a span, its
 * context manager, an attribute, a span processor's `onStart` or `onEnd`) is reported and
 * dropped, so the call returns, or throws, what it would untraced, and runs once.
 * @module
 */
import type { ClientEvents } from './events';

/** The key of a client's `install tracer` method: registered, so both builds (ESM, CommonJS) find it. */
export const INSTALL_TRACER = Symbol.for('community-server-sdk/install-tracer');

/** One call, as a tracer sees it before it starts. */
export interface CallInfo {
  /** The client method, e.g. `members.get`. */
  readonly endpoint: string;
  readonly method: string;
  /** The path with its ids (no origin, no query). */
  readonly path: string;
  /** The path's template, e.g. `/api/v1/server/members/{memberId}`. */
  readonly template: string;
  /** The whole URL of the first attempt, query included. */
  readonly url: string;
}

/** How a call ended: the status of its last answer when it had one, and its error when it failed. */
export interface CallEnd {
  readonly status: number | undefined;
  readonly error: unknown;
}

/** A tracer's view of one call. */
export interface CallTrace {
  /** Runs the call (every attempt, wait and fetch) in the trace's context. */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** Each event of the call, as listeners get it. */
  event<Name extends keyof ClientEvents>(name: Name, event: ClientEvents[Name]): void;
  /** The call is over: answered and read (its body checked against its schema), or failed. */
  end(end: CallEnd): void;
}

/** Starts a trace for each call. */
export type Tracer = (call: CallInfo) => CallTrace;

/** What a client offers under {@link INSTALL_TRACER}: adds a tracer, returns its removal. */
export type InstallTracer = (tracer: Tracer) => () => void;

/**
 * The traces of one call, one per tracer, as one: the first tracer's context outermost. What a
 * tracer throws goes to `failed`, and that part of it is skipped; `undefined` when no tracer
 * started one. The call runs once, whatever a trace's `run` does with it (throws before running
 * it or after, never runs it, runs it again), and gives its own result, never the trace's.
 */
export function traceCall(tracers: readonly Tracer[], call: CallInfo, failed: (error: unknown) => void): CallTrace | undefined {
  const guard = <T>(action: () => T): T | undefined => {
    try {
      return action();
    } catch (error) {
      failed(error);
    }
  };
  const traces = tracers.flatMap((tracer) => guard(() => [tracer(call)]) ?? []);
  if (traces.length === 0) return undefined;
  return {
    run: (run) =>
      traces.reduceRight(
        (inner, trace) => () => {
          let running: ReturnType<typeof inner> | undefined;
          const once = () => (running ??= inner());
          guard(() => void trace.run(once)); // what it returns is ignored: the call's own promise is `running`
          return running ?? once();
        },
        run,
      )(),
    event: (name, event) => traces.forEach((trace) => guard(() => trace.event(name, event))),
    end: (end) => traces.forEach((trace) => guard(() => trace.end(end))),
  };
}
