import { get, text } from '../core/endpoint';
import { HealthStatus, Metrics, ReadinessStatus } from './schemas';

/**
 * Probes carry no token, are not retried unless the call asks (`{ maxRetries }`), and are never
 * cached nor shared with another call: a probe should report the state now, not after backing
 * off through a 503, nor as it was when another call or process asked.
 */
const probe = { auth: false, maxRetries: 0, probe: true };

/** Health, liveness, readiness and metrics of the service. */
export const health = {
  /** #61: `"OK"`-style plain text when the database and cache are up; 503 otherwise. */
  check: text('/health', probe),
  /** #62: liveness. */
  live: get('/livez', HealthStatus, probe),
  /** #63: service metrics. */
  metrics: get('/metrics', Metrics, probe),
  /** #64: readiness; a 503 (not ready) carries the same shape, as `ServiceUnavailableError.details`. */
  ready: get('/readyz', ReadinessStatus, probe),
};
