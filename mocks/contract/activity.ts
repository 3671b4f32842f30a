/**
 * The public shapes of `mock.activity`'s events, as `activity.step(n)` answers them in-process
 * and over HTTP, and why its timer stopped.
 * @module
 */
import type {
  ApplicationResponse,
  AuditLogEvent,
  CadCall,
  CadCallNote,
  DepartmentMember,
  JoinRequest,
  Loa,
  Log,
  Member,
} from '../../src/schemas/index';
import type { ShiftRow } from './rows';

/**
 * The row type of each list an activity event can add a row to, by event `kind`. Kinds that start
 * with `department` are the lists inside one department (`departments.loas.list(departmentId)`…);
 * the others are the server-wide lists of the same name (`cadCalls` is `cad.calls.list()`,
 * `cadCallNotes` is `cad.calls.notes(callId)`).
 * @example
 * const [event] = mock.activity.step();
 * if (event!.kind === 'logs') console.log(event!.row.username); // typed as a Log
 */
export interface ActivityRows {
  /** `logs.list()`: a moderation log against a member, by a staff member. */
  logs: Log;
  /** `auditLogs.list()`: what happened (a response submitted or reviewed, a member joined, an LOA reviewed, a shift ended). */
  auditLogs: AuditLogEvent;
  /** `applications.responses(applicationId)` and `.responsesByUser(userId)`: a submission. */
  applicationResponses: ApplicationResponse;
  /** `joinRequests.list()`: a member asking to join with the server's join code. */
  joinRequests: JoinRequest;
  /** `loas.list()`: a pending leave of absence. */
  loas: Loa;
  /** `shifts.list()`: a shift started. */
  shifts: ShiftRow;
  /** `members.list()`: a new member of the server. */
  members: Member;
  /** `cad.calls.list()`: a call opened. */
  cadCalls: CadCall;
  /** `cad.calls.notes(callId)`: a note on an open call, or the note that closed it. */
  cadCallNotes: CadCallNote;
  /** `departments.auditLogs(departmentId)`: what happened inside a department. */
  departmentAuditLogs: AuditLogEvent;
  /** `departments.joinRequests.list(departmentId)`: a server member asking to join the department. */
  departmentJoinRequests: JoinRequest;
  /** `departments.loas.list(departmentId)`: a department member's pending leave of absence. */
  departmentLoas: Loa;
  /** `departments.shifts.list(departmentId)`: a department member's shift started. */
  departmentShifts: ShiftRow;
  /** `departments.members.list(departmentId)`: a server member added to the department at its lowest rank. */
  departmentMembers: DepartmentMember;
}

/**
 * The name of a list an activity event adds a row to.
 * @example
 * const counts = new Map<ActivityKind, number>();
 * for (const event of mock.activity.step(100)) counts.set(event.kind, (counts.get(event.kind) ?? 0) + 1);
 */
export type ActivityKind = keyof ActivityRows;

/**
 * The kinds whose list lives inside one department; their events carry `departmentId`.
 * @example
 * const inside = (event: ActivityEvent): event is Extract<ActivityEvent, { kind: DepartmentActivityKind }> => event.departmentId !== undefined;
 */
export type DepartmentActivityKind = Extract<ActivityKind, `department${string}`>;

/**
 * One row in one list: `kind` names the list, `row` is the item exactly as that list's page and
 * its `get` request serve it at that moment, and `departmentId` says which department's list for
 * the `department…` kinds (it is absent on the others).
 * @example
 * const entry: ActivityEntry<'departmentLoas'> = { kind: 'departmentLoas', row: loa, departmentId };
 * await client.departments.loas.get(entry.departmentId, entry.row.id);
 */
export type ActivityEntry<Kind extends ActivityKind = ActivityKind> = Kind extends ActivityKind
  ? { readonly kind: Kind; readonly row: ActivityRows[Kind] } & (Kind extends DepartmentActivityKind
      ? { readonly departmentId: string }
      : { readonly departmentId?: undefined })
  : never;

/**
 * One event of the mock's activity: a row that entered a list (what a watch of that list
 * yields), and, when the event records a change, the row it `updated` in place: the LOA an
 * audit event says was approved, the call a closing note closed, the shift an audit event says
 * ended, the response an audit event says was reviewed. Updated rows did not enter a list.
 * @example
 * for (const event of mock.activity.step(20)) {
 *   if (event.kind === 'cadCallNotes' && event.updated?.kind === 'cadCalls') console.log('closed', event.updated.row.id);
 * }
 */
export type ActivityEvent = ActivityEntry & {
  /** The row this event changed in place (its list and, for a department's list, the department), if any. */
  readonly updated?: ActivityEntry;
};

/**
 * Why `mock.activity`'s timer stopped by itself: the error of the event it could not make, as
 * plain data (what the control API can send as JSON).
 * @example
 * const failure: ActivityFailure = { name: 'InvalidRowError', message: 'main.loas.insert: endAt: …', at: 1767225600000 };
 */
export interface ActivityFailure {
  /** The error's name, e.g. `InvalidRowError`. */
  readonly name: string;
  /** Its message: what could not be made, and why. */
  readonly message: string;
  /** When, in milliseconds of real time (`Date.now()`: the mock's own clock may be what failed). */
  readonly at: number;
}
