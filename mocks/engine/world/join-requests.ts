/**
 * Requests to join: the server's, and each department's. Keyed by the user, who has at most one.
 * @module
 */
import { JoinRequestSchema, type JoinRequest } from '../../../src/schemas/index';
import type { Draw } from './draw';
import type { DepartmentRefs, ServerRefs, WorldTable } from './table';

const spec = { key: 'userId', orderBy: ['createdAt', 'userId'], sort: 'desc' } as const;

const serverRequest = (d: Draw, { serverId, joinCodes }: ServerRefs, userId: string): JoinRequest => ({
  userId,
  serverId,
  joinCode: d.pick(joinCodes),
  createdAt: d.time(),
});

export const joinRequestsTable: WorldTable<JoinRequest> = {
  spec,
  schema: JoinRequestSchema,
  references: { serverId: 'server' },
  row: (d, refs) => serverRequest(d, refs, d.pick(refs.applicants)),
  needs: ['applicants'],
  // Who asks is drawn first, all at once: `count` different people.
  *seed(d, refs, count) {
    for (const userId of d.some(refs.applicants, count, count)) yield serverRequest(d, refs, userId);
  },
};

const departmentRequest = (d: Draw, { serverId, department }: DepartmentRefs, userId: string): JoinRequest => ({
  userId,
  serverId,
  joinCode: department.joinCode ?? 'open',
  createdAt: d.time(),
  departmentId: department.id,
});

export const departmentJoinRequestsTable: WorldTable<JoinRequest, DepartmentRefs> = {
  spec,
  schema: JoinRequestSchema,
  references: { serverId: 'server', departmentId: 'department' },
  row: (d, refs) => departmentRequest(d, refs, d.pick(refs.applicants)),
  needs: ['applicants'],
  // A few of the server's members outside the department (the count is the department's own).
  seed: (d, refs) => d.some(refs.applicants, 3, 8).map((userId) => departmentRequest(d, refs, userId)),
};
