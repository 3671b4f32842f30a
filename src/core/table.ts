/**
 * The one walk of a resource table, apart from `endpoint.ts` so that it has no schema in it: an
 * entry that only walks the client's table (`community-server-sdk/query`) imports it without
 * zod. `endpoint.ts` gives it its types (`isEndpoint`, `endpointsOf`).
 * @module
 */

/** What the walk reads of an endpoint line: enough to tell it from a namespace. */
export interface Line {
  readonly method: string;
  readonly parts: readonly unknown[];
}

/** A table of lines, possibly nested (`cad.calls.list`). */
export interface Table<L extends Line = Line> {
  readonly [name: string]: L | Table<L>;
}

export function isLine<L extends Line>(value: L | Table<L>): value is L {
  return typeof (value as L).method === 'string' && Array.isArray((value as L).parts);
}

/**
 * Every line of a table with its dotted name (`cad.calls.list`), in the table's order: the one
 * walk of the table that the client, the query entry, the mock, the OpenAPI generator and the
 * tests share.
 */
export function linesOf<L extends Line>(table: Table<L>, prefix = ''): { name: string; endpoint: L }[] {
  return Object.entries(table).flatMap(([key, entry]) =>
    isLine(entry) ? [{ name: prefix + key, endpoint: entry }] : linesOf(entry, `${prefix}${key}.`),
  );
}
