/**
 * The mock's in-memory data: one {@link ServerStore} per server, each a set of
 * {@link Collection}s built from the seeded world, plus the tokens of every server. Tests may
 * read and write it through `mock.store`; the routes read it and nothing else.
 * @module
 */
import type { Department } from '../../../src/schemas/index';
import { Collection, type CollectionOptions, type CollectionSpec, type WriteOptions } from '../rows/collection';
import { tableOptions, type TableSite } from './factory';
import { byKey, onlyId, type Lookups } from '../rows/references';
import {
  cadRefs,
  cadTables,
  departmentRefs,
  departmentsTable,
  departmentTables,
  serverRefs,
  serverTables,
  tokensTable,
  type CadWorld,
  type DepartmentWorld,
  type ServerRow,
  type ServerWorld,
  type ServerRefs,
  type RowsOf,
  type Table,
  type TokenRecord,
  type World,
} from '../world';

/** One collection per table declaration, filled with that table's rows. */
type CollectionsOf<Tables> = { readonly [Name in keyof Tables]: Tables[Name] extends Table<infer Row, never> ? Collection<Row> : never };

/** The refs the tables of `Tables` point into (every table of a group shares them). */
type RefsOf<Tables> = Tables[keyof Tables] extends { readonly row: (d: never, refs: infer Refs, index: number) => unknown } ? Refs : never;

/**
 * Where a group of tables sits in the store: the world's seed, its path, what its factories'
 * rows may point at, and where the references written into it are looked up, given the group.
 */
interface Site<Group, Refs> {
  readonly seed: number;
  readonly path: string;
  readonly refs: (group: Group) => Refs;
  readonly lookups: (group: Group) => Lookups;
}

/** The collections of `tables`, each filled from `rows` under the same name, with `create()` and schema checks. */
function collectionsOf<Tables extends Record<string, { readonly spec: object }>, Refs>(
  tables: Tables,
  rows: { [Name in keyof Tables]: object[] },
  site: TableSite<Refs>,
): CollectionsOf<Tables> {
  const entries = Object.entries(tables).map(([name, table]) => {
    const options = tableOptions(table as unknown as Table<object, Refs>, { ...site, path: `${site.path}.${name}` });
    return [name, new Collection(table.spec as CollectionSpec<object>, rows[name], options)];
  });
  return Object.fromEntries(entries) as CollectionsOf<Tables>;
}

/**
 * The base class of a group of tables: one {@link Collection} field per table of `tables`, named
 * as the table is, filled from the world's rows. The fields come from the list itself, so a group
 * has a field for every table it lists and none it does not: a table added to a list is served,
 * and a field with no table cannot be declared by mistake.
 */
function tableGroup<Tables extends Record<string, { readonly spec: object }>>(tables: Tables) {
  type Group = CollectionsOf<Tables>;
  class TableGroup {
    constructor(rows: RowsOf<Tables>, site: Site<Group, RefsOf<Tables>>) {
      const group = this as unknown as Group;
      const inGroup = { ...site, refs: () => site.refs(group), lookups: () => site.lookups(group) };
      Object.assign(this, collectionsOf(tables, rows as { [Name in keyof Tables]: object[] }, inGroup));
    }
  }
  return TableGroup as unknown as abstract new (rows: RowsOf<Tables>, site: Site<Group, RefsOf<Tables>>) => Group;
}

/**
 * Everything inside one department: what `departments.*(departmentId, …)` requests serve, one
 * collection per table of the department's list (`ranks`, `members`, `shifts`, `loas`,
 * `joinRequests`, `auditLogs`).
 * @example
 * const [department] = mock.store.main.departments.all();
 * const inside = mock.store.main.departmentData.get(department!.id)!;
 * inside.members.size; // what departments.members.list(department.id) reports as total
 */
export class DepartmentStore extends tableGroup(departmentTables) {
  /** @internal the store builds these from the seeded world; `server` holds the department. */
  constructor(world: Omit<DepartmentWorld, 'department'>, server: ServerStore, departmentId: string, seed: number) {
    super(world, {
      seed,
      path: `${server.name}.departmentData.${departmentId}`,
      refs: (inside) => {
        const position = server.departments.ordered().findIndex((department) => department.id === departmentId);
        const rows = {
          ranks: () => inside.ranks.sequence(),
          members: () => inside.members.sequence(),
          joinRequests: () => inside.joinRequests.sequence(),
        };
        return departmentRefs(server.refs(), server.departments.get(departmentId)!, rows, Math.max(0, position));
      },
      lookups: (inside) => {
        const path = `${server.name}.departmentData.${departmentId}`;
        return {
          ...server.lookups(),
          department: onlyId(departmentId, path),
          rank: byKey((id) => inside.ranks.get(id), `${path}.ranks`),
          roster: byKey((id) => inside.members.get(id), `${path}.members`),
        };
      },
    });
  }
}

