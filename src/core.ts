/**
 * `community-server-sdk/core`: the client as functions. `createCore(options)` takes the client's
 * options and returns a core; each request of the API is a function taking the core first, named
 * by its namespace path and method in camel case (`membersList`, `cadUnitsGet`). A bundle holds
 * only the functions it imports, their schemas, and the machinery they use: the cache's store,
 * the shared rate-limit store's gate and a list's `watch()` load when first used, and listeners,
 * tracing and the query entry are the class's. Each function gives what the client's method
 * gives: `membersList(core)` the same `PagePromise` as `client.members.list()`.
 * @example
 * import { createCore, membersList, membersGet, serverInfo, NotFoundError } from 'community-server-sdk/core';
 *
 * const core = createCore({ token: process.env.TOKEN, baseUrl: 'https://api.example.com' });
 * for await (const member of membersList(core, { pageSize: 100 })) console.log(member.id);
 * const member = await membersGet(core, id, { deadline: 5_000 }).catch((error) => (error instanceof NotFoundError ? null : Promise.reject(error)));
 * console.log((await serverInfo(core)).name);
 * @module community-server-sdk/core
 */
export { Core, createCore, observe, withOptions } from './core/core';
export type { CoreFunction } from './core/function';
export * from './resources/functions';
export type { ClientOptions, Middleware, ValidationMode } from './core/options';
export type { CallEnd, CallInfo, CallObservation, CallObserver } from './core/observe';
export { APIPromise, type WithResponse } from './core/api-promise';
export { Page, PagePromise, type ToArrayOptions } from './core/pagination';
export { Watch, type WatchCursor, type WatchOptions } from './core/watch/watch';
export type { CacheMode, ListParams, RequestOptions } from './core/types';
export type { CacheOptions, CacheStats, ClientCache } from './core/cache-options';
export {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  CommunityServerError,
  ConnectionError,
  InternalServerError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
} from './core/error-classes';
