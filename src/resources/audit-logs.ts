import { list } from '../core/endpoint';
import { stamped } from './watch-keys';
import { AuditLogEvent } from './schemas';

export const auditLogsList = /* @__PURE__ */ list('auditLogs.list', '/api/v1/server/audit-logs', AuditLogEvent, stamped);

/** The server's audit log of application events. */
export const auditLogs = {
  /** #6: audit log events, paged. */
  list: auditLogsList,
};