/**
 * The computer-aided dispatch of one server: what `cad.*` requests serve, one collection per
 * table of the CAD list (`calls`, `notes`, `records`, `courtHearings`, `units`, `unitGroups`).
 * @example
 * const cad = mock.store.main.cad!;
 * cad.units.update(7, { panic: true }); // cad.units.get(7) now reports the panic
 */
export class CadStore extends tableGroup(cadTables) {
  /** @internal the store builds these from the seeded world; `server` is the server it serves. */
  constructor(world: CadWorld, server: ServerStore, seed: number) {
    super(world, {
      seed,
      path: `${server.name}.cad`,
      refs: (cad) =>
        cadRefs(server.refs(), {
          units: () => cad.units.sequence(),
          records: () => cad.records.sequence(),
          calls: () => cad.calls.sequence(),
          unitGroups: () => cad.unitGroups.sequence(),
        }),
      lookups: (cad) => ({
        ...server.lookups(),
        call: byKey((id) => cad.calls.get(id), `${server.name}.cad.calls`),
        record: byKey((id) => cad.records.get(id), `${server.name}.cad.records`),
        unit: byKey((id) => cad.units.get(id), `${server.name}.cad.units`),
      }),
    });
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
    super(departmentsTable.spec, rows, options);
  }

  override insert(row: Department, options?: WriteOptions<Department>): Department {
    return this.#opened(super.insert(row, options));
  }

  override create(partial?: Partial<Department>, options?: WriteOptions<Department>): Department {
    return this.#opened(super.create(partial, options));
  }

  /** `department`, with inner tables of its own from now on. */
  #opened(department: Department): Department {
    if (!this.inner.has(department.id)) this.inner.set(department.id, this.open(department.id));
    return department;
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
 * The data of one server: every table its token's requests read, one collection per table of the
 * server's list (`members`, `links`, `roles`, `applications`, `applicationResponses`,
 * `auditLogs`, `logs`, `joinRequests`, `loas`, `shifts`), plus its departments and CAD.
 * @example
 * mock.store.main.members.delete(memberId); // members.get(memberId) now answers 404
 * mock.store.noCad.cad; // null: every CAD request of the noCad token answers 404 cad_not_found
 */
export class ServerStore extends tableGroup(serverTables) {
  /** What `server.info()` answers. */
  info: ServerRow;
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
    super(world, { seed, path: name, refs: () => this.refs(), lookups: () => this.lookups() });
    this.info = world.info;
    this.name = name;
    this.departmentData = new Map(world.departments.map((d) => [d.department.id, new DepartmentStore(d, this, d.department.id, seed)]));
    this.departments = new DepartmentCollection(
      world.departments.map((d) => d.department),
      tableOptions(departmentsTable, { seed, path: `${name}.departments`, refs: () => this.refs(), lookups: () => this.lookups() }),
      this.departmentData,
      (departmentId) => new DepartmentStore(EMPTY_DEPARTMENT, this, departmentId, seed),
    );
    this.cad = world.cad && new CadStore(world.cad, this, seed);
  }

  /** @internal what a new row of this server may point at, as the server is now. */
  refs(): ServerRefs {
    const rows = {
      members: () => this.members.sequence(),
      roles: () => this.roles.sequence(),
      applications: () => this.applications.sequence(),
      links: () => this.links.sequence(),
      joinRequests: () => this.joinRequests.sequence(),
      loggedNames: () => this.logs.values('username'),
    };
    return serverRefs(this.info, rows);
  }

  /** @internal where the references of a row written into this server are looked up, as the server is now. */
  lookups(): Lookups {
    return {
      server: onlyId(this.info.id, this.name),
      member: byKey((id) => this.members.get(id), `${this.name}.members`),
      role: byKey((id) => this.roles.get(id), `${this.name}.roles`),
      application: byKey((id) => this.applications.get(id), `${this.name}.applications`),
    };
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

  /**
   * @internal `createMockApi` builds it from the seeded world. `reservedSecrets` are secrets no
   * token may have beside those other tokens have (the control API's admin token): a live set,
   * read at each write, that outlives this store across `mock.reset()`.
   */
  constructor(world: World, reservedSecrets: { has(secret: unknown): boolean } = new Set()) {
    const seed = world.seed ?? 1;
    this.main = new ServerStore(world.main, 'main', seed);
    this.noCad = new ServerStore(world.noCad, 'noCad', seed);
    this.tokens = new Collection(tokensTable.spec, world.tokens, {
      ...tableOptions(tokensTable, {
        seed,
        path: 'tokens',
        refs: () => ({ serverId: this.main.info.id }),
        // A token belongs to either server.
        lookups: () => ({ server: byKey((id) => this.server(id as string), 'the store (main, noCad)') }),
      }),
      reserved: { secret: reservedSecrets },
    });
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
