/**
 * Shifts, LOAs, join requests and audit logs exist twice over: server-wide, and inside each
 * department, as separate lists (the seeded world keeps them apart: a department's LOA is in
 * `departments.loas.list(id)`, not in `loas.list()`). A scope is one of those sets of lists with
 * the members who belong there, so each happening is written once for both.
 * @module
 */
import type { DepartmentRank, JoinRequest, Loa } from '../../../src/schemas/index';
import type { Collection } from '../rows/collection';
import type { ServerStore } from '../store/store';
import { mapped } from '../rows/sequence';
import type { ShiftRow } from '../world';
import { membersOf, NOBODY, serverAudit, type AuditLog, type MemberGroup, type Moment } from './moment';
import type { ActivityEvent } from '../../contract/activity';

/** The server-wide lists, or one department's. */
export interface Scope {
  /** Set on a department's scope: the department the rows belong to. */
  readonly departmentId?: string;
  /** Who may act here: every member of the server, or the department's roster. */
  readonly members: MemberGroup;
  /** Members of the server who are not in this scope (a department's outsiders; nobody server-wide). */
  readonly outsiders: MemberGroup;
  readonly shifts: Collection<ShiftRow>;
  readonly loas: Collection<Loa>;
  readonly joinRequests: Collection<JoinRequest>;
  /** The department's ranks, lowest first; empty server-wide. */
  readonly ranks: readonly DepartmentRank[];
  readonly audit: AuditLog;
  readonly joinCode: string;
  readonly kinds: {
    readonly shifts: 'shifts' | 'departmentShifts';
    readonly loas: 'loas' | 'departmentLoas';
    readonly joinRequests: 'joinRequests' | 'departmentJoinRequests';
  };
}

/** A happening that takes place in one scope, or cannot (and then changes nothing). */
export type ScopedHappening = (moment: Moment, scope: Scope) => ActivityEvent | undefined;

/** The server-wide scope. */
export function serverScope(server: ServerStore): Scope {
  return {
    members: membersOf(server),
    outsiders: NOBODY,
    shifts: server.shifts,
    loas: server.loas,
    joinRequests: server.joinRequests,
    ranks: [],
    audit: serverAudit(server),
    joinCode: typeof server.info.joinCode === 'string' ? server.info.joinCode : 'open',
    kinds: { shifts: 'shifts', loas: 'loas', joinRequests: 'joinRequests' },
  };
}

/** The scope of every department that is listed and has its data, in the departments' order. */
export function departmentScopes(server: ServerStore): Scope[] {
  const everyone = membersOf(server);
  return server.departments.all().flatMap((department) => {
    const data = server.departmentData.get(department.id);
    if (!data) return [];
    const departmentId = department.id;
    // A roster entry whose server member is gone (a test deleted it) is left alone: every
    // reference an event makes must resolve.
    const onRoster = (memberId: string) => data.members.get(memberId) !== undefined;
    return [
      {
        departmentId,
        members: {
          ids: mapped(data.members.sequence(), (member) => member.id),
          has: (memberId) => onRoster(memberId) && everyone.has(memberId),
        },
        outsiders: { ids: everyone.ids, has: (memberId) => everyone.has(memberId) && !onRoster(memberId) },
        shifts: data.shifts,
        loas: data.loas,
        joinRequests: data.joinRequests,
        ranks: data.ranks.ordered('position', 'asc'),
        audit: { table: data.auditLogs, kind: 'departmentAuditLogs', departmentId },
        joinCode: department.joinCode ?? 'open',
        kinds: { shifts: 'departmentShifts', loas: 'departmentLoas', joinRequests: 'departmentJoinRequests' },
      } satisfies Scope,
    ];
  });
}

/** Runs `happening` in the first of `scopes`, in a seeded order, where it can take place. */
export function inSomeScope(moment: Moment, scopes: readonly Scope[], happening: ScopedHappening): ActivityEvent | undefined {
  for (const scope of moment.draw.f.helpers.shuffle([...scopes])) {
    const event = happening(moment, scope);
    if (event) return event;
  }
  return undefined;
}
