/**
 * The seeded world: every row the mock serves, as a pure function of a seed. Nothing here reads
 * the clock or `Math.random`, so the same seed gives byte-identical JSON on every machine.
 *
 * Each data group lives in its own module and declares its tables there (store spec, client
 * schema, seeder; see `table.ts`). This module lists them per scope (server, department, CAD),
 * and derives the world's shape and its seeding from those lists. Each group draws from its own
 * stream (`[seed, server, group]`), so asking for more logs does not reshuffle the members.
 * @module
 */
import { applicationResponsesTable, applicationsTable } from './applications';
import { auditLogsTable } from './audit-logs';
import type { CadCounts, WorldCounts } from '../../contract/counts';
import { seedingCad, type CadWorld } from './cad';
import { seedingDepartment, type DepartmentWorld } from './departments';
import { Draw, seededFaker } from './draw';
import { seedInfo, type ServerRow } from './info';
import { joinRequestsTable } from './join-requests';
import { logsTable } from './logs';
import { loasTable } from './loas';
import { linksTable, membersTable } from './members';
import { rolesTable } from './roles';
import { shiftsTable } from './shifts';
import { CAD_STREAM, DEPARTMENT_STREAM, INFO_STREAM, SERVER_TABLE_STREAMS } from './streams';
import { lazily, seedingRows, type RowsOf, type ServerRefs, type Sources, type WorldTable } from './table';
import { seedTokens, type Secrets, type TokenRecord } from './tokens';
import { mapped, prefix, toArray, type Sequence } from '../rows/sequence';
import { runSteps, type Steps } from '../steps';

export { cadRefs, cadTables, type CadWorld } from './cad';
export { departmentRefs, departmentsTable, departmentTables, type DepartmentWorld } from './departments';
export { Draw, randomTokenSecret, runtimeFaker, seededFaker, tokenSecret, WORLD_END, WORLD_START } from './draw';
export type { ServerRow } from './info';
export { CALL_TITLES, LOG_REASONS, SHIFT_TYPES } from './kinds';
export type { AccountLink } from './members';
export type { RoleRow } from './roles';
export type { ShiftRow } from '../../contract/rows';
export type { CadRefs, DepartmentRefs, RowsOf, ServerRefs, WorldTable as Table } from './table';
export { tokensTable, withRandomSecrets, type Permission, type TokenRecord } from './tokens';

/**
 * The server-wide tables: `ServerStore` has one collection per entry, named and documented as
 * here (departments and CAD have their own lists).
 */
export const serverTables = {
  /** Members (`members.*`). */
  members: membersTable,
  /** Chat-platform and game-platform accounts linked to members (the verification lookups). */
  links: linksTable,
  /** Roles (`roles.*`). */
  roles: rolesTable,
  /** Applications (`applications.list`, `.get`). */
  applications: applicationsTable,
  /** Responses to them, indexed by `applicationId` and `userId`. */
  applicationResponses: applicationResponsesTable,
  /** The server's audit log (`auditLogs.list`). */
  auditLogs: auditLogsTable,
  /** Moderation logs, indexed by `createdBy` (staff) and `username` (`logs.*`). */
  logs: logsTable,
  /** Server-wide join requests, keyed by `userId` (`joinRequests.*`). */
  joinRequests: joinRequestsTable,
  /** Server-wide LOAs, indexed by `memberId` (`loas.*`). */
  loas: loasTable,
  /** Server-wide shifts, indexed by `memberId` (`shifts.*`). */
  shifts: shiftsTable,
};

type ServerRows = RowsOf<typeof serverTables>;

/** One server's rows: its info, every server-wide table, its departments, and its CAD if it has one. */
export type ServerWorld = { info: ServerRow } & ServerRows & {
    departments: DepartmentWorld[];
    /** `null` on a server without CAD: every CAD request answers 404. */
    cad: CadWorld | null;
  };

export interface World {
  /** The seed the world was built from; factories (`create()`) draw from streams of it (default 1). */
  seed?: number;
  main: ServerWorld;
  noCad: ServerWorld;
  tokens: TokenRecord[];
  /** The five tokens' secrets by role. */
  secrets: Secrets;
}

/** The stream each server-wide table draws from: every table has one, or this does not compile. */
const STREAMS: { readonly [Name in keyof ServerRows]: number } = SERVER_TABLE_STREAMS;
const SEEDING = Object.entries(STREAMS) as [keyof ServerRows, number][];

// Every server-wide table is counted except links (one per member, most of them); a table
// without a count, or a count without a table, does not compile.
type Counted = Exclude<keyof ServerRows, 'links'> | 'departments' | keyof CadCounts;
const countsCoverTables: [Counted] extends [keyof WorldCounts] ? ([keyof WorldCounts] extends [Counted] ? true : never) : never = true;
void countsCoverTables;

/**
 * The default row counts: enough that every list spans several pages at the default page size
 * of 10.
 * @example
 * const mock = createMockApi();
 * mock.store.main.members.size === DEFAULT_COUNTS.members; // true
 */
export const DEFAULT_COUNTS: WorldCounts = {
  members: 250,
  roles: 14,
  applications: 24,
  applicationResponses: 320,
  auditLogs: 180,
  logs: 400,
  joinRequests: 36,
  loas: 60,
  shifts: 300,
  departments: 5,
  calls: 60,
  records: 80,
  units: 32,
  unitGroups: 8,
};

/** The smaller `noCad` server: every group except CAD. */
const NO_CAD_COUNTS: WorldCounts = {
  ...DEFAULT_COUNTS,
  members: 40,
  roles: 6,
  applications: 4,
  applicationResponses: 30,
  auditLogs: 20,
  logs: 30,
  joinRequests: 5,
  loas: 8,
  shifts: 25,
  departments: 2,
  calls: 0,
  records: 0,
  units: 0,
  unitGroups: 0,
};

