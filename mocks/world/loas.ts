/**
 * Leaves of absence: the server's, and each department's.
 * @module
 */
import { LoaSchema, type Loa } from '../../src/schemas/index';
import type { Draw } from './draw';
import { byTime, type DepartmentRefs, type Table } from './table';

const spec = byTime<Loa>('createdAt', ['memberId']);

/** An LOA of `memberId` at a seeded stage of its life: pending, approved, denied, ended or cancelled. */
function loaOf(d: Draw, serverId: string, memberId: string, staffIds: readonly string[]): Loa {
  const createdAt = d.time();
  const status = d.int(0, 4);
  const loa: Loa = {
    id: d.uuid(),
    serverId,
    memberId,
    createdAt,
    status,
    startType: d.int(0, 1),
    extensionRequests: [],
    reasonHistory: [{ reason: d.f.lorem.sentence(), at: createdAt }],
    startAt: d.time(createdAt, 14),
    reason: d.f.lorem.sentence(),
  };
  loa.endAt = d.time(loa.startAt as number, 30);
  if (status >= 1) {
    loa.reviewedAt = d.time(createdAt, 3);
    loa.reviewedBy = d.pick(staffIds);
  }
  if (status === 1) loa.startedAt = loa.startAt ?? null;
  if (status === 2) {
    loa.denyReason = 'Insufficient notice';
  }
  if (status === 3) {
    loa.startedAt = loa.startAt ?? null;
    loa.endedAt = loa.endAt;
    loa.endedBy = memberId;
  }
  if (status === 4) loa.cancelledAt = d.time(createdAt, 5);
  d.optional(loa, 'expiredAt', () => null, 0, 0.3);
  return loa;
}

export const loas: Table<Loa> = {
  spec,
  schema: LoaSchema,
  row: (d, { serverId, authorIds, staffIds }) => loaOf(d, serverId, d.pick(authorIds), staffIds),
  needs: ['authorIds'],
};

export const departmentLoas: Table<Loa, DepartmentRefs> = {
  spec,
  schema: LoaSchema,
  row: (d, { serverId, rosterIds, staffIds, department }) => ({
    ...loaOf(d, serverId, d.pick(rosterIds), staffIds),
    departmentId: department.id,
  }),
  needs: ['rosterIds'],
};
