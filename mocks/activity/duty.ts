/**
 * Happenings of members on duty, each written once for the server-wide lists and a
 * department's (see `scopes.ts`): shifts started and ended, LOAs requested, reviewed and ended,
 * join requests, and members added to a department.
 * @module
 */
import type { DepartmentMember, Loa, Member } from '../../src/schemas/index';
import { SHIFT_TYPES, type ShiftRow } from '../world';
import { audit, enter, entry, recent, staffOf, timeAfter, timeIn } from './moment';
import type { Scope, ScopedHappening } from './scopes';

const DAY = 86_400;
const DENY_REASONS = ['Insufficient notice', 'Too many LOAs this quarter', 'Event weekend: all hands needed'];

/** The members of `scope` who can be referred to by id. */
const present = (scope: Scope) => new Set(scope.members.map((member) => member.id));

/** A member of `scope` with no open shift there starts one. */
export const shiftStarted: ScopedHappening = (moment, scope) => {
  const onDuty = new Set(
    scope.shifts
      .all()
      .filter((shift) => shift.endedAt == null)
      .map((shift) => shift.memberId),
  );
  const free = scope.members.filter((member) => !onDuty.has(member.id));
  if (!free.length) return undefined;
  const { draw } = moment;
  const member = draw.pick(free);
  const shift: ShiftRow = {
    id: draw.uuid(),
    serverId: moment.server.info.id,
    memberId: member.id,
    ...(scope.departmentId === undefined ? {} : { departmentId: scope.departmentId }),
    type: draw.pick(SHIFT_TYPES),
    createdAt: timeIn(moment, scope.shifts, 'createdAt', member.createdAt),
    breakTimestamps: [],
    endedAt: null,
  };
  draw.optional(shift, 'wave', () => draw.int(1, 4), 0.5);
  return enter(scope.kinds.shifts, scope.shifts, shift, scope.departmentId);
};

/** An open shift ends; the audit log records it. */
export const shiftEnded: ScopedHappening = (moment, scope) => {
  const members = present(scope);
  const open = scope.shifts.all().filter((shift) => shift.endedAt == null && members.has(shift.memberId));
  if (!open.length) return undefined;
  const shift = moment.draw.pick(recent(open));
  const endedAt = timeAfter(moment, shift.createdAt);
  const updated = scope.shifts.update(shift.id, { endedAt, endedBy: shift.memberId })!;
  return audit(moment, scope.audit, {
    userId: shift.memberId,
    what: 'shiftEnded',
    after: endedAt,
    updated: entry(scope.kinds.shifts, updated, scope.departmentId),
  });
};

/** A member of `scope` asks for a leave of absence starting within two weeks. */
export const loaRequested: ScopedHappening = (moment, scope) => {
  if (!scope.members.length) return undefined;
  const { draw } = moment;
  const member = draw.pick(scope.members);
  const createdAt = timeIn(moment, scope.loas, 'createdAt', member.createdAt);
  const reason = draw.sentence();
  const startAt = createdAt + draw.int(0, 14) * DAY;
  const loa: Loa = {
    id: draw.uuid(),
    serverId: moment.server.info.id,
    memberId: member.id,
    createdAt,
    status: 0,
    startType: draw.int(0, 1),
    extensionRequests: [],
    reasonHistory: [{ reason, at: createdAt }],
    startAt,
    endAt: startAt + draw.int(1, 30) * DAY,
    reason,
    ...(scope.departmentId === undefined ? {} : { departmentId: scope.departmentId }),
  };
  return enter(scope.kinds.loas, scope.loas, loa, scope.departmentId);
};

