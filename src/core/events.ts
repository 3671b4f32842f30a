/**
 * What a client tells listeners (`client.on(…)`) and tracers about its calls: each attempt sent
 * and answered, each retry and each rate-limit hold. Payloads name the request by its endpoint
 * (`members.get`) and path, never by anything that could hold the token.
 * @module
 */
import { describe } from './arguments';
import { InvalidArgumentError } from './error-classes';
import type { Log } from './log';
import { describeThrown } from './describe';

/**
 * An attempt about to be sent (`'request'`).
 * @example
 * client.on('request', ({ endpoint, attempt }) => console.log(`→ ${endpoint} (attempt ${attempt})`));
 */
export interface RequestEvent {
  /** The client method, e.g. `members.get`. */
  readonly endpoint: string;
  /** `GET`, `POST` or `DELETE`. */
  readonly method: string;
  /** The path with its ids, without origin or query. */
  readonly path: string;
  /** 1 for the first attempt of a call, 2 for its first retry, … */
  readonly attempt: number;
}

/**
 * An attempt answered, whatever the status (`'response'`). Attempts that get no answer (a network
 * error, a timeout) have none; their `'retry'` event, or the call's error, says why.
 * @example
 * client.on('response', ({ endpoint, status, durationMs }) => metrics.observe(endpoint, status, durationMs));
 */
export interface ResponseEvent extends RequestEvent {
  /** The HTTP status. */
  readonly status: number;
  /** Milliseconds from sending to the whole body read. */
  readonly durationMs: number;
}

/**
 * A failed attempt that will be tried again after `waitMs` (`'retry'`).
 * @example
 * client.on('retry', ({ endpoint, attempt, reason, waitMs }) => console.warn(`${endpoint}: ${reason}; retry ${attempt} in ${waitMs} ms`));
 */
export interface RetryEvent {
  /** The client method, e.g. `members.get`. */
  readonly endpoint: string;
  /** `GET` (only GETs are retried). */
  readonly method: string;
  /** The path with its ids, without origin or query. */
  readonly path: string;
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  /** Why: `503`, `429, Retry-After 2`, `timed out`, `network error (fetch failed)`. */
  readonly reason: string;
  /** The HTTP status, when the attempt was answered. */
  readonly status: number | undefined;
  /** Milliseconds until the next attempt. */
  readonly waitMs: number;
}

/**
 * A request the rate limit held before it went (`'rateLimitWait'`): sent once the window allowed it.
 * @example
 * client.on('rateLimitWait', ({ endpoint, waitMs }) => console.log(`${endpoint} waited ${waitMs} ms for the rate limit`));
 */
export interface RateLimitWaitEvent {
  /** The client method, e.g. `members.get`. */
  readonly endpoint: string;
  /** `GET`, `POST` or `DELETE`. */
  readonly method: string;
  /** The path with its ids, without origin or query. */
  readonly path: string;
  /** Milliseconds it was held. */
  readonly waitMs: number;
}

/**
 * The events of `client.on(event, listener)`, by name.
 * @example
 * const onRetry = (event: ClientEvents['retry']) => console.warn(event.reason);
 * client.on('retry', onRetry);
 */
export interface ClientEvents {
  /** Each attempt, as it is sent. */
  request: RequestEvent;
  /** Each attempt that got an answer. */
  response: ResponseEvent;
  /** Each failed attempt that will be tried again. */
  retry: RetryEvent;
  /** Each request the rate limit held, as it goes. */
  rateLimitWait: RateLimitWaitEvent;
}

/**
 * A listener of one event. What it returns is ignored; a throw or a rejected promise is reported
 * once (a `warn` line) and never fails the call.
 * @example
 * const listener: ClientListener<'response'> = (event) => void log.write(`${event.endpoint} ${event.status}`);
 */
export type ClientListener<Name extends keyof ClientEvents> = (event: ClientEvents[Name]) => unknown;

const EVENT_NAMES: readonly (keyof ClientEvents)[] = ['request', 'response', 'retry', 'rateLimitWait'];

/** One registration: its own object, so the same function added twice is two listeners, removed one at a time. */
interface Registration {
  readonly name: keyof ClientEvents;
  readonly listener: (event: never) => unknown;
  warned?: boolean;
}

/** The client's listeners. `active` is false while there are none, so a call then builds no payload. */
export class Emitter {
  #registrations: readonly Registration[] = [];

  constructor(private readonly log: Log) {}

  /** Whether any listener is registered: calls build payloads only then. */
  get active(): boolean {
    return this.#registrations.length > 0;
  }

  on<Name extends keyof ClientEvents>(name: Name, listener: ClientListener<Name>): () => void {
    if (!EVENT_NAMES.includes(name)) {
      throw new InvalidArgumentError(`unknown event ${describe(name)} (known: ${EVENT_NAMES.join(', ')})`);
    }
    if (typeof listener !== 'function') throw new InvalidArgumentError(`a listener must be a function, got ${describe(listener)}`);
    const registration: Registration = { name, listener };
    // Replaced, never changed in place: an event being delivered keeps the listeners it started with.
    this.#registrations = [...this.#registrations, registration];
    return () => void (this.#registrations = this.#registrations.filter((other) => other !== registration));
  }

  emit<Name extends keyof ClientEvents>(name: Name, event: ClientEvents[Name]): void {
    for (const registration of this.#registrations) {
      if (registration.name !== name) continue;
      const failed = (error: unknown) => {
        if (registration.warned) return;
        registration.warned = true; // once per listener: a broken one on a busy client must not flood the log
        this.log.warn?.(`a '${name}' listener failed (${describeThrown(error)}); the call went on`);
      };
      try {
        const result = registration.listener(event as never);
        if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
          (result as PromiseLike<unknown>).then(undefined, failed);
        }
      } catch (error) {
        failed(error);
      }
    }
  }
}
