/**
 * What a snapshot must be beyond its schema before the mock serves it: each table's rows under
 * distinct keys (the store keeps one row per key, so a duplicate would silently vanish), its
 * times in seconds, as every table of the store requires, and every row owned by what holds it
 * (its server, department, application, call, record, rank). Links to members and roles are not
 * checked: a real server's history names members who have left.
 * @module
 */
import { byKey, onlyId, OWNERSHIP, referenceProblem, type Lookups, type References, type Target } from '../rows/references';
import { departmentTables, departmentsTable, serverTables, cadTables } from '../world';
import { formatPath, sizeProblem, timeProblem, type RowProblem } from '../rows/rules';

/**
 * What this check reads of a snapshot that passed its schema (`WorldSnapshot`, said structurally
 * so that the schema module, which calls this, is not imported back).
 */
interface SnapshotLists {
  readonly server: { readonly id: string };
  readonly accountLinks: readonly object[];
  readonly applications: readonly { readonly id: string }[];
  readonly departments: readonly { readonly department: { readonly id: string }; readonly ranks: readonly { readonly id: string }[] }[];
  readonly cad: { readonly calls: readonly { readonly id: unknown }[]; readonly records: readonly { readonly id: unknown }[] } | null;
}

/** A table declaration as this check reads it: its key and its reference fields. */
interface TableOf {
  readonly spec: { readonly key: string };
  readonly references?: References<object>;
}

/** One list of a snapshot: where it is, its rows, the field the store keys them by, and its ownership links. */
interface Rows {
  readonly path: readonly PropertyKey[];
  readonly rows: readonly object[];
  readonly key: string;
  readonly owners: References<object>;
}

/**
 * The references of `table` that make its rows part of their owner: single ids only (a note's
 * `callId`); a list of ids (a call's `records`) names rows the row mentions, which may be gone.
 */
const ownersOf = (table: TableOf): References<object> => {
  const references = Object.entries<Target | readonly [Target]>(table.references ?? {});
  return Object.fromEntries(references.filter(([, reference]) => typeof reference === 'string' && OWNERSHIP.has(reference)));
};

/** The lists of `tables` found under the same names in `group`, at `path`. */
const listsOf = (tables: Readonly<Record<string, TableOf>>, group: object, path: PropertyKey[]): Rows[] =>
  Object.entries(tables).flatMap(([name, table]) => {
    const rows = (group as Record<string, unknown>)[name];
    return Array.isArray(rows) ? [{ path: [...path, name], rows: rows as object[], key: table.spec.key, owners: ownersOf(table) }] : [];
  });

/** The list of `table` at `path` (a list the snapshot names otherwise than the store). */
const listOf = (table: TableOf, rows: readonly object[], path: PropertyKey[]): Rows => ({
  path,
  rows,
  key: table.spec.key,
  owners: ownersOf(table),
});

/** A lookup of the ids of `rows`, found at `path` of the snapshot called `label`. */
const idsOf = (rows: readonly { readonly id: unknown }[], label: string, path: PropertyKey[]) => {
  const ids = new Set(rows.map((row) => row.id));
  return byKey((id) => (ids.has(id) ? id : undefined), `${label}.${formatPath(path)}`);
};

/** Each list of `snapshot` with where its owners are looked up, by the store's own table declarations. */
function listsOfSnapshot(snapshot: SnapshotLists, label: string): [Rows, Lookups][] {
  const { accountLinks, departments: inside, cad } = snapshot;
  const server: Lookups = {
    server: onlyId(snapshot.server.id, `${label}.server`),
    application: idsOf(snapshot.applications, label, ['applications']),
  };
  const lookupsOf = (index: number): Lookups => ({
    ...server,
    department: onlyId(inside[index]!.department.id, `${label}.departments[${index}].department`),
    rank: idsOf(inside[index]!.ranks, label, ['departments', index, 'ranks']),
  });
  const cadLookups: Lookups = cad
    ? { ...server, call: idsOf(cad.calls, label, ['cad', 'calls']), record: idsOf(cad.records, label, ['cad', 'records']) }
    : server;
  const withLookups = (lists: Rows[], lookups: Lookups) => lists.map((list): [Rows, Lookups] => [list, lookups]);
  return [
    ...withLookups(
      [
        ...listsOf(serverTables, snapshot, []).filter((list) => list.path[0] !== 'links'),
        listOf(serverTables.links, accountLinks, ['accountLinks']),
        listOf(
          departmentsTable,
          inside.map((d) => d.department),
          ['departments'],
        ),
      ],
      server,
    ),
    ...inside.flatMap((department, index) => withLookups(listsOf(departmentTables, department, ['departments', index]), lookupsOf(index))),
    ...(cad ? withLookups(listsOf(cadTables, cad, ['cad']), cadLookups) : []),
  ];
}

/** Where the row at `index` of `list` is (a department's own row is `departments[i].department`). */
const rowPath = (list: Rows, index: number): PropertyKey[] =>
  list.path.length === 1 && list.path[0] === 'departments' ? ['departments', index, 'department'] : [...list.path, index];

/**
 * The first problem of a snapshot that passed its schema: a key two rows of one list share
 * (`members[7].id: duplicate of world.members[2]`, under `label`), a time in milliseconds, a row
 * too big for a page, or a row its owner does not hold (`cad.notes[3].callId: no call 17 in world.cad.calls`).
 */
export function integrityProblem(snapshot: SnapshotLists, label: string): RowProblem | undefined {
  for (const [list, lookups] of listsOfSnapshot(snapshot, label)) {
    const seen = new Map<unknown, number>();
    for (const [index, row] of list.rows.entries()) {
      const own = timeProblem(row, undefined, rowPath(list, index)) ?? sizeProblem(row, rowPath(list, index));
      if (own) return own;
      const owner = referenceProblem(row, list.owners, lookups, undefined, rowPath(list, index));
      if (owner) return owner;
      const key = (row as Record<string, unknown>)[list.key];
      const first = seen.get(key);
      if (first !== undefined) {
        const firstPath = rowPath(list, first);
        return { path: [...rowPath(list, index), list.key], message: `duplicate of ${label}${label ? '.' : ''}${formatPath(firstPath)}` };
      }
      seen.set(key, index);
    }
  }
  return undefined;
}
