import * as z from 'zod/mini';
import { int64, str } from './common';

/** A request to join the server or one of its departments. */
export const JoinRequestSchema = z.looseObject({
  userId: str,
  serverId: str,
  joinCode: str,
  createdAt: int64,
});
/** A request to join the server or one of its departments. */
export interface JoinRequest extends z.infer<typeof JoinRequestSchema> {}
