/**
 * What every happening of the activity draws on: the activity's own seeded stream, the server it
 * changes, the clock, and the two rules every event follows: its time is "now" yet never before
 * the newest row of its list (so lists stay in order, and equal timestamps happen), and a row
 * enters its table at the moment its event is reported.
 * @module
 */
import type { AuditLogEvent, Member } from '../../../src/schemas/index';
import type { Collection } from '../rows/collection';
import type { ServerStore } from '../store/store';
import { mapped, toArray, type Sequence } from '../rows/sequence';
import type { Draw } from '../world';
import type { ActivityEntry, ActivityEvent, ActivityKind, ActivityRows } from '../../contract/activity';

/** A follow-up: an event that a happening makes certain to come next (the audit event after a submission). */
export type FollowUp = (moment: Moment) => ActivityEvent | undefined;

/** Something that may happen at a moment: it changes the world and reports it, or it cannot (and changes nothing). */
export type Happening = (moment: Moment) => ActivityEvent | undefined;

/** One instant of the activity. */
export interface Moment {
  readonly draw: Draw;
  readonly server: ServerStore;
  /** The mock's clock, Unix seconds. */
  readonly now: number;
  /** Queues an event to come right after this one. */
  then(followUp: FollowUp): void;
}

/** The newest value of a time field in `table`, or `-Infinity` for an empty table. */
function newest<Row extends object>(table: Collection<Row>, field: keyof Row & string): number {
  // Missing values sort last whatever the direction, so the first row holds the maximum.
  const value = table.page({ start: 0, end: 1, orderBy: field, sort: 'desc' }).rows[0]?.[field];
  return typeof value === 'number' ? value : -Infinity;
}

/**
 * The time of an event entering `table`: now, but never before the newest row of `table` nor
 * before any of the rows it refers to (`after`), so a frozen or early clock still keeps every
 * list in order.
 */
export function timeIn<Row extends object>(
  moment: Moment,
  table: Collection<Row>,
  field: keyof Row & string,
  ...after: (number | null | undefined)[]
): number {
  return Math.max(moment.now, newest(table, field), ...after.filter((t): t is number => typeof t === 'number'));
}

/** The time of a change to a row that entered at `since`: now, never before it. */
export const timeAfter = (moment: Moment, ...after: (number | null | undefined)[]): number =>
  Math.max(moment.now, ...after.filter((t): t is number => typeof t === 'number'));

/** `row` of the list `kind` (of department `departmentId` for the `department…` kinds). */
export const entry = <Kind extends ActivityKind>(kind: Kind, row: ActivityRows[Kind], departmentId?: string): ActivityEntry<Kind> =>
  // The scope decides both the kind and the department, so they agree; the type cannot see it.
  (departmentId === undefined ? { kind, row } : { kind, row, departmentId }) as ActivityEntry<Kind>;

/**
 * Inserts `row` into `table` and reports it as having entered the list `kind`. Its references
 * are not looked up: the activity draws them as the seeders do, from rows of the same scope or,
 * on a server without members, from the former members its history names.
 */
export function enter<Kind extends ActivityKind>(
  kind: Kind,
  table: Collection<ActivityRows[Kind]>,
  row: ActivityRows[Kind],
  departmentId?: string,
): ActivityEntry<Kind> {
  table.insert(row, { dangling: true });
  return entry(kind, row, departmentId);
}

/** How many rows at random a draw among those that qualify tries, before it reads them all. */
const TRIES = 32;

/**
 * One of `items` that `accepts` takes, drawn uniformly; `undefined` when none does. A few tries
 * at random cost O(log n) each, however big the table; only when they all miss (few qualify)
 * are all of `items` read.
 */
export function pickWhere<T>(draw: Draw, items: Sequence<T>, accepts: (item: T) => boolean): T | undefined {
  for (let tries = 0; tries < TRIES && items.length > 0; tries++) {
    const item = draw.pick(items);
    if (accepts(item)) return item;
  }
  const accepted = toArray(items).filter(accepts);
  return accepted.length ? draw.pick(accepted) : undefined;
}

/** How many rows a change picks among: the newest few. */
const RECENT = 5;

