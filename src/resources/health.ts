import { get, text } from '../core/endpoint';
import { HealthStatus, Metrics, ReadinessStatus } from './schemas';

/**
 * Probes carry no token, are not retried unless the call asks (`{ maxRetries }`), and are never
 * cached nor shared with another call: a probe should report the state now, not after backing
 * off through a 503, nor as it was when another call or process asked.
 */
const probe = { auth: false, maxRetries: 0, probe: true };

export const healthCheck = /* @__PURE__ */ text('health.check', '/health', probe);
export const healthLive = /* @__PURE__ */ get('health.live', '/livez', HealthStatus, probe);
export const healthMetrics = /* @__PURE__ */ get('health.metrics', '/metrics', Metrics, probe);
export const healthReady = /* @__PURE__ */ get('health.ready', '/readyz', ReadinessStatus, probe);

/** Health, liveness, readiness and metrics of the service. */
export const health = {
  /** #61: `"OK"`-style plain text when the database and cache are up; 503 otherwise. */
  check: healthCheck,
  /** #62: liveness. */
  live: healthLive,
  /** #63: service metrics. */
  metrics: healthMetrics,
  /** #64: readiness; a 503 (not ready) carries the same shape, as `ServiceUnavailableError.details`. */
  ready: healthReady,
};
