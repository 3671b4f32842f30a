/**
 * The hook a tracer (`community-server-sdk/otel`'s `instrument`) installs on a client: a trace
 * per call that runs the call inside it (so what the fetch does, an auto-instrumented undici span,
 * nests under it), hears the call's events and learns how it ended. Internal: reached through a
 * registered symbol, so the tracing entry stays out of the client's bundle.
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

/** How a call ended: its last status when it was answered, its error when it failed. */
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
  end(end: CallEnd): void;
}

/** Starts a trace for each call. */
export type Tracer = (call: CallInfo) => CallTrace;

/** What a client offers under {@link INSTALL_TRACER}: adds a tracer, returns its removal. */
export type InstallTracer = (tracer: Tracer) => () => void;
