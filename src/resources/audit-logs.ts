import { list } from '../core/endpoint';
import { stamped } from './watch-keys';
import { AuditLogEvent } from './schemas';

/** The server's audit log of application events. */
export const auditLogs = {
  /** #6: audit log events, paged. */
  list: list('/api/v1/server/audit-logs', AuditLogEvent, stamped),
};
