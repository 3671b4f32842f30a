/**
 * A table of `mock.store` by its dotted path, the one `InvalidRowError` messages name
 * (`main.logs`, `main.cad.calls`, `main.departmentData.<departmentId>.members`, `tokens`), for
 * `POST /__mock/store/{table}`.
 * @module
 */
import { MockHttpError } from '../replies';
import type { Store } from '../store';

/** What the control plane uses of a table: `create(partial)` (duck-typed: the CommonJS build has two copies of the class). */
export interface CreatableTable {
  create(partial: Record<string, unknown>): object;
}

const isTable = (node: unknown): node is CreatableTable =>
  typeof node === 'object' && node !== null && typeof (node as Partial<CreatableTable>).create === 'function' && 'spec' in node;

/** What a 404 for an unknown table path says the paths look like. */
const TABLE_PATH_EXAMPLES = 'main.logs, main.members, main.cad.calls, main.departmentData.<departmentId>.loas, noCad.roles, tokens';

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
