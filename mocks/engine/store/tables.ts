/**
 * A table of `mock.store` by its dotted path, the one `InvalidRowError` messages name
 * (`main.logs`, `main.cad.calls`, `main.departmentData.<departmentId>.members`, `tokens`), for
 * `POST /__mock/store/{table}`.
 * @module
 */
import { MockHttpError } from '../replies';
import type { Store } from './store';

/** What the control plane uses of a table: `create(partial)` and `size` (duck-typed: the CommonJS build has two copies of the class). */
export interface CreatableTable {
  create(partial: Record<string, unknown>): object;
  readonly size: number;
}

const isTable = (node: unknown): node is CreatableTable =>
  typeof node === 'object' && node !== null && typeof (node as Partial<CreatableTable>).create === 'function' && 'spec' in node;

/** What a 404 for an unknown table path says the paths look like. */
const TABLE_PATH_EXAMPLES = 'main.logs, main.members, main.cad.calls, main.departmentData.<departmentId>.loas, noCad.roles, tokens';

/**
 * How many rows the tables of `store` hold now: the world it started from, and every row added
 * since (the activity's, the API's, the control API's). Walked as {@link tableAt} walks it.
 */
export function rowsIn(store: Store): number {
  const seen = new Set<object>();
  const count = (node: unknown): number => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return 0;
    seen.add(node);
    if (isTable(node)) return node.size;
    const inside = node instanceof Map ? [...node.values()] : Object.values(node);
    return inside.reduce<number>((rows, item) => rows + count(item), 0);
  };
  return count(store);
}

/**
 * The table at `path`, walking the store's own fields and its `departmentData` map segment by
 * segment, or a 404 `table_not_found`. Only own fields are followed, so `main.server` or
 * `tokens.constructor` never reach a method or a prototype.
 */
export function tableAt(store: Store, path: string): CreatableTable {
  let node: unknown = store;
  for (const segment of path.split('.')) {
    if (node instanceof Map) node = node.get(segment);
    else if (typeof node === 'object' && node !== null && !isTable(node) && Object.hasOwn(node, segment)) {
      node = (node as Record<string, unknown>)[segment];
    } else node = undefined;
  }
  if (isTable(node)) return node;
  throw new MockHttpError(404, 'table_not_found', `no table "${path}" in the store; tables look like ${TABLE_PATH_EXAMPLES}`, {
    table: path,
  });
}
