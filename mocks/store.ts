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
import { Collection, type CollectionSpec } from './collection';
import type { AccountLink, CadWorld, DepartmentWorld, RoleRow, ServerRow, ServerWorld, ShiftRow, TokenRecord, World } from './world';

// Newest first by default, as moderation and activity views show them.
const byTime = <Row>(field: keyof Row & string, indexes: (keyof Row & string)[] = []): CollectionSpec<Row> => ({
  key: 'id' as keyof Row & string,
  indexes,
  orderBy: [field, 'id' as keyof Row & string],
  sort: 'desc',
});

const specs = {
  members: byTime<Member>('createdAt'),
  links: { key: 'memberId', indexes: ['chatId', 'gameId'], orderBy: ['createdAt', 'memberId'], sort: 'desc' } satisfies CollectionSpec<AccountLink>,
  roles: { key: 'id', orderBy: ['createdAt', 'id'], sort: 'asc' } satisfies CollectionSpec<RoleRow>,
  applications: byTime<Application>('createdAt'),
  applicationResponses: byTime<ApplicationResponse>('createdAt', ['applicationId', 'userId']),
  auditLogs: { ...byTime<AuditLogEvent>('timestamp'), aliases: { createdAt: 'timestamp' } } satisfies CollectionSpec<AuditLogEvent>,
  logs: byTime<Log>('createdAt', ['createdBy', 'username']),
  joinRequests: { key: 'userId', orderBy: ['createdAt', 'userId'], sort: 'desc' } satisfies CollectionSpec<JoinRequest>,
  loas: byTime<Loa>('createdAt', ['memberId']),
  shifts: byTime<ShiftRow>('createdAt', ['memberId']),
  departments: { key: 'id', orderBy: ['name', 'id'], sort: 'asc' } satisfies CollectionSpec<Department>,
  ranks: { key: 'id', orderBy: ['position', 'id', 'name'], sort: 'asc' } satisfies CollectionSpec<DepartmentRank>,
  departmentMembers: { key: 'id', orderBy: ['rankPosition', 'createdAt', 'id'], sort: 'desc' } satisfies CollectionSpec<DepartmentMember>,
  calls: byTime<CadCall>('createdAt'),
  notes: { ...byTime<CadCallNote>('createdAt', ['callId']), sort: 'asc' } satisfies CollectionSpec<CadCallNote>,
  records: byTime<CadRecord>('createdAt'),
  courtHearings: byTime<CadCourtHearing>('createdAt'),
  units: { key: 'id', orderBy: ['id', 'status'], sort: 'asc' } satisfies CollectionSpec<CadUnit>,
  unitGroups: { key: 'id', orderBy: ['id', 'name'], sort: 'asc' } satisfies CollectionSpec<CadUnitGroup>,
  tokens: { key: 'id', indexes: ['secret', 'serverId'], orderBy: ['createdAt', 'id'], sort: 'asc' } satisfies CollectionSpec<TokenRecord>,
};

/**
 * Everything inside one department: what `departments.*(departmentId, …)` requests serve.
 * @example
 * const [department] = mock.store.main.departments.all();
 * const inside = mock.store.main.departmentData.get(department!.id)!;
 * inside.members.size; // what departments.members.list(department.id) reports as total
 */
export class DepartmentStore {
  /** Its ranks (`departments.ranks.*`), by position. */
  readonly ranks: Collection<DepartmentRank>;
  /** Its members (`departments.members.*`). */
  readonly members: Collection<DepartmentMember>;
  /** Its members' shifts (`departments.shifts.*`). */
  readonly shifts: Collection<ShiftRow>;
  /** Its LOAs (`departments.loas.*`). */
  readonly loas: Collection<Loa>;
  /** Requests to join it (`departments.joinRequests.*`). */
  readonly joinRequests: Collection<JoinRequest>;
  /** Its audit log (`departments.auditLogs`). */
  readonly auditLogs: Collection<AuditLogEvent>;
  /** @internal the store builds these from the seeded world. */
  constructor(world: Omit<DepartmentWorld, 'department'>) {
    this.ranks = new Collection(specs.ranks, world.ranks);
    this.members = new Collection(specs.departmentMembers, world.members);
    this.shifts = new Collection(specs.shifts, world.shifts);
    this.loas = new Collection(specs.loas, world.loas);
    this.joinRequests = new Collection(specs.joinRequests, world.joinRequests);
    this.auditLogs = new Collection(specs.auditLogs, world.auditLogs);
  }
}

/**
 * The computer-aided dispatch of one server: what `cad.*` requests serve.
 * @example
 * const cad = mock.store.main.cad!;
 * cad.units.update(7, { panic: true }); // cad.units.get(7) now reports the panic
 */
