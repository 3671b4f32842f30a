/**
 * Audit logs: the server's, and each department's.
 * @module
 */
import { AuditLogEventSchema, type AuditLogEvent } from '../../../src/schemas/index';
import type { Draw } from './draw';
import { byTime, type DepartmentRefs, type WorldTable } from './table';
import { spread } from './variety';

/** What changed, as newer events describe it: an object instead of a sentence. */
const change = (d: Draw) => ({ field: d.pick(['rank', 'roles', 'callsign', 'status']), from: d.int(0, 5), to: d.int(0, 5) });

const spec = { ...byTime<AuditLogEvent>('timestamp'), aliases: { createdAt: 'timestamp' } } as const;

export const auditLogsTable: WorldTable<AuditLogEvent> = {
  spec,
  schema: AuditLogEventSchema,
  references: { serverId: 'server' },
  row: (d, { serverId, authorIds, applications }, i) => {
    const event: AuditLogEvent = { id: d.uuid(), serverId, timestamp: d.time(), userId: d.pick(authorIds) };
    if (applications.length) d.optional(event, 'applicationId', () => d.pick(applications).id, 0.6, 0.2);
    d.optional(event, 'description', () => d.f.lorem.sentence(), 0.7, 0.1);
    d.optional(event, 'type', () => d.int(0, 12), 0.8, 0.1);
    const a = d.aside;
    return spread(event, i, {
      ...(applications.length ? { applicationId: (drawn: unknown) => (drawn as string | undefined) ?? a.pick(applications).id } : {}),
      description: (drawn) => (i % 3 === 2 ? change(a) : (drawn ?? a.sentence())),
      type: (drawn) => drawn ?? a.int(0, 12),
    });
  },
  needs: ['authorIds'],
};

export const departmentAuditLogsTable: WorldTable<AuditLogEvent, DepartmentRefs> = {
  spec,
  schema: AuditLogEventSchema,
  references: { serverId: 'server', departmentId: 'department' },
  row: (d, { serverId, rosterIds, department }, i) => {
    const event: AuditLogEvent = { id: d.uuid(), serverId, timestamp: d.time(), userId: d.pick(rosterIds), departmentId: department.id };
    d.optional(
      event,
      'description',
      () => d.pick(['Promoted', 'Demoted', 'Rank changed', 'Member added', 'Member removed', 'Strike issued']),
      0.9,
      0.05,
    );
    d.optional(event, 'type', () => d.int(0, 5), 0.8);
    const a = d.aside;
    return spread(event, i, {
      description: (drawn) => (i % 3 === 2 ? change(a) : (drawn ?? 'Rank changed')),
      type: (drawn) => drawn ?? a.int(0, 5),
    });
  },
  needs: ['rosterIds'],
};
