import type * as z from 'zod/mini';
import { anyOpt, int32, int64, looseObject, maybe, str } from './common';

/**
 * An event in the audit log of applications, server-wide or of one department.
 */
export const AuditLogEventSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: str,
    serverId: str,
    timestamp: int64,
    userId: str,
    applicationId: maybe(str),
    description: anyOpt,
    type: maybe(int32),
  }))();
/**
 * An event in an audit log.
 * @example
 * for await (const event of client.auditLogs.list()) console.log(event.userId, toDate(event.timestamp));
 */
export interface AuditLogEvent extends z.infer<typeof AuditLogEventSchema> {}
