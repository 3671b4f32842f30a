/**
 * Duty shifts: server-wide, and each department's.
 * @module
 */
import { ShiftSchema } from '../../../src/schemas/index';
import type { ShiftRow } from '../../contract/rows';
import { WORLD_END, type Draw } from './draw';
import { SHIFT_TYPES } from './kinds';
import { byTime, type DepartmentRefs, type WorldTable } from './table';

// `endedAt`: the open shifts (`null`) are the activity's to end.
const spec = byTime<ShiftRow>('createdAt', ['memberId', 'endedAt']);

/** A shift of `memberId`; nine in ten have ended, within six hours. */
function shiftOf(d: Draw, serverId: string, memberId: string, departmentId?: string): ShiftRow {
  const createdAt = d.time();
  const shift: ShiftRow = {
    id: d.uuid(),
    serverId,
    memberId,
    ...(departmentId === undefined ? {} : { departmentId }),
    type: d.pick(SHIFT_TYPES),
    createdAt,
    breakTimestamps: d.chance(0.3) ? [[createdAt + 1800, createdAt + 2400]] : [],
  };
  const ended = d.chance(0.9);
  shift.endedAt = ended ? Math.min(WORLD_END, createdAt + d.int(900, 6 * 3600)) : null;
  d.optional(shift, 'wave', () => d.int(1, 4), 0.5);
  d.optional(shift, 'autoEnd', () => d.chance(0.1), 0.6);
  if (ended) d.optional(shift, 'endedBy', () => memberId, 0.6);
  return shift;
}

export const shiftsTable: WorldTable<ShiftRow> = {
  spec,
  schema: ShiftSchema,
  references: { serverId: 'server', memberId: 'member' },
  row: (d, { serverId, authorIds }) => shiftOf(d, serverId, d.pick(authorIds)),
  needs: ['authorIds'],
};

export const departmentShiftsTable: WorldTable<ShiftRow, DepartmentRefs> = {
  spec,
  schema: ShiftSchema,
  references: { serverId: 'server', departmentId: 'department', memberId: 'roster' },
  row: (d, { serverId, rosterIds, department }) => shiftOf(d, serverId, d.pick(rosterIds), department.id),
  needs: ['rosterIds'],
};
