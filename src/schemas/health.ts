import * as z from 'zod/mini';
import { int32, looseObject, OpenObjectSchema, str } from './common';

/**
 * The body of `GET /livez`.
 */
export const HealthStatusSchema = /* @__PURE__ */ looseObject({ status: str });
/**
 * The body of `GET /livez`.
 * @example
 * const { status } = await client.health.live();
 */
export interface HealthStatus extends z.infer<typeof HealthStatusSchema> {}

/**
 * The body of `GET /metrics`.
 */
export const MetricsSchema = /* @__PURE__ */ (() => looseObject({ status: str, databasePoolSize: int32.check(z.gte(0)) }))();
/**
 * The body of `GET /metrics`.
 * @example
 * const { databasePoolSize } = await client.health.metrics();
 */
export interface Metrics extends z.infer<typeof MetricsSchema> {}

/**
 * The body of `GET /readyz`, with status 200 or 503 alike (fields left open by the spec).
 */
export const ReadinessStatusSchema = OpenObjectSchema;
/**
 * The body of `GET /readyz`.
 * @example
 * const readiness: ReadinessStatus = await client.health.ready(); // 503 throws ServiceUnavailableError
 */
export interface ReadinessStatus extends z.infer<typeof ReadinessStatusSchema> {}

/**
 * The rate-limit status of a server, from the admin endpoint (fields left open by the spec).
 */
export const RateLimitStatusSchema = OpenObjectSchema;
/**
 * The rate-limit status of a server.
 * @example
 * const status: RateLimitStatus = await client.admin.rateLimit(serverId);
 */
export interface RateLimitStatus extends z.infer<typeof RateLimitStatusSchema> {}
