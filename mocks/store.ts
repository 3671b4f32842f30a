/**
 * The mock's in-memory data: one {@link ServerStore} per server, each a set of
 * {@link Collection}s built from the seeded world, plus the tokens of every server. Tests may
 * read and write it through `mock.store`; the routes read it and nothing else.
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
} from '../src/schemas/index';
import { Collection, type CollectionOptions, type CollectionSpec } from './collection';
import { tableOptions } from './factory';
import {
  cadRefs,
  cadTables,
  departmentRefs,
  departments,
  departmentTables,
  serverRefs,
  serverTables,
  tokens,
  type AccountLink,
  type CadWorld,
  type DepartmentWorld,
  type RoleRow,
  type ServerRow,
  type ServerWorld,
  type ServerRefs,
  type ShiftRow,
  type Table,
  type TokenRecord,
  type World,
} from './world';

/** One collection per table declaration, filled with that table's rows. */
type CollectionsOf<Tables> = { readonly [Name in keyof Tables]: Tables[Name] extends Table<infer Row, never> ? Collection<Row> : never };

/** Where a group of tables sits in the store: the world's seed, its path, and what its rows may point at. */
interface Site<Refs> {
  readonly seed: number;
  readonly path: string;
  readonly refs: () => Refs;
}

/** The collections of `tables`, each filled from `rows` under the same name, with `create()` and schema checks. */
function collectionsOf<Tables extends Record<string, { readonly spec: object }>, Refs>(
  tables: Tables,
  rows: { [Name in keyof Tables]: object[] },
  site: Site<Refs>,
): CollectionsOf<Tables> {
  const entries = Object.entries(tables).map(([name, table]) => {
    const options = tableOptions(table as unknown as Table<object, Refs>, { ...site, path: `${site.path}.${name}` });
    return [name, new Collection(table.spec as CollectionSpec<object>, rows[name], options)];
  });
  return Object.fromEntries(entries) as CollectionsOf<Tables>;
}

/**
 * Everything inside one department: what `departments.*(departmentId, …)` requests serve.
 * @example
 * const [department] = mock.store.main.departments.all();
 * const inside = mock.store.main.departmentData.get(department!.id)!;
 * inside.members.size; // what departments.members.list(department.id) reports as total
 */
export class DepartmentStore {
  // `declare`: the fields are documented here and filled from `departmentTables` in the constructor.
  /** Its ranks (`departments.ranks.*`), by position. */
  declare readonly ranks: Collection<DepartmentRank>;
  /** Its members (`departments.members.*`). */
  declare readonly members: Collection<DepartmentMember>;
  /** Its members' shifts (`departments.shifts.*`). */
  declare readonly shifts: Collection<ShiftRow>;
  /** Its LOAs (`departments.loas.*`). */
  declare readonly loas: Collection<Loa>;
  /** Requests to join it (`departments.joinRequests.*`). */
  declare readonly joinRequests: Collection<JoinRequest>;
  /** Its audit log (`departments.auditLogs`). */
  declare readonly auditLogs: Collection<AuditLogEvent>;
  /** @internal the store builds these from the seeded world; `server` holds the department. */
  constructor(world: Omit<DepartmentWorld, 'department'>, server: ServerStore, departmentId: string, seed: number) {
    const refs = () => {
      const position = server.departments.ordered().findIndex((department) => department.id === departmentId);
      const inner = {
        ranks: () => this.ranks.ordered(),
        members: () => this.members.ordered(),
        joinRequests: () => this.joinRequests.ordered(),
      };
      return departmentRefs(server.refs(), server.departments.get(departmentId)!, inner, Math.max(0, position));
    };
    Object.assign(this, collectionsOf(departmentTables, world, { seed, path: `${server.name}.departmentData.${departmentId}`, refs }));
  }
}

/**
 * The computer-aided dispatch of one server: what `cad.*` requests serve.
 * @example
 * const cad = mock.store.main.cad!;
 * cad.units.update(7, { panic: true }); // cad.units.get(7) now reports the panic
 */
