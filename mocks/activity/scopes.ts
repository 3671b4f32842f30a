/**
 * Shifts, LOAs, join requests and audit logs exist twice over: server-wide, and inside each
 * department, as separate lists (the seeded world keeps them apart: a department's LOA is in
 * `departments.loas.list(id)`, not in `loas.list()`). A scope is one of those sets of lists with
 * the members who belong there, so each happening is written once for both.
 * @module
 */
import type { DepartmentRank, JoinRequest, Loa, Member } from '../../src/schemas/index';
import type { Collection } from '../collection';
import type { ServerStore } from '../store';
import type { ShiftRow } from '../world';
import { serverAudit, type AuditLog, type Moment } from './moment';
import type { ActivityEvent } from './types';

/** The server-wide lists, or one department's. */
export interface Scope {
  /** Set on a department's scope: the department the rows belong to. */
  readonly departmentId?: string;
  /** Who may act here: every member of the server, or the department's roster. */
  readonly members: readonly Member[];
  /** Members of the server who are not in this scope (a department's outsiders; none server-wide). */
  readonly outsiders: readonly Member[];
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
export function serverScope(server: ServerStore, members: readonly Member[]): Scope {
  return {
    members,
    outsiders: [],
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
export function departmentScopes(server: ServerStore, members: readonly Member[]): Scope[] {
  return server.departments.all().flatMap((department) => {
    const data = server.departmentData.get(department.id);
    if (!data) return [];
    const departmentId = department.id;
    // A roster entry whose server member is gone (a test deleted it) is left alone: every
    // reference an event makes must resolve.
    const roster = members.filter((member) => data.members.get(member.id));
    return [
      {
        departmentId,
        members: roster,
        outsiders: members.filter((member) => !data.members.get(member.id)),
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
