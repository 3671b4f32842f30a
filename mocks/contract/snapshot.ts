/**
 * The `WorldSnapshot` format: one server's data as the API returned it, which `snapshotWorld`
 * writes and `createMockApi({ world })` serves. Its rows are the client's own types; the check a
 * snapshot passes before it is served is the engine's (`engine/snapshot/parse.ts`).
 * @module
 */
import type {
  Application,
  ApplicationResponse,
  AuditLogEvent,
  CadCall,
  CadCallNote,
  CadCourtHearing,
  CadRecord,
  CadUnit,
  CadUnitGroup,
  Department,
  DepartmentMember,
  DepartmentRank,
  JoinRequest,
  Loa,
  Log,
  Member,
  Role,
  ServerInfo,
  Shift,
} from '../../src/schemas/index';

/** The snapshot format this SDK writes and reads. */
export const SNAPSHOT_VERSION = 1;

/**
 * A member's chat account and, when verified, game account, as `members.chatId` and
 * `verification.gameByChatId` told them. The times are absent when the API does not show them
 * (a link without a game account).
 * @example
 * const link: SnapshotAccountLink = { memberId: 'm1', chatId: '4242', gameId: null };
 */
export interface SnapshotAccountLink {
  /** The member the link belongs to. */
  memberId: string;
  /** Their chat-platform account id. */
  chatId: string;
  /** Their game-platform account id, or `null` when none is linked. */
  gameId: string | null;
  /** When the link was made, Unix seconds (from `verification.gameByChatId`). */
  createdAt?: number | undefined;
  /** When it last changed, Unix seconds. */
  lastUpdatedAt?: number | undefined;
}

/**
 * One department and every list under it.
 * @example
 * const ranks = snapshot.departments[0]!.ranks; // as departments.ranks.list(departmentId) returned them
 */
export interface SnapshotDepartment {
  /** The department, as `departments.list()` returned it. */
  department: Department;
  /** `departments.ranks.list(departmentId)`. */
  ranks: DepartmentRank[];
  /** `departments.members.list(departmentId)`. */
  members: DepartmentMember[];
  /** `departments.shifts.list(departmentId)`; each has an `id`. */
  shifts: Shift[];
  /** `departments.loas.list(departmentId)`. */
  loas: Loa[];
  /** `departments.joinRequests.list(departmentId)`. */
  joinRequests: JoinRequest[];
  /** `departments.auditLogs(departmentId)`. */
  auditLogs: AuditLogEvent[];
}

/**
 * The server's computer-aided dispatch: every CAD list, and the notes of every call.
 * @example
 * const open = snapshot.cad?.calls.filter((call) => call.status === 0) ?? [];
 */
export interface SnapshotCad {
  /** `cad.calls.list()`. */
  calls: CadCall[];
  /** The notes of every call (`cad.calls.notes(callId)`), call after call. */
  notes: CadCallNote[];
  /** `cad.records.list()`. */
  records: CadRecord[];
  /** `cad.courtHearings.list()`. */
  courtHearings: CadCourtHearing[];
  /** `cad.units.list()`. */
  units: CadUnit[];
  /** `cad.unitGroups.list()`. */
  unitGroups: CadUnitGroup[];
}

/**
 * Every data group of one server, as the API returned it: what `snapshotWorld(client)` takes and
 * `createMockApi({ world })` serves. Plain JSON: write it to a file and read it back. It holds no
 * token, secret or not; the mock serving it keeps its own five tokens.
 * @example
 * const snapshot: WorldSnapshot = await snapshotWorld(client);
 * await writeFile('world.json', JSON.stringify(snapshot));
 * const mock = createMockApi({ world: JSON.parse(await readFile('world.json', 'utf8')) });
 */
export interface WorldSnapshot {
  /** The format's version: 1. */
  version: typeof SNAPSHOT_VERSION;
  /** When the snapshot was taken, ISO 8601. */
  takenAt: string;
  /** What `server.info()` answered (its `id` filled from the token when the answer lacks one). */
  server: ServerInfo & { id: string };
  /** `members.list()`. */
  members: Member[];
  /** Chat and game accounts of members: what the chat-id and verification lookups answer. */
  accountLinks: SnapshotAccountLink[];
  /** `roles.list()`; each has an `id`. */
  roles: Role[];
  /** `applications.list()`. */
  applications: Application[];
  /** The responses of every application (`applications.responses(applicationId)`), application after application. */
  applicationResponses: ApplicationResponse[];
  /** `auditLogs.list()`. */
  auditLogs: AuditLogEvent[];
  /** `logs.list()`. */
  logs: Log[];
  /** `joinRequests.list()`. */
  joinRequests: JoinRequest[];
  /** `loas.list()`. */
  loas: Loa[];
  /** `shifts.list()`; each has an `id`. */
  shifts: Shift[];
  /** Every department, with what is inside it. */
  departments: SnapshotDepartment[];
  /** `null` for a server without CAD (its CAD requests answered 404). */
  cad: SnapshotCad | null;
}