/** Staff approve (mostly; the leave starts then) or deny a pending LOA; the audit log records it. */
export const loaReviewed: ScopedHappening = (moment, scope) => {
  const members = present(scope);
  const pending = scope.loas.all().filter((loa) => loa.status === 0 && members.has(loa.memberId));
  const server = moment.server;
  if (!pending.length) return undefined;
  const { draw } = moment;
  const loa = draw.pick(recent(pending));
  const reviewer = draw.pick(staffOf(server, server.members.ordered()));
  const reviewedAt = timeAfter(moment, loa.createdAt);
  const approved = draw.chance(0.8);
  const patch: Partial<Loa> = approved
    ? { status: 1, reviewedAt, reviewedBy: reviewer.id, startedAt: reviewedAt }
    : { status: 2, reviewedAt, reviewedBy: reviewer.id, denyReason: draw.pick(DENY_REASONS) };
  const updated = scope.loas.update(loa.id, patch)!;
  return audit(moment, scope.audit, {
    userId: reviewer.id,
    what: approved ? 'loaApproved' : 'loaDenied',
    after: reviewedAt,
    updated: entry(scope.kinds.loas, updated, scope.departmentId),
  });
};

/** A member back from leave ends an approved LOA; the audit log records it. */
export const loaEnded: ScopedHappening = (moment, scope) => {
  const members = present(scope);
  const running = scope.loas.all().filter((loa) => loa.status === 1 && members.has(loa.memberId));
  if (!running.length) return undefined;
  const loa = moment.draw.pick(recent(running));
  const endedAt = timeAfter(moment, loa.createdAt, loa.reviewedAt, loa.startedAt);
  const updated = scope.loas.update(loa.id, { status: 3, endedAt, endedBy: loa.memberId })!;
  return audit(moment, scope.audit, {
    userId: loa.memberId,
    what: 'loaEnded',
    after: endedAt,
    updated: entry(scope.kinds.loas, updated, scope.departmentId),
  });
};

/**
 * A member asks to join: server-wide with the server's join code, or a department they are not
 * in with its code. Join requests are keyed by user, so only members without one ask.
 */
export const joinRequested: ScopedHappening = (moment, scope) => {
  const candidates = (scope.departmentId === undefined ? scope.members : scope.outsiders).filter(
    (member) => !scope.joinRequests.get(member.id),
  );
  if (!candidates.length) return undefined;
  const member = moment.draw.pick(candidates);
  const row = {
    userId: member.id,
    serverId: moment.server.info.id,
    joinCode: scope.joinCode,
    createdAt: timeIn(moment, scope.joinRequests, 'createdAt', member.createdAt),
    ...(scope.departmentId === undefined ? {} : { departmentId: scope.departmentId }),
  };
  return enter(scope.kinds.joinRequests, scope.joinRequests, row, scope.departmentId);
};

/**
 * A server member joins a department at its lowest rank (a transfer: members with a pending
 * request to it are left to their request); the department's audit log records it next.
 */
export const memberAdded: ScopedHappening = (moment, scope) => {
  const { departmentId } = scope;
  const data = departmentId === undefined ? undefined : moment.server.departmentData.get(departmentId);
  const rank = scope.ranks[0];
  const candidates = scope.outsiders.filter((member) => !scope.joinRequests.get(member.id));
  if (!data || departmentId === undefined || !rank || !candidates.length) return undefined;
  const { draw } = moment;
  const member: Member = draw.pick(candidates);
  const row: DepartmentMember = {
    id: member.id,
    departmentId,
    rankId: rank.id,
    createdAt: timeIn(moment, data.members, 'createdAt', member.createdAt),
    rankPosition: rank.position,
    customColumnValues: { callsign: `${callsignPrefix(data.members.all())}-${draw.int(100, 999)}` },
    supportFlags: 0,
    roles: [],
    inactive: false,
  };
  moment.then((next) => audit(next, scope.audit, { userId: member.id, what: 'added', after: row.createdAt }));
  return enter('departmentMembers', data.members, row, departmentId);
};

/** The agency prefix the department's callsigns use (`SP` of `SP-123`), or `UNIT`. */
function callsignPrefix(members: readonly DepartmentMember[]): string {
  for (const member of members) {
    const callsign = (member.customColumnValues as { callsign?: unknown } | null)?.callsign;
    if (typeof callsign === 'string' && callsign.includes('-')) return callsign.slice(0, callsign.indexOf('-'));
  }
  return 'UNIT';
}
