/**
 * Audit logs: the server's, and each department's.
 * @module
 */
import { AuditLogEventSchema, type AuditLogEvent } from '../../src/schemas/index';
import { byTime, type DepartmentRefs, type Table } from './table';

const spec = { ...byTime<AuditLogEvent>('timestamp'), aliases: { createdAt: 'timestamp' } } as const;

export const auditLogs: Table<AuditLogEvent> = {
  spec,
  schema: AuditLogEventSchema,
  row: (d, { serverId, authorIds, applications }) => {
    const event: AuditLogEvent = { id: d.uuid(), serverId, timestamp: d.time(), userId: d.pick(authorIds) };
    if (applications.length) d.optional(event, 'applicationId', () => d.pick(applications).id, 0.6, 0.2);
    d.optional(event, 'description', () => d.f.lorem.sentence(), 0.7, 0.1);
    d.optional(event, 'type', () => d.int(0, 12), 0.8, 0.1);
    return event;
  },
  needs: ['authorIds'],
};

export const departmentAuditLogs: Table<AuditLogEvent, DepartmentRefs> = {
  spec,
  schema: AuditLogEventSchema,
  row: (d, { serverId, rosterIds, department }) => {
    const event: AuditLogEvent = { id: d.uuid(), serverId, timestamp: d.time(), userId: d.pick(rosterIds), departmentId: department.id };
    d.optional(
      event,
      'description',
      () => d.pick(['Promoted', 'Demoted', 'Rank changed', 'Member added', 'Member removed', 'Strike issued']),
      0.9,
      0.05,
    );
    d.optional(event, 'type', () => d.int(0, 5), 0.8);
    return event;
  },
  needs: ['rosterIds'],
};