export class CadStore {
  // `declare`: the fields are documented here and filled from `cadTables` in the constructor.
  /** CAD calls (`cad.calls.list`, `.get`). */
  declare readonly calls: Collection<CadCall>;
  /** Notes of every call, indexed by `callId` (`cad.calls.notes`, `.note`). */
  declare readonly notes: Collection<CadCallNote>;
  /** Records (`cad.records.*`). */
  declare readonly records: Collection<CadRecord>;
  /** Court hearings (`cad.courtHearings.*`). */
  declare readonly courtHearings: Collection<CadCourtHearing>;
  /** Units, keyed by their int32 id (`cad.units.*`). */
  declare readonly units: Collection<CadUnit>;
  /** Unit groups, keyed by their int32 id (`cad.unitGroups.*`). */
  declare readonly unitGroups: Collection<CadUnitGroup>;
  /** @internal the store builds these from the seeded world; `server` is the server it serves. */
  constructor(world: CadWorld, server: ServerStore, seed: number) {
    const refs = () =>
      cadRefs(server.refs(), {
        units: () => this.units.ordered(),
        records: () => this.records.ordered(),
        calls: () => this.calls.ordered(),
        unitGroups: () => this.unitGroups.ordered(),
      });
    Object.assign(this, collectionsOf(cadTables, world, { seed, path: `${server.name}.cad`, refs }));
  }
}

/**
 * A server's departments: inserting one gives it empty inner tables in `departmentData` (so its
 * nested routes answer at once), deleting one removes them; replacing a row keeps them.
 */
class DepartmentCollection extends Collection<Department> {
  constructor(
    rows: Iterable<Department>,
    options: CollectionOptions<Department>,
    private readonly inner: Map<string, DepartmentStore>,
    private readonly open: (departmentId: string) => DepartmentStore,
  ) {
    super(departments.spec, rows, options);
  }

  override insert(row: Department): Department {
    super.insert(row);
    if (!this.inner.has(row.id)) this.inner.set(row.id, this.open(row.id));
    return row;
  }

  override delete(key: unknown): boolean {
    const deleted = super.delete(key);
    if (deleted) this.inner.delete(key as string);
    return deleted;
  }
}

const EMPTY_DEPARTMENT: Omit<DepartmentWorld, 'department'> = {
  ranks: [],
  members: [],
  shifts: [],
  loas: [],
  joinRequests: [],
  auditLogs: [],
};

/**
 * The data of one server: every table its token's requests read.
 * @example
 * mock.store.main.members.delete(memberId); // members.get(memberId) now answers 404
 * mock.store.noCad.cad; // null: every CAD request of the noCad token answers 404 cad_not_found
 */
export class ServerStore {
  /** What `server.info()` answers. */
  info: ServerRow;
  // `declare`: the fields are documented here and filled from `serverTables` in the constructor.
  /** Members (`members.*`). */
  declare readonly members: Collection<Member>;
  /** Chat-platform and game-platform accounts linked to members (the verification lookups). */
  declare readonly links: Collection<AccountLink>;
  /** Roles (`roles.*`). */
  declare readonly roles: Collection<RoleRow>;
  /** Applications (`applications.list`, `.get`). */
  declare readonly applications: Collection<Application>;
  /** Responses to them, indexed by `applicationId` and `userId`. */
  declare readonly applicationResponses: Collection<ApplicationResponse>;
  /** The server's audit log (`auditLogs.list`). */
  declare readonly auditLogs: Collection<AuditLogEvent>;
  /** Moderation logs, indexed by `createdBy` (staff) and `username` (`logs.*`). */
  declare readonly logs: Collection<Log>;
  /** Server-wide join requests, keyed by `userId` (`joinRequests.*`). */
  declare readonly joinRequests: Collection<JoinRequest>;
  /** Server-wide LOAs, indexed by `memberId` (`loas.*`). */
  declare readonly loas: Collection<Loa>;
  /** Server-wide shifts, indexed by `memberId` (`shifts.*`). */
  declare readonly shifts: Collection<ShiftRow>;
  /**
   * Departments (`departments.list`, `.get`); what is inside each is in `departmentData`, which
   * follows this table: `insert` a department and its nested routes answer (empty), `delete` it
   * and they answer 404.
   */
  readonly departments: Collection<Department>;
  /** What lives inside each department, by department id. */
  readonly departmentData: Map<string, DepartmentStore>;
  /** `null` when the server has no CAD: CAD requests then answer 404. */
  cad: CadStore | null;

