import type * as z from 'zod/mini';
import { int64, looseObject, str } from './common';

/**
 * A request to join the server or one of its departments.
 */
export const JoinRequestSchema = /* @__PURE__ */ looseObject({
  userId: str,
  serverId: str,
  joinCode: str,
  createdAt: int64,
});
/**
 * A request to join the server or one of its departments.
 * @example
 * for await (const request of client.joinRequests.list()) console.log(request.userId, toDate(request.createdAt));
 */
export interface JoinRequest extends z.infer<typeof JoinRequestSchema> {}
