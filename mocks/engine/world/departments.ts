/**
 * Departments, and what lives inside each: ranks, members, and (from their own modules) shifts,
 * LOAs, join requests and an audit log.
 * @module
 */
import {
  DepartmentMemberSchema,
  DepartmentRankSchema,
  DepartmentSchema,
  type Department,
  type DepartmentMember,
  type DepartmentRank,
  type JoinRequest,
  type Member,
} from '../../../src/schemas/index';
import { departmentAuditLogsTable } from './audit-logs';
import { mapped, toArray, type Sequence } from '../rows/sequence';
import type { Draw } from './draw';
import { departmentJoinRequestsTable } from './join-requests';
import { DEPARTMENT_KINDS, RANKS } from './kinds';
import { departmentLoasTable } from './loas';
import { departmentShiftsTable } from './shifts';
import type { Steps } from '../steps';
import { extend, seedingRows, type DepartmentRefs, type RowsOf, type ServerRefs, type Sources, type WorldTable } from './table';
import { openJson, spread } from './variety';

/** The kind of the `index`th department of a server. */
const kindOf = (index: number) => DEPARTMENT_KINDS[index % DEPARTMENT_KINDS.length]!;

export const departmentsTable: WorldTable<Department> = {
  spec: { key: 'id', orderBy: ['name', 'id'], sort: 'asc' },
  schema: DepartmentSchema,
  references: { serverId: 'server' },
  row: (d, { serverId }, index) => {
    const kind = kindOf(index);
    const department: Department = { id: d.uuid(), serverId, name: kind.name, icon: kind.icon };
    d.optional(department, 'activated', () => index !== 4 || d.chance(0.5), 0.9, 0.05);
    d.optional(department, 'chatGuildId', d.snowflake, 0.5);
    d.optional(department, 'joinCode', () => d.f.string.alphanumeric({ length: 6, casing: 'upper' }), 0.7);
    d.optional(department, 'type', () => index, 0.8);
    const a = d.aside;
    return spread(department, index, {
      activated: (drawn) => drawn ?? true,
      chatGuildId: (drawn) => drawn ?? a.snowflake(),
      joinCode: (drawn) => drawn ?? a.f.string.alphanumeric({ length: 6, casing: 'upper' }),
      type: () => index,
    });
  },
};

const ranks: WorldTable<DepartmentRank, DepartmentRefs> = {
  spec: { key: 'id', orderBy: ['position', 'id', 'name'], sort: 'asc' },
  schema: DepartmentRankSchema,
  references: { departmentId: 'department' },
  row: (d, { department }, position) => {
    const rank: DepartmentRank = {
      id: d.uuid(),
      departmentId: department.id,
      name: RANKS[position % RANKS.length]!,
      permissions: String(d.int(0, 255)),
      position,
    };
    d.optional(rank, 'colour', () => d.f.color.rgb());
    d.optional(rank, 'linkedChatRoleId', d.snowflake, 0.5);
    const a = d.aside;
    return spread(rank, position, { colour: (drawn) => drawn ?? a.f.color.rgb(), linkedChatRoleId: (drawn) => drawn ?? a.snowflake() });
  },
  // The first five to eight ranks of the ladder, from the bottom.
  seed: (d, refs) => Array.from({ length: d.int(5, RANKS.length) }, (_, position) => ranks.row(d, refs, position)),
};

/** `member` on the roster of the department, at a seeded rank with a callsign of its agency. */
function rosterEntry(d: Draw, { department, kind, ranks }: DepartmentRefs, member: Member, index: number): DepartmentMember {
  const rank = d.pick(ranks);
  const row: DepartmentMember = {
    id: member.id,
    departmentId: department.id,
    rankId: rank.id,
    createdAt: d.time(member.createdAt, 300),
    rankPosition: rank.position,
    customColumnValues: openJson({ callsign: `${kind.agency}-${d.int(100, 999)}` }, index, 2),
    supportFlags: openJson(0, index, 3),
    roles: openJson([], index, 4),
  };
  const inactive = d.chance(0.1);
  d.optional(row, 'inactive', () => inactive, 0.8);
  if (inactive) row.inactiveSince = d.time(row.createdAt, 200);
  d.optional(row, 'inactiveLastShift', () => d.time(row.createdAt, 200), 0.4);
  // An active member's `inactiveSince` is written out empty in every other row.
  if (!inactive && index % 2 === 0) row.inactiveSince = null;
  return row;
}

