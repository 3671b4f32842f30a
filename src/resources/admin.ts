import { get } from '../core/endpoint';
import { RateLimitStatus } from './schemas';

export const adminRateLimit = /* @__PURE__ */ get('admin.rateLimit', '/api/v1/admin/server/{serverId}/rate-limit', RateLimitStatus);

/** Administrative operations addressed by an explicit server id. */
export const admin = {
  /** #1: the rate-limit status of a server. Needs the token-management permission. */
  rateLimit: adminRateLimit,
};