/** How many former members' ids a server without members draws for the rows they wrote. */
const FORMER_MEMBERS = 20;

/** The server-wide tables refs are drawn from, each read when first needed, and the usernames logs name. */
export type RefSources = Sources<
  { readonly [Name in 'members' | 'roles' | 'applications' | 'links' | 'joinRequests']: Sequence<ServerRows[Name][number]> } & {
    /** The usernames moderation logs name, each once. */
    readonly loggedNames: Sequence<string>;
  }
>;

/** The strings of `names`, each once, in order. */
export const distinctNames = (names: readonly unknown[]): string[] => [
  ...new Set(names.filter((name): name is string => typeof name === 'string')),
];

/**
 * What a server's rows may point at, from the rows it has (each field computed when a seeder
 * first reads it). `formerIds` stand in for the authors of a server without members.
 */
export function serverRefs(info: ServerRow, rows: RefSources, formerIds: readonly string[] = []): ServerRefs {
  const refs: ServerRefs = lazily<ServerRefs>({
    serverId: () => info.id,
    roleIds: () => mapped(rows.roles(), (role) => role.id),
    members: rows.members,
    authorIds: () => (rows.members().length ? mapped(rows.members(), (member) => member.id) : formerIds),
    staffIds: () => prefix(refs.authorIds, (authors) => Math.max(1, Math.ceil(authors / 20))),
    applications: rows.applications,
    joinCodes: () => [info.joinCode as string],
    // Logs are about players: those already logged, else the members.
    usernames: () => {
      const logged = rows.loggedNames();
      return logged.length ? logged : distinctNames(toArray(rows.members()).map((member) => member.username));
    },
    // Who lacks something is found by reading the whole server (O(members)): only the tables
    // that draw such a member read these.
    unlinked: () => {
      const linked = new Set(toArray(rows.links()).map((link) => link.memberId));
      return toArray(rows.members()).filter((member) => !linked.has(member.id));
    },
    applicants: () => {
      const requested = new Set(toArray(rows.joinRequests()).map((request) => request.userId));
      return toArray(refs.authorIds).filter((id) => !requested.has(id));
    },
  });
  return refs;
}

/** Refs over the rows seeded so far. */
const seededSources = (rows: Partial<ServerRows>): RefSources => ({
  members: () => rows.members ?? [],
  roles: () => rows.roles ?? [],
  applications: () => rows.applications ?? [],
  links: () => rows.links ?? [],
  joinRequests: () => rows.joinRequests ?? [],
  loggedNames: () => distinctNames((rows.logs ?? []).map((log) => log.username)),
});

/** One server's world, a step per row. */
function* seedingServer(seed: number, serverIndex: number, counts: WorldCounts, withCad: boolean): Steps<ServerWorld> {
  const stream = (n: number) => new Draw(seededFaker([seed, serverIndex, n]), [seed, serverIndex, n]);
  const info = seedInfo(stream(INFO_STREAM));
  const rows: Partial<ServerRows> = {};
  let formerIds: string[] = [];
  for (const [name, n] of SEEDING) {
    const d = stream(n);
    const count = name === 'links' ? 0 : counts[name];
    (rows as Record<string, unknown>)[name] = yield* seedingRows(
      serverTables[name] as WorldTable<object, ServerRefs>,
      d,
      serverRefs(info, seededSources(rows), formerIds),
      count,
    );
    // With no members, the rows members write (logs, shifts, LOAs, CAD…) name people who have
    // left the server, as a live server's history does: a few ids, drawn only when it has none.
    if (name === 'members' && !rows.members!.length) formerIds = Array.from({ length: FORMER_MEMBERS }, () => d.uuid());
  }
  const refs = serverRefs(info, seededSources(rows), formerIds);
  const departmentRows: DepartmentWorld[] = [];
  for (let i = 0; i < counts.departments; i++) departmentRows.push(yield* seedingDepartment(stream(DEPARTMENT_STREAM + i), refs, i));
  const cad = withCad ? yield* seedingCad(stream(CAD_STREAM), refs, counts) : null;
  // In the tables' order, so the world's JSON lists them as `ServerStore` does.
  const tables = Object.fromEntries(Object.keys(serverTables).map((name) => [name, rows[name as keyof ServerRows]])) as ServerRows;
  return { info, ...tables, departments: departmentRows, cad };
}

/** How many rows `world` holds: every table's, each department's and CAD's, the servers' own and the tokens'. */
export function rowsOf(world: World): number {
  const inTables = (group: object) => Object.values(group).reduce<number>((n, rows) => n + (Array.isArray(rows) ? rows.length : 0), 0);
  const inServer = ({ departments, cad, ...tables }: ServerWorld) =>
    1 + inTables(tables) + departments.reduce((n, department) => n + 1 + inTables(department), 0) + (cad ? inTables(cad) : 0);
  return inServer(world.main) + inServer(world.noCad) + world.tokens.length;
}

/** The whole world for `seed`, a step per row (see `../steps.ts`). `counts` sizes the `main` server's groups. */
export function* buildingWorld(seed: number, counts: Partial<WorldCounts> = {}): Steps<World> {
  const main = yield* seedingServer(seed, 0, { ...DEFAULT_COUNTS, ...counts }, true);
  const noCad = yield* seedingServer(seed, 1, NO_CAD_COUNTS, false);
  return { seed, main, noCad, ...seedTokens(seed, main.info.id, noCad.info.id) };
}

/** Builds the whole world for `seed`, at once. `counts` sizes the `main` server's groups. */
export const buildWorld = (seed: number, counts: Partial<WorldCounts> = {}): World => runSteps(buildingWorld(seed, counts));