/**
 * The newest few rows of `table` (lists are newest first) whose indexed `where.field` is
 * `where.value` and that `accepts` takes: a change comes to what happened lately (a shift
 * started this evening ends), not to a row forgotten for a year. Read from the index, a page at
 * a time.
 */
export function recent<Row extends object>(
  table: Collection<Row>,
  where: { readonly field: keyof Row & string; readonly value: unknown },
  accepts: (row: Row) => boolean = () => true,
): Row[] {
  const found: Row[] = [];
  for (let start = 0; found.length < RECENT; start += RECENT) {
    const { rows } = table.page({ start, end: start + RECENT, where });
    if (!rows.length) break;
    found.push(...rows.filter(accepts));
  }
  return found.slice(0, RECENT);
}

/** Members who may act somewhere: ids read by position (some may no longer qualify), and the test of who does. */
export interface MemberGroup {
  readonly ids: Sequence<string>;
  /** Whether `memberId` belongs (a member of the server, and of the group). */
  has(memberId: string): boolean;
}

/** Nobody: the outsiders of the server-wide scope. */
export const NOBODY: MemberGroup = { ids: [], has: () => false };

/** The members of the server, newest first. */
export const membersOf = (server: ServerStore): MemberGroup => ({
  ids: mapped(server.members.sequence(), (member) => member.id),
  has: (memberId) => server.members.get(memberId) !== undefined,
});

/** A member of `group` that `accepts` takes, drawn uniformly; `undefined` when there is none. */
export function memberOf(moment: Moment, group: MemberGroup, accepts: (member: Member) => boolean = () => true): Member | undefined {
  const { server } = moment;
  const id = pickWhere(moment.draw, group.ids, (candidate) => group.has(candidate) && accepts(server.members.get(candidate)!));
  return id === undefined ? undefined : server.members.get(id);
}

/**
 * A member of the server's staff that `accepts` takes: someone who has written a moderation log,
 * as the seeded world chose them; failing that, any member (someone must moderate).
 */
export function staffMember(moment: Moment, accepts?: (member: Member) => boolean): Member | undefined {
  const { server } = moment;
  const staff: MemberGroup = { ids: server.logs.values('createdBy'), has: (memberId) => server.members.get(memberId) !== undefined };
  return memberOf(moment, staff, accepts) ?? memberOf(moment, membersOf(server), accepts);
}

/** What audit events record, with the `type` code each carries. */
export const AUDITED = {
  submitted: { description: 'Application response submitted', type: 1 },
  accepted: { description: 'Application response accepted', type: 2 },
  denied: { description: 'Application response denied', type: 3 },
  joined: { description: 'Member joined', type: 4 },
  added: { description: 'Member added', type: 5 },
  loaApproved: { description: 'LOA approved', type: 6 },
  loaDenied: { description: 'LOA denied', type: 7 },
  loaEnded: { description: 'LOA ended', type: 8 },
  shiftEnded: { description: 'Shift ended', type: 9 },
} as const;

/** Where an audit event goes: the server's audit log, or a department's. */
export interface AuditLog {
  readonly table: Collection<AuditLogEvent>;
  readonly kind: 'auditLogs' | 'departmentAuditLogs';
  readonly departmentId?: string;
}

/** The server-wide audit log. */
export const serverAudit = (server: ServerStore): AuditLog => ({ table: server.auditLogs, kind: 'auditLogs' });

/**
 * An audit event recording `what` by `userId`, entering `log`, timed after the rows it is
 * about; `updated` is the row the recorded change rewrote, if any.
 */
export function audit(
  moment: Moment,
  log: AuditLog,
  record: { userId: string; what: keyof typeof AUDITED; applicationId?: string; after?: number | null; updated?: ActivityEntry },
): ActivityEvent {
  const { userId, what, applicationId, after, updated } = record;
  const { departmentId } = log;
  const row: AuditLogEvent = {
    id: moment.draw.uuid(),
    serverId: moment.server.info.id,
    timestamp: timeIn(moment, log.table, 'timestamp', after),
    userId,
    ...(applicationId === undefined ? {} : { applicationId }),
    ...AUDITED[what],
    ...(departmentId === undefined ? {} : { departmentId }),
  };
  const entry = enter(log.kind, log.table, row, departmentId);
  return updated ? { ...entry, updated } : entry;
}
