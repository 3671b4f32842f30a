/**
 * Happenings of members on duty, each written once for the server-wide lists and a
 * department's (see `scopes.ts`): shifts started and ended, LOAs requested, reviewed and ended,
 * join requests, and members added to a department.
 * @module
 */
import type { DepartmentMember, Loa } from '../../../src/schemas/index';
import type { Collection } from '../rows/collection';
import { SHIFT_TYPES, type ShiftRow } from '../world';
import { audit, enter, entry, memberOf, recent, staffMember, timeAfter, timeIn } from './moment';
import type { ScopedHappening } from './scopes';

const DAY = 86_400;
/** An LOA requested now starts within this many days… */
export const LOA_NOTICE_DAYS = 14;
/** …and lasts at most this many. */
export const LOA_LONGEST_DAYS = 30;
const DENY_REASONS = ['Insufficient notice', 'Too many LOAs this quarter', 'Event weekend: all hands needed'];

/** Whether `memberId` has a shift in `shifts` that has not ended. */
const onDuty = (shifts: Collection<ShiftRow>, memberId: string) =>
  shifts.where('memberId', memberId).some((shift) => shift.endedAt == null);

/** A member of `scope` with no open shift there starts one. */
export const shiftStarted: ScopedHappening = (moment, scope) => {
  const member = memberOf(moment, scope.members, (candidate) => !onDuty(scope.shifts, candidate.id));
  if (!member) return undefined;
  const { draw } = moment;
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
  const open = recent(scope.shifts, { field: 'endedAt', value: null }, (shift) => scope.members.has(shift.memberId));
  if (!open.length) return undefined;
  const shift = moment.draw.pick(open);
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
  const member = memberOf(moment, scope.members);
  if (!member) return undefined;
  const { draw } = moment;
  const createdAt = timeIn(moment, scope.loas, 'createdAt', member.createdAt);
  const reason = draw.sentence();
  const startAt = createdAt + draw.int(0, LOA_NOTICE_DAYS) * DAY;
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
    endAt: startAt + draw.int(1, LOA_LONGEST_DAYS) * DAY,
    reason,
    ...(scope.departmentId === undefined ? {} : { departmentId: scope.departmentId }),
  };
  return enter(scope.kinds.loas, scope.loas, loa, scope.departmentId);
};

/** Staff approve (mostly; the leave starts then) or deny a pending LOA; the audit log records it. */
export const loaReviewed: ScopedHappening = (moment, scope) => {
  const pending = recent(scope.loas, { field: 'status', value: 0 }, (loa) => scope.members.has(loa.memberId));
  if (!pending.length) return undefined;
  const { draw } = moment;
  const loa = draw.pick(pending);
  const reviewer = staffMember(moment);
  if (!reviewer) return undefined;
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
  const running = recent(scope.loas, { field: 'status', value: 1 }, (loa) => scope.members.has(loa.memberId));
  if (!running.length) return undefined;
  const loa = moment.draw.pick(running);
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
  const asking = scope.departmentId === undefined ? scope.members : scope.outsiders;
  const member = memberOf(moment, asking, (candidate) => !scope.joinRequests.get(candidate.id));
  if (!member) return undefined;
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
  if (!data || departmentId === undefined || !rank) return undefined;
  const member = memberOf(moment, scope.outsiders, (candidate) => !scope.joinRequests.get(candidate.id));
  if (!member) return undefined;
  const { draw } = moment;
  const row: DepartmentMember = {
    id: member.id,
    departmentId,
    rankId: rank.id,
    createdAt: timeIn(moment, data.members, 'createdAt', member.createdAt),
    rankPosition: rank.position,
    customColumnValues: { callsign: `${callsignPrefix(data.members)}-${draw.int(100, 999)}` },
    supportFlags: 0,
    roles: [],
    inactive: false,
  };
  moment.then((next) => audit(next, scope.audit, { userId: member.id, what: 'added', after: row.createdAt }));
  return enter('departmentMembers', data.members, row, departmentId);
};

/** The agency prefix the department's callsigns use (`SP` of `SP-123`), or `UNIT`: the first roster entry's that has one. */
function callsignPrefix(members: Collection<DepartmentMember>): string {
  const roster = members.sequence();
  for (let index = 0; index < roster.length; index++) {
    const callsign = (roster.at(index)!.customColumnValues as { callsign?: unknown } | null)?.callsign;
    if (typeof callsign === 'string' && callsign.includes('-')) return callsign.slice(0, callsign.indexOf('-'));
  }
  return 'UNIT';
}
