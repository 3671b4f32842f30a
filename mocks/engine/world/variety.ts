/**
 * The variety of a long-lived service's rows, made deterministic per row index so that every
 * seed shows every form: an optional field with a value, as `null` and absent; an open ("any")
 * field as the JSON kinds rows written by several versions of a service carry. Clients that
 * mishandle one of these forms meet it in the mock, not first in production.
 * @module
 */

/** Within any this many consecutive rows, every field takes each of its forms. */
const PERIOD = 5;

/** The fields `spread` varies, each with the value it has when present (given the drawn one, if any). */
export type Spread<Row> = {
  // A method's parameter is bivariant: a loose row's `unknown` index signature still admits a
  // field's own typed maker.
  [Key in keyof Row]?: { make(drawn: Row[Key] | undefined): Row[Key] }['make'];
};

/**
 * Varies `fields` of `row` by its `index`: the `j`th field is `null` when `(index + j) % 5` is 0,
 * absent when it is 1, and otherwise has a value (`value(drawn)`, where `drawn` is what the seeder
 * drew for it, if anything). Offsetting by `j` keeps one row from losing every field at once.
 */
export function spread<Row extends object>(row: Row, index: number, fields: Spread<Row>): Row {
  const record = row as Record<string, unknown>;
  Object.entries(fields).forEach(([key, value], j) => {
    const form = (index + j) % PERIOD;
    if (form === 0) record[key] = null;
    else if (form === 1) delete record[key];
    else record[key] = (value as (drawn: unknown) => unknown)(record[key] ?? undefined);
  });
  return row;
}

/**
 * An open ("any") field as rows of several ages carry it: mostly `value`; `null` in one row of
 * five; and in another, the older encoding — a JSON string of it (a bare string was later
 * wrapped: `{ text }`). `salt` staggers the fields of one row.
 */
export function openJson(value: unknown, index: number, salt = 0): unknown {
  const form = (index + salt) % PERIOD;
  if (form === 0) return null;
  return form === 1 ? older(value) : value;
}

/** The older encoding of an open value: a JSON string of it, or `{ text }` around a bare string. */
const older = (value: unknown) => (typeof value === 'string' ? { text: value } : JSON.stringify(value));

/**
 * An optional open field's value inside `spread` (which already makes it `null` or absent in some
 * rows): `value`, in the older encoding in every other run of five rows, so each form of `spread`
 * meets both encodings.
 */
export const aged = (value: unknown, index: number): unknown => (Math.floor(index / PERIOD) % 2 === 1 ? older(value) : value);

/** Each row's fields that are not yet set become `null` in every other row (the service writes them out empty). */
export function nullWhenUnset<Row extends object>(row: Row, index: number, keys: readonly (keyof Row)[]): Row {
  if (index % 2 === 0) for (const key of keys) if (row[key] === undefined) row[key] = null as Row[keyof Row];
  return row;
}
