/**
 * What a snapshot must be beyond its schema before the mock serves it: each table's rows under
 * distinct keys (the store keeps one row per key, so a duplicate would silently vanish), and its
 * times in seconds, as every table of the store requires.
 * @module
 */
import { departmentTables, departments, serverTables, cadTables } from '../world';
import { formatPath, timeProblem, type Problem } from '../row-rules';

/**
 * What this check reads of a snapshot that passed its schema (`WorldSnapshot`, said structurally
 * so that the schema module, which calls this, is not imported back).
 */
interface SnapshotLists {
  readonly accountLinks: readonly object[];
  readonly departments: readonly { readonly department: object }[];
  readonly cad: object | null;
}

/** One list of a snapshot: where it is, its rows, and the field the store keys them by. */
interface Rows {
  readonly path: readonly PropertyKey[];
  readonly rows: readonly object[];
  readonly key: string;
}

/** The lists of `tables` found under the same names in `group`, at `path`. */
const listsOf = (
  tables: Readonly<Record<string, { readonly spec: { readonly key: string } }>>,
  group: object,
  path: PropertyKey[],
): Rows[] =>
  Object.entries(tables).flatMap(([name, table]) => {
    const rows = (group as Record<string, unknown>)[name];
    return Array.isArray(rows) ? [{ path: [...path, name], rows: rows as object[], key: table.spec.key }] : [];
  });

/** Every list of `snapshot` with its key field, by the store's own table declarations. */
function listsOfSnapshot(snapshot: SnapshotLists): Rows[] {
  const { accountLinks, departments: inside, cad } = snapshot;
  return [
    ...listsOf(serverTables, snapshot, []).filter((list) => list.path[0] !== 'links'),
    { path: ['accountLinks'], rows: accountLinks, key: serverTables.links.spec.key },
    { path: ['departments'], rows: inside.map((d) => d.department), key: departments.spec.key },
    ...inside.flatMap((department, index) => listsOf(departmentTables, department, ['departments', index])),
    ...(cad ? listsOf(cadTables, cad, ['cad']) : []),
  ];
}

/** Where the row at `index` of `list` is (a department's own row is `departments[i].department`). */
const rowPath = (list: Rows, index: number): PropertyKey[] =>
  list.path.length === 1 && list.path[0] === 'departments' ? ['departments', index, 'department'] : [...list.path, index];

/**
 * The first problem of a snapshot that passed its schema: a key two rows of one list share
 * (`members[7].id: duplicate of world.members[2]`, under `label`), or a time in milliseconds.
 */
export function integrityProblem(snapshot: SnapshotLists, label: string): Problem | undefined {
  for (const list of listsOfSnapshot(snapshot)) {
    const seen = new Map<unknown, number>();
    for (const [index, row] of list.rows.entries()) {
      const time = timeProblem(row, undefined, rowPath(list, index));
      if (time) return time;
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
