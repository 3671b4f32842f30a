/**
 * Leaves of absence: the server's, and each department's.
 * @module
 */
import { LoaSchema, type Loa } from '../../../src/schemas/index';
import type { Sequence } from '../rows/sequence';
import type { Draw } from './draw';
import { byTime, type DepartmentRefs, type WorldTable } from './table';
import { nullWhenUnset, openJson } from './variety';

// `status`: the activity reviews pending LOAs and ends running ones.
const spec = byTime<Loa>('createdAt', ['memberId', 'status']);

/** An LOA of `memberId` at a seeded stage of its life: pending, approved, denied, ended or cancelled. */
function loaOf(d: Draw, serverId: string, memberId: string, staffIds: Sequence<string>, index: number): Loa {
  const createdAt = d.time();
  const status = d.int(0, 4);
  const loa: Loa = {
    id: d.uuid(),
    serverId,
    memberId,
    createdAt,
    status,
    startType: d.int(0, 1),
    extensionRequests: openJson([], index, 2),
    reasonHistory: openJson([{ reason: d.f.lorem.sentence(), at: createdAt }], index, 3),
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
  // An approved leave nobody ended runs out at its end.
  if (status === 1 && index % 3 === 0) loa.expiredAt = loa.endAt;
  // A leave asked for without dates or a reason (pending or denied ones only: approval sets dates).
  if ((status === 0 || status === 2) && index % 3 === 1) {
    // Sent as `null` by some clients, left out by others.
    if (index % 2) {
      delete loa.startAt;
      delete loa.endAt;
      delete loa.reason;
    } else Object.assign(loa, { startAt: null, endAt: null, reason: null });
  }
  // What does not apply to its stage yet is written out empty in every other row.
  return nullWhenUnset(loa, index, [
    'cancelledAt',
    'endedAt',
    'reviewedAt',
    'reviewedBy',
    'startedAt',
    'denyReason',
    'endedBy',
    'expiredAt',
  ]);
}

export const loasTable: WorldTable<Loa> = {
  spec,
  schema: LoaSchema,
  references: { serverId: 'server', memberId: 'member' },
  row: (d, { serverId, authorIds, staffIds }, index) => loaOf(d, serverId, d.pick(authorIds), staffIds, index),
  needs: ['authorIds'],
};

export const departmentLoasTable: WorldTable<Loa, DepartmentRefs> = {
  spec,
  schema: LoaSchema,
  references: { serverId: 'server', departmentId: 'department', memberId: 'roster' },
  row: (d, { serverId, rosterIds, staffIds, department }, index) => ({
    ...loaOf(d, serverId, d.pick(rosterIds), staffIds, index),
    departmentId: department.id,
  }),
  needs: ['rosterIds'],
};
