import type * as z from 'zod/mini';
import { any, int32, int64, looseObject, maybe, str } from './common';

/**
 * A leave-of-absence request; its stage timestamps record how it moved.
 */
export const LoaSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: str,
    serverId: str,
    memberId: str,
    createdAt: int64,
    status: int32,
    startType: int32,
    extensionRequests: any,
    reasonHistory: any,
    cancelledAt: maybe(int64),
    endAt: maybe(int64),
    endedAt: maybe(int64),
    expiredAt: maybe(int64),
    reviewedAt: maybe(int64),
    startAt: maybe(int64),
    startedAt: maybe(int64),
    denyReason: maybe(str),
    endedBy: maybe(str),
    reason: maybe(str),
    reviewedBy: maybe(str),
  }))();
/**
 * A leave-of-absence request.
 * @example
 * const loa: Loa = await client.loas.get(loaId);
 * const running = loa.startedAt != null && loa.endedAt == null;
 */
export interface Loa extends z.infer<typeof LoaSchema> {}
