/**
 * The `middleware` option at work: the client's `fetch` with each middleware around it, made once
 * per core. What a middleware throws of its own (not what the fetch threw through it) is marked
 * as such: the transport ends the call with it, unretried.
 * @module
 */
import type { Settings } from './options';

/** What a middleware threw of its own (not what `next`, the client's fetch, threw through it): it ends the call. */
export class MiddlewareFailure extends Error {
  constructor(readonly thrown: unknown) {
    super('a middleware threw');
  }
}

/**
 * The client's `fetch`, with the middleware around it: each gets the request and the next step.
 * Errors of the fetch itself are marked, so that one a middleware throws of its own is told apart.
 * Made once per core (`createCore`, `withOptions`).
 */
export function middlewareFetch({ fetch, middleware }: Settings): (request: Request) => Promise<Response> {
  // The global fetch is looked up per call, so interception installed later (msw) still applies.
  const base = (request: Request) => (fetch ?? globalThis.fetch)(request);
  if (middleware.length === 0) return base;
  const fromFetch = new WeakSet<object>();
  const marked = (request: Request) =>
    base(request).catch((error: unknown) => {
      if (typeof error == 'object' && error) fromFetch.add(error);
      throw error;
    });
  const chain = middleware.reduceRight<(request: Request) => Promise<Response>>((next, each) => (request) => each(request, next), marked);
  return (request) =>
    chain(request).catch((error: unknown) => {
      if (typeof error == 'object' && error && fromFetch.has(error)) throw error;
      throw new MiddlewareFailure(error);
    });
}
