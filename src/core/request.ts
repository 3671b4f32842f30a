/**
 * A request as the call describes it to the transport, and an answer as the transport hands it
 * back: the shapes between `call.ts`, coalescing and the cache, and `transport.ts`. A leaf of
 * types: no module needs another only for them.
 * @module
 */
import type { RequestTarget } from './error-classes';
import type { RequestOptions } from './types';

/** One request, fully described: nothing left for the transport to decide but how to send it. */
export interface OutgoingRequest extends RequestTarget {
  /** The client method, e.g. `members.get`. */
  endpoint: string;
  /** The endpoint's path template, e.g. `/api/v1/server/members/{memberId}`. */
  template: string;
  /** Already encoded, with its leading `?`, or empty. */
  query: string;
  body: unknown;
  auth: boolean;
  accept: string;
  /** Milliseconds per attempt: the call's, else the client's. */
  timeout: number;
  /** Retries: the call's, else the endpoint's own default (a probe's 0), else the client's. */
  maxRetries: number;
  /** A health probe: it reports the state now, so it is never cached nor shared. */
  probe: boolean | undefined;
  /** The caller's options; `signal` is the call's own (see the module's doc). */
  options: RequestOptions;
}

/** What an answer was: the response and its whole text, read inside the attempt (see `readingFetch`). */
export interface Received {
  response: Response;
  body: string;
}
