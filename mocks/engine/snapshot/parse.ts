/**
 * The check a `WorldSnapshot` (`contract/snapshot.ts`) passes before the mock serves it. The rows
 * are checked with the client's own schemas, so a snapshot the mock accepts is one the client
 * would have accepted from the server.
 * @module
 */
import * as z from 'zod/mini';
import { InvalidArgumentError } from '../../../src/core/errors';
import { describeIssue, OWN_WORDS } from '../../../src/core/issues';
import { describeProblem, formatPath, jsonProblem } from '../rows/rules';
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
} from '../../../src/schemas/index';
import { SNAPSHOT_VERSION, type WorldSnapshot } from '../../contract/snapshot';

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
 * plain JSON nested at most `MAX_ROW_DEPTH` (64) deep (a deeper one is a problem at its path, not a
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