export class CadStore {
  /** CAD calls (`cad.calls.list`, `.get`). */
  readonly calls: Collection<CadCall>;
  /** Notes of every call, indexed by `callId` (`cad.calls.notes`, `.note`). */
  readonly notes: Collection<CadCallNote>;
  /** Records (`cad.records.*`). */
  readonly records: Collection<CadRecord>;
  /** Court hearings (`cad.courtHearings.*`). */
  readonly courtHearings: Collection<CadCourtHearing>;
  /** Units, keyed by their int32 id (`cad.units.*`). */
  readonly units: Collection<CadUnit>;
  /** Unit groups, keyed by their int32 id (`cad.unitGroups.*`). */
  readonly unitGroups: Collection<CadUnitGroup>;
  /** @internal the store builds these from the seeded world. */
  constructor(world: CadWorld) {
    this.calls = new Collection(specs.calls, world.calls);
    this.notes = new Collection(specs.notes, world.notes);
    this.records = new Collection(specs.records, world.records);
    this.courtHearings = new Collection(specs.courtHearings, world.courtHearings);
    this.units = new Collection(specs.units, world.units);
    this.unitGroups = new Collection(specs.unitGroups, world.unitGroups);
  }
}

/**
 * A server's departments: inserting one gives it empty inner tables in `departmentData` (so its
 * nested routes answer at once), deleting one removes them; replacing a row keeps them.
 */
class DepartmentCollection extends Collection<Department> {
  constructor(
    rows: Iterable<Department>,
    private readonly inner: Map<string, DepartmentStore>,
  ) {
    super(specs.departments, rows);
  }

  override insert(row: Department): Department {
    super.insert(row);
    if (!this.inner.has(row.id)) this.inner.set(row.id, new DepartmentStore(EMPTY_DEPARTMENT));
    return row;
  }

  override delete(key: unknown): boolean {
    const deleted = super.delete(key);
    if (deleted) this.inner.delete(key as string);
    return deleted;
  }
}

const EMPTY_DEPARTMENT: Omit<DepartmentWorld, 'department'> = { ranks: [], members: [], shifts: [], loas: [], joinRequests: [], auditLogs: [] };

/**
 * The data of one server: every table its token's requests read.
 * @example
 * mock.store.main.members.delete(memberId); // members.get(memberId) now answers 404
 * mock.store.noCad.cad; // null: every CAD request of the noCad token answers 404 cad_not_found
 */
export class ServerStore {
  /** What `server.info()` answers. */
  info: ServerRow;
  /** Members (`members.*`). */
  readonly members: Collection<Member>;
  /** Chat-platform and game-platform accounts linked to members (the verification lookups). */
  readonly links: Collection<AccountLink>;
  /** Roles (`roles.*`). */
  readonly roles: Collection<RoleRow>;
  /** Applications (`applications.list`, `.get`). */
  readonly applications: Collection<Application>;
  /** Responses to them, indexed by `applicationId` and `userId`. */
  readonly applicationResponses: Collection<ApplicationResponse>;
  /** The server's audit log (`auditLogs.list`). */
  readonly auditLogs: Collection<AuditLogEvent>;
  /** Moderation logs, indexed by `createdBy` (staff) and `username` (`logs.*`). */
  readonly logs: Collection<Log>;
  /** Server-wide join requests, keyed by `userId` (`joinRequests.*`). */
  readonly joinRequests: Collection<JoinRequest>;
  /** Server-wide LOAs, indexed by `memberId` (`loas.*`). */
  readonly loas: Collection<Loa>;
  /** Server-wide shifts, indexed by `memberId` (`shifts.*`). */
  readonly shifts: Collection<ShiftRow>;
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

  /** @internal the store builds these from the seeded world. */
  constructor(world: ServerWorld) {
    this.info = world.info;
    this.members = new Collection(specs.members, world.members);
    this.links = new Collection(specs.links, world.links);
    this.roles = new Collection(specs.roles, world.roles);
    this.applications = new Collection(specs.applications, world.applications);
    this.applicationResponses = new Collection(specs.applicationResponses, world.applicationResponses);
    this.auditLogs = new Collection(specs.auditLogs, world.auditLogs);
    this.logs = new Collection(specs.logs, world.logs);
    this.joinRequests = new Collection(specs.joinRequests, world.joinRequests);
    this.loas = new Collection(specs.loas, world.loas);
    this.shifts = new Collection(specs.shifts, world.shifts);
    this.departmentData = new Map(world.departments.map((d) => [d.department.id, new DepartmentStore(d)]));
    this.departments = new DepartmentCollection(
      world.departments.map((d) => d.department),
      this.departmentData,
    );
    this.cad = world.cad && new CadStore(world.cad);
  }
}

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
    this.main = new ServerStore(world.main);
    this.noCad = new ServerStore(world.noCad);
    this.tokens = new Collection(specs.tokens, world.tokens);
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
