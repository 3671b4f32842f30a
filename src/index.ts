/**
 * `community-server-sdk`: the typed client of the Community Server Data API.
 * @example
 * import { CommunityServerClient, NotFoundError } from 'community-server-sdk';
 * const client = new CommunityServerClient({ token, baseUrl });
 * try { console.log(await client.members.get('123')); }
 * catch (error) { if (error instanceof NotFoundError) console.log('no such member'); else throw error; }
 * @module community-server-sdk
 */
export { CommunityServerClient, DEFAULTS, type ClientOptions } from './client';
export { APIPromise, type WithResponse } from './core/api-promise';
export type { CacheMode, ListParams, RequestOptions } from './core/types';
export type { CacheOptions, CacheStats, ClientCache } from './core/cache-options';
export type { CacheStore } from './core/cache-store';
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
  type ApiErrorInit,
} from './core/error-classes';
export type { ClientEvents, ClientListener, RateLimitWaitEvent, RequestEvent, ResponseEvent, RetryEvent } from './core/events';
export { Page, PagePromise, type ToArrayOptions } from './core/pagination';
export type { Logger, LogLevel } from './core/log';
export type { RateLimitMode, RateLimitStore, RateLimitWindow } from './core/rate-limit-store';
export type { Middleware, ValidationMode } from './core/options';
export type { CallEnd, CallInfo, CallObservation, CallObserver } from './core/observe';
export { Watch, type WatchCursor, type WatchOptions } from './core/watch/watch';
export type { FleetDelivery, WatchFleet } from './core/watch/fleet';
export { toDate } from './to-date';
export type {
  Account,
  Application,
  ApplicationResponse,
  AuditLogEvent,
  CadCall,
  CadCallNote,
  CadCourtHearing,
  CadRecord,
  CadUnit,
  CadUnitGroup,
  ChatIdResponse,
  CreateTokenRequest,
  Department,
  DepartmentMember,
  DepartmentRank,
  GameConnection,
  HealthStatus,
  JoinRequest,
  Loa,
  Log,
  Member,
  Metrics,
  OpenObject,
  RateLimitStatus,
  ReadinessStatus,
  Role,
  ServerInfo,
  Shift,
  Token,
  TokenList,
} from './schemas/index';