const departmentMembers: WorldTable<DepartmentMember, DepartmentRefs> = {
  spec: { key: 'id', orderBy: ['rankPosition', 'createdAt', 'id'], sort: 'desc' },
  schema: DepartmentMemberSchema,
  // A roster entry is keyed by the server member it puts in the department.
  references: { id: 'member', departmentId: 'department', rankId: 'rank' },
  row: (d, refs, index) => rosterEntry(d, refs, d.pick(refs.outsiders), index),
  needs: ['outsiders', 'ranks'],
  // Twenty to sixty of the server's members (all of them on a small server).
  seed: (d, refs) =>
    d
      .some(refs.outsiders, Math.min(20, refs.outsiders.length), Math.min(60, refs.outsiders.length))
      .map((member, index) => rosterEntry(d, refs, member, index)),
};

/** The tables inside one department: `DepartmentStore` has one collection per entry, named and documented as here. */
export const departmentTables = {
  /** Its ranks (`departments.ranks.*`), by position. */
  ranks,
  /** Its members (`departments.members.*`). */
  members: departmentMembers,
  /** Its members' shifts (`departments.shifts.*`). */
  shifts: departmentShiftsTable,
  /** Its LOAs (`departments.loas.*`). */
  loas: departmentLoasTable,
  /** Requests to join it (`departments.joinRequests.*`). */
  joinRequests: departmentJoinRequestsTable,
  /** Its audit log (`departments.auditLogs`). */
  auditLogs: departmentAuditLogsTable,
};

/** A department and the rows inside it. */
export type DepartmentWorld = { department: Department } & RowsOf<typeof departmentTables>;

/** The rows inside a department that its refs are drawn from, each read when first needed. */
export type DepartmentSources = Sources<{
  ranks: Sequence<DepartmentRank>;
  members: Sequence<DepartmentMember>;
  joinRequests: Sequence<JoinRequest>;
}>;

/** The refs of a department for its inner tables, from what it holds so far. */
export function departmentRefs(server: ServerRefs, department: Department, inner: DepartmentSources, index: number): DepartmentRefs {
  const refs: DepartmentRefs = extend(server, {
    department: () => department,
    kind: () => DEPARTMENT_KINDS.find((kind) => kind.name === department.name) ?? kindOf(index),
    ranks: inner.ranks,
    rosterIds: () => mapped(inner.members(), (member) => member.id),
    // Who is not in a list is found by reading the whole server (O(members)): only the tables
    // that draw such a member read these.
    outsiders: () => {
      const onRoster = new Set(toArray(refs.rosterIds));
      return toArray(server.members).filter((member) => !onRoster.has(member.id));
    },
    applicants: () => {
      const requested = new Set(toArray(inner.joinRequests()).map((request) => request.userId));
      return toArray(refs.outsiders)
        .map((member) => member.id)
        .filter((id) => !requested.has(id));
    },
  });
  return refs;
}

const none = () => [];

/**
 * The `index`th department of a server with everything inside it, drawn in one stream, a step per row: the
 * department, its ranks, its roster, then per roster two shifts, an LOA per four members, a few
 * join requests from outside, and an audit event per member.
 */
export function* seedingDepartment(d: Draw, server: ServerRefs, index: number): Steps<DepartmentWorld> {
  const department = departmentsTable.row(d, server, index);
  let refs = departmentRefs(server, department, { ranks: none, members: none, joinRequests: none }, index);
  const rankRows = yield* seedingRows(ranks, d, refs, 0);
  refs = departmentRefs(server, department, { ranks: () => rankRows, members: none, joinRequests: none }, index);
  const members = yield* seedingRows(departmentMembers, d, refs, 0);
  refs = departmentRefs(server, department, { ranks: () => rankRows, members: () => members, joinRequests: none }, index);
  const size = members.length;
  return {
    department,
    ranks: rankRows,
    members,
    shifts: yield* seedingRows(departmentShiftsTable, d, refs, size * 2),
    loas: yield* seedingRows(departmentLoasTable, d, refs, Math.ceil(size / 4)),
    joinRequests: yield* seedingRows(departmentJoinRequestsTable, d, refs, 0),
    auditLogs: yield* seedingRows(departmentAuditLogsTable, d, refs, size),
  };
}
