import type * as z from 'zod/mini';
import { any, bool, int32, int64, looseObject, maybe, str } from './common';

/**
 * A moderation log entry (warning, kick, ban…).
 */
export const LogSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: str,
    serverId: str,
    type: int32,
    text: str,
    createdAt: int64,
    createdBy: str,
    editedBy: any,
    username: str,
    proof: any,
    completedBy: maybe(str),
    deniedBy: maybe(str),
    description: maybe(str),
    hiddenBy: maybe(str),
    expiredBy: maybe(str),
    gameId: maybe(str),
    typeId: maybe(str),
    expired: maybe(bool),
    hidden: maybe(bool),
    tempBan: maybe(bool),
    expiredAt: maybe(int64),
    unbanAt: maybe(int64),
  }))();
/**
 * A moderation log entry.
 * @example
 * for await (const log of client.logs.byUser(username)) console.log(toDate(log.createdAt), log.text);
 */
export interface Log extends z.infer<typeof LogSchema> {}
