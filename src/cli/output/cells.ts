/**
 * Items as rows: which fields are columns (`--fields`, or those of the first items seen), a
 * field's value by its dotted path, and a value as the text of one cell.
 * @module
 */
import { UsageError } from '../failure';

/** A column: its name as given (`rank.name`) and the path it reads. */
export interface Field {
  readonly name: string;
  readonly path: readonly string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `--fields a,b.c` as columns; undefined when not given. */
export function parseFields(raw: string | boolean | undefined): Field[] | undefined {
  if (typeof raw !== 'string') return undefined;
  const names = raw.split(',').map((name) => name.trim());
  if (names.some((name) => name === '' || name.split('.').includes(''))) {
    throw new UsageError(`--fields takes field names separated by commas (dotted for nested ones: rank.name), got "${raw}"`);
  }
  return [...new Set(names)].map((name) => ({ name, path: name.split('.') }));
}

/** The value at `field` in `item` (undefined where the path leads nowhere). */
export const valueAt = (item: unknown, field: Field): unknown =>
  field.path.reduce<unknown>((value, key) => (isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined), item);

/** `item` cut to `fields`, keyed by their names as given; the item itself without them. */
export const project = (item: unknown, fields: readonly Field[] | undefined): unknown =>
  fields ? Object.fromEntries(fields.map((field) => [field.name, valueAt(item, field) ?? null])) : item;

/** The columns of `items` when none were asked for: every top-level field the items have, in the order first seen. */
export function fieldsOf(items: readonly unknown[]): Field[] {
  const names = new Set<string>();
  for (const item of items) {
    if (isRecord(item)) for (const key of Object.keys(item)) names.add(key);
    else names.add('value');
  }
  return [...names].map((name) => ({ name, path: [name] }));
}

/** The row of `item`: a non-object item fills the column `value`. */
export const rowOf = (item: unknown, fields: readonly Field[]): unknown[] =>
  fields.map((field) => (isRecord(item) ? valueAt(item, field) : field.name === 'value' ? item : undefined));

/** A value as the text of a cell: nothing for null, JSON for an object or array. */
export const cellText = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : (JSON.stringify(value) ?? '');

/** The items a document holds, as rows: a page's data, an array's elements, or the value alone. */
export const itemsOf = (value: unknown): readonly unknown[] =>
  Array.isArray(value) ? value : isRecord(value) && Array.isArray(value.data) ? value.data : [value];

/** Whether `value` is a page of a list (its data, the page's numbers). */
export const isPage = (value: unknown): value is { data: unknown[]; page: number; totalPages: unknown; total: unknown } =>
  isRecord(value) && Array.isArray(value.data) && typeof value.page === 'number';
