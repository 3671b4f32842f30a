/**
 * The JSON of the rows the store serves, made once per row (as UTF-8 bytes) and reused while the
 * row reads the same. Serializing a page of 100 members costs about what node:http takes to send
 * it, so a list answered from scratch each time would halve the HTTP mock's throughput on its
 * own; and bytes, unlike a string, are sent without being encoded again on every answer.
 *
 * The store's writes replace a row (insert, update), and a new row is a new key here; but a test
 * may change a row in place (`get(id)!.name = …`), which the mock serves as changed (see
 * `Collection`). So a kept text is used only once the row is walked and found to hold what it was
 * made from (every key in order, every value): a walk that builds no string costs about a third
 * of serializing. A row holding anything but plain data (a `Date`, a function, a class instance)
 * is serialized every time, as `JSON.stringify` would, and never kept.
 * @module
 */
import { isPlainObject } from '../../../src/core/arguments';

/** Marks where an object or an array begins in a row's recorded values, followed by its size. */
const OBJECT = Symbol('object');
const ARRAY = Symbol('array');

interface Kept {
  /** `JSON.stringify(row)` as UTF-8. */
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** The row's values in walk order: `OBJECT, keys, (key, value…)…` and `ARRAY, length, value…`. */
  readonly values: readonly unknown[];
}

const kept = new WeakMap<object, Kept>();

/** Appends what `value` holds to `values`; `false` when it holds something that is not plain data. */
function record(value: unknown, values: unknown[]): boolean {
  if (value === null || typeof value !== 'object') {
    values.push(value);
    return typeof value !== 'function' && typeof value !== 'symbol' && typeof value !== 'bigint';
  }
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    values.push(ARRAY, value.length);
    for (const item of value) if (!record(item, values)) return false;
    return true;
  }
  if (!isPlainObject(value)) return false;
  const at = values.push(OBJECT, 0) - 1;
  let keys = 0;
  for (const key in value) {
    keys++;
    values.push(key);
    if (!record(value[key], values)) return false;
  }
  values[at] = keys;
  return true;
}

/** The position after `value` in `values` from `at` when it holds what they recorded; -1 when anything differs. */
function matches(value: unknown, values: readonly unknown[], at: number): number {
  if (value === null || typeof value !== 'object') return values[at] === value ? at + 1 : -1;
  if (Array.isArray(value)) {
    if (values[at] !== ARRAY || values[at + 1] !== value.length || Object.getPrototypeOf(value) !== Array.prototype) return -1;
    let next = at + 2;
    // Primitives, most of a row, are compared here without a call each: every row of every page
    // served is walked.
    for (const item of value) {
      if (item === null || typeof item !== 'object') {
        if (values[next++] !== item) return -1;
      } else if ((next = matches(item, values, next)) < 0) return -1;
    }
    return next;
  }
  if (values[at] !== OBJECT || !isPlainObject(value)) return -1;
  const keys = values[at + 1] as number;
  let next = at + 2;
  let seen = 0;
  for (const key in value) {
    if (++seen > keys || values[next] !== key) return -1;
    const item = value[key];
    if (item === null || typeof item !== 'object') {
      if (values[next + 1] !== item) return -1;
      next += 2;
    } else if ((next = matches(item, values, next + 1)) < 0) return -1;
  }
  return seen === keys ? next : -1;
}

const utf8 = new TextEncoder();

/** `JSON.stringify(row)` as UTF-8, reused from the last time while `row` holds the same values. */
export function rowJson(row: object): Uint8Array<ArrayBuffer> {
  const last = kept.get(row);
  if (last && matches(row, last.values, 0) === last.values.length) return last.bytes;
  const bytes = utf8.encode(JSON.stringify(row));
  const values: unknown[] = [];
  if (record(row, values)) kept.set(row, { bytes, values });
  else kept.delete(row);
  return bytes;
}

const PAGE_START = utf8.encode('{"data":[');
const COMMA = 0x2c;

/** The last page joined from its rows' bytes, by its first row: one asked for again is sent as it is, not copied anew. */
const joined = new WeakMap<
  object,
  { readonly rows: readonly Uint8Array[]; readonly tail: string; readonly bytes: Uint8Array<ArrayBuffer> }
>();

const sameItems = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((item, index) => item === b[index]);

/** `JSON.stringify(page)` as UTF-8, of a page envelope whose `data` are rows of the store, each from {@link rowJson}. */
export function pageJson(page: { readonly data: readonly object[] }): Uint8Array<ArrayBuffer> {
  const { data, ...rest } = page;
  const tail = JSON.stringify(rest);
  // Each row's bytes are the same object while the row holds the same values: the same bytes in
  // the same order, under the same envelope, are the same page.
  const rows = data.map(rowJson);
  const last = data[0] && joined.get(data[0]);
  if (last && last.tail === tail && sameItems(last.rows, rows)) return last.bytes;
  const end = utf8.encode(tail === '{}' ? ']}' : `],${tail.slice(1)}`);
  const bytes = new Uint8Array(
    rows.reduce((size, row) => size + row.length, PAGE_START.length + Math.max(0, rows.length - 1) + end.length),
  );
  bytes.set(PAGE_START);
  let at = PAGE_START.length;
  rows.forEach((row, index) => {
    if (index > 0) bytes[at++] = COMMA;
    bytes.set(row, at);
    at += row.length;
  });
  bytes.set(end, at);
  if (data[0]) joined.set(data[0], { rows, tail, bytes });
  return bytes;
}