  /** @internal its path in the store (`main`), for factories' streams and error messages. */
  readonly name: string;

  /** @internal the store builds these from the seeded world. */
  constructor(world: ServerWorld, name: string, seed: number) {
    this.info = world.info;
    this.name = name;
    const site = { seed, path: name, refs: () => this.refs() };
    Object.assign(this, collectionsOf(serverTables, world, site));
    this.departmentData = new Map(world.departments.map((d) => [d.department.id, new DepartmentStore(d, this, d.department.id, seed)]));
    this.departments = new DepartmentCollection(
      world.departments.map((d) => d.department),
      tableOptions(departments, { ...site, path: `${name}.departments` }),
      this.departmentData,
      (departmentId) => new DepartmentStore(EMPTY_DEPARTMENT, this, departmentId, seed),
    );
    this.cad = world.cad && new CadStore(world.cad, this, seed);
  }

  /** @internal what a new row of this server may point at, as the server is now. */
  refs(): ServerRefs {
    const rows = {
      members: () => this.members.ordered(),
      roles: () => this.roles.ordered(),
      applications: () => this.applications.ordered(),
      links: () => this.links.ordered(),
      joinRequests: () => this.joinRequests.ordered(),
      logs: () => this.logs.ordered(),
    };
    return serverRefs(this.info, rows);
  }
}

/** `true` when `Store` declares one field per table of `Tables`, each the collection of its rows. */
type Declares<Store, Tables> = Store extends CollectionsOf<Tables> ? true : never;
/**
 * @internal compile-time check: the classes' documented fields are exactly the collections their
 * table lists derive, so a table added to a list without its field (or the reverse) does not build.
 */
export const storesDeclareTheirTables: [
  Declares<ServerStore, typeof serverTables>,
  Declares<DepartmentStore, typeof departmentTables>,
  Declares<CadStore, typeof cadTables>,
] = [true, true, true];

/**
 * All of the mock's data (`mock.store`): both servers and every token. Read it to know what a
 * request should answer; write it to set up a case. `mock.reset()` puts back the seeded state.
 * @example
 * const mock = createMockApi({ seed: 1 });
 * const newest = mock.store.main.members.all()[0]!; // lists are newest first, as the API serves them
 * expect((await client.members.list()).data[0]!.id).toBe(newest.id);
 */
export class Store {
  /** The server that `tokens.main` and `tokens.readOnly` belong to: every data group, CAD included. */
  readonly main: ServerStore;
  /** The server that `tokens.noCad` belongs to: no CAD. */
  readonly noCad: ServerStore;
  /** Every token of every server, active or not. */
  readonly tokens: Collection<TokenRecord>;

  /** @internal `createMockApi` builds it from the seeded world. */
  constructor(world: World) {
    const seed = world.seed ?? 1;
    this.main = new ServerStore(world.main, 'main', seed);
    this.noCad = new ServerStore(world.noCad, 'noCad', seed);
    this.tokens = new Collection(
      tokens.spec,
      world.tokens,
      tableOptions(tokens, { seed, path: 'tokens', refs: () => ({ serverId: this.main.info.id }) }),
    );
  }

  /**
   * The server with id `serverId`, if the store has it.
   * @example
   * mock.store.server(mock.store.main.info.id) === mock.store.main; // true
   */
  server(serverId: string): ServerStore | undefined {
    return [this.main, this.noCad].find((server) => server.info.id === serverId);
  }
}
