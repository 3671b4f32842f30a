/**
 * The `WorldSnapshot` format: one server's data as the API returned it, and the check a
 * snapshot passes before the mock serves it. The rows are checked with the client's own schemas,
 * so a snapshot the mock accepts is one the client would have accepted from the server.
 * @module
 */
import * as z from 'zod/mini';
import { InvalidArgumentError } from '../../src/core/errors';
import { describeIssue, OWN_WORDS } from '../../src/core/issues';
import { describeProblem, formatPath, jsonProblem } from '../row-rules';
import { integrityProblem } from './integrity';
import {
  ApplicationResponseSchema,
  ApplicationSchema,
  AuditLogEventSchema,
  CadCallNoteSchema,
  CadCallSchema,
  CadCourtHearingSchema,
  CadRecordSchema,
  CadUnitGroupSchema,
  CadUnitSchema,
  DepartmentMemberSchema,
  DepartmentRankSchema,
  DepartmentSchema,
  JoinRequestSchema,
  LoaSchema,
  LogSchema,
  MemberSchema,
  RoleSchema,
  ServerInfoSchema,
  ShiftSchema,
  type Application,
  type ApplicationResponse,
  type AuditLogEvent,
  type CadCall,
  type CadCallNote,
  type CadCourtHearing,
  type CadRecord,
  type CadUnit,
  type CadUnitGroup,
  type Department,
  type DepartmentMember,
  type DepartmentRank,
  type JoinRequest,
  type Loa,
  type Log,
  type Member,
  type Role,
  type ServerInfo,
  type Shift,
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

const rows = <T>(schema: z.ZodMiniType<T>) => z.array(schema);
/** Rows the mock looks up by id (`roles.get`, `shifts.get`): the client's schema, with an id. */
const withId = <T>(schema: z.ZodMiniType<T>) => z.intersection(schema, z.object({ id: z.string() }));

const departmentSchema = z.object({
  department: DepartmentSchema,
  ranks: rows(DepartmentRankSchema),
  members: rows(DepartmentMemberSchema),
  shifts: rows(withId(ShiftSchema)),
  loas: rows(LoaSchema),
  joinRequests: rows(JoinRequestSchema),
  auditLogs: rows(AuditLogEventSchema),
});

const snapshotSchema: z.ZodMiniType<WorldSnapshot> = z.object({
  version: z.literal(SNAPSHOT_VERSION),
  takenAt: z.iso.datetime(),
  server: z.intersection(ServerInfoSchema, z.object({ id: z.string() })),
  members: rows(MemberSchema),
  accountLinks: rows(
    z.object({
      memberId: z.string(),
      chatId: z.string(),
      gameId: z.nullable(z.string()),
      createdAt: z.optional(z.int()),
      lastUpdatedAt: z.optional(z.int()),
    }),
  ),
  roles: rows(withId(RoleSchema)),
  applications: rows(ApplicationSchema),
  applicationResponses: rows(ApplicationResponseSchema),
  auditLogs: rows(AuditLogEventSchema),
  logs: rows(LogSchema),
  joinRequests: rows(JoinRequestSchema),
  loas: rows(LoaSchema),
  shifts: rows(withId(ShiftSchema)),
  departments: rows(departmentSchema),
  cad: z.nullable(
    z.object({
      calls: rows(CadCallSchema),
      notes: rows(CadCallNoteSchema),
      records: rows(CadRecordSchema),
      courtHearings: rows(CadCourtHearingSchema),
      units: rows(CadUnitSchema),
      unitGroups: rows(CadUnitGroupSchema),
    }),
  ),
});

/**
 * What is wrong with `value` as a snapshot, as `path: problem` (e.g.
 * `members[3].createdAt: expected int`), or `undefined` when it is a valid one. The version is
 * checked first: a snapshot of another format would otherwise report every row. Then that it is
 * plain JSON nested at most `MAX_DEPTH` (64) deep (a deeper one is a problem at its path, not a
 * stack overflow), its schema, and last that no list has two rows under one key and no time is
 * in milliseconds. `label` is what the snapshot is called in messages that point at another row.
 */
export function snapshotProblem(value: unknown, label = 'world'): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'expected a snapshot object ({ version: 1, takenAt, server, members, … })';
  }
  const { version } = value as { version?: unknown };
  if (version !== SNAPSHOT_VERSION) {
    return `version: this SDK reads snapshot version ${SNAPSHOT_VERSION}, got ${JSON.stringify(version) ?? 'none'}`;
  }
  const notJson = jsonProblem(value);
  if (notJson) return describeProblem(notJson);
  const parsed = snapshotSchema.safeParse(value, OWN_WORDS);
  if (parsed.success) {
    const problem = integrityProblem(value as WorldSnapshot, label);
    return problem && describeProblem(problem);
  }
  const [first, ...rest] = parsed.error.issues;
  const more = rest.length ? ` (+${rest.length} more)` : '';
  return `${formatPath(first!.path) || '(root)'}: ${describeIssue(first!)}${more}`;
}

/** `value` as a snapshot, its rows as they were (no field dropped or added); throws `InvalidArgumentError` naming the path of the first problem under `label`. */
export function parseSnapshot(value: unknown, label = 'world'): WorldSnapshot {
  const problem = snapshotProblem(value, label);
  if (problem !== undefined) throw new InvalidArgumentError(`${label}${problem.startsWith('expected') ? ': ' : '.'}${problem}`);
  return value as WorldSnapshot;
}
