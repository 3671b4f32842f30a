/**
 * What every row the mock holds must be, whatever its table: plain JSON (the mock serves rows
 * with `JSON.stringify`, so anything else turns every later page of its list into a 500, or is
 * silently changed on the way out), nested no deeper than {@link MAX_ROW_DEPTH}, and with its times in
 * Unix seconds. Tables check these on every write; a world snapshot is checked the same way.
 * @module
 */
import { isPlainObject } from '../../../src/core/arguments';

/** How deep a value may nest (a row's fields are level 1): far beyond any real row, short of a stack overflow. */
export const MAX_ROW_DEPTH = 64;

/**
 * The largest Unix-seconds time a row may hold (year 5138). A millisecond time of today is
 * ~1.8e12, a second one ~1.8e9: anything past this bound is milliseconds given as seconds.
 */
export const MAX_SECONDS = 1e11;

/** A field of the API that holds a time in Unix seconds: `createdAt`, `timestamp`, `lastUpdated`, `inactiveSince`… */
const TIME_FIELD = /(?:At|Since|^timestamp|^lastUpdated|^internalLastChecked|^inactiveLastShift)$/;

/**
 * The most characters a row may take as JSON: no real row comes near, and a page of 100 such
 * rows, even of characters that take 3 bytes in UTF-8, is well within the 64 MiB of an answer
 * the SDK reads; a bigger row would make its page one the SDK refuses.
 */
export const MAX_ROW_CHARS = 131_072;

/** Where in a value a problem is, and what it is. */
export interface RowProblem {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** `members[3].createdAt` from `['members', 3, 'createdAt']`. */
export const formatPath = (path: readonly PropertyKey[]) =>
  path.map((key, at) => (typeof key === 'number' ? `[${key}]` : `${at === 0 ? '' : '.'}${String(key)}`)).join('');

/** `path: message`, or the message alone at the root. */
export const describeProblem = ({ path, message }: RowProblem) => (path.length ? `${formatPath(path)}: ${message}` : message);

const JSON_KINDS = 'a row holds plain objects, arrays, strings, finite numbers, booleans and null';

/** `name` after its article, by its first letter: `a Map`, `an Error`. */
const withArticle = (name: string) => `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;

/** What a value that is not JSON is, in words: `a bigint`, `a Map`, `NaN`. */
function notJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${value} (JSON has finite numbers only)`;
    case 'bigint':
    case 'function':
    case 'symbol':
      return `a ${typeof value}`;
    case 'undefined':
      return 'undefined';
    default:
      if (value === null || Array.isArray(value) || isPlainObject(value)) return undefined;
      return `${withArticle((value as object).constructor?.name ?? 'non-plain object')} instance`;
  }
}

/**
 * The first place where `value` is not plain JSON: a bigint, function, symbol, NaN or ±Infinity,
 * `undefined` inside an array (JSON would send `null`), a Date, Map or class instance, a
 * circular reference, or nesting deeper than `maxDepth`. An object's `undefined` field is fine:
 * it is absent, as JSON sends it. `path` is where `value` sits.
 */
export function jsonProblem(value: unknown, path: readonly PropertyKey[] = [], maxDepth = MAX_ROW_DEPTH): RowProblem | undefined {
  const ancestors = new Set<object>();
  const walk = (inner: unknown, at: readonly PropertyKey[], inArray: boolean): RowProblem | undefined => {
    if (inner === undefined && !inArray && at.length > path.length) return undefined;
    const kind = notJson(inner);
    if (kind !== undefined) return { path: at, message: `${kind} is not JSON; ${JSON_KINDS}` };
    if (inner === null || typeof inner !== 'object') return undefined;
    if (ancestors.has(inner)) return { path: at, message: 'a circular reference (the value contains itself) is not JSON' };
    if (at.length - path.length >= maxDepth) return { path: at, message: `nested deeper than ${maxDepth} levels` };
    ancestors.add(inner);
    const entries: [PropertyKey, unknown][] = Array.isArray(inner) ? inner.map((item, index) => [index, item]) : Object.entries(inner);
    for (const [key, item] of entries) {
      const problem = walk(item, [...at, key], Array.isArray(inner));
      if (problem) return problem;
    }
    ancestors.delete(inner);
    return undefined;
  };
  return walk(value, path, false);
}

/**
 * `value` as JSON sends it: without the fields of its objects that hold `undefined`, at any
 * depth. JSON leaves them out, so a row kept with one would be served without it: checked this
 * way, a required field set to `undefined` is refused as missing, and an optional one is gone.
 * `value` itself when it has none; an object or array is copied only where something is left
 * out below it. `value` must otherwise be JSON (see {@link jsonProblem}).
 */
export function asSent<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const entries: [PropertyKey, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  let copy: Record<PropertyKey, unknown> | undefined;
  for (const [key, field] of entries) {
    const sent = asSent(field);
    if (field !== undefined && sent === field) continue;
    copy ??= (Array.isArray(value) ? [...(value as unknown[])] : { ...value }) as Record<PropertyKey, unknown>;
    if (field === undefined) delete copy[key];
    else copy[key] = sent;
  }
  return (copy ?? value) as T;
}

/** The first time field of `row` (of `fields`, when given) that holds milliseconds rather than seconds. */
export function timeProblem(
  row: object,
  fields: readonly string[] = Object.keys(row),
  path: readonly PropertyKey[] = [],
): RowProblem | undefined {
  for (const field of fields) {
    const value = (row as Record<string, unknown>)[field];
    if (TIME_FIELD.test(field) && typeof value === 'number' && Math.abs(value) > MAX_SECONDS) {
      return { path: [...path, field], message: `${value} is a time in Unix seconds, not milliseconds (at most ${MAX_SECONDS})` };
    }
  }
  return undefined;
}

/** A problem when `row` (plain JSON, at `path`) is more than {@link MAX_ROW_CHARS} characters as JSON. */
export function sizeProblem(row: object, path: readonly PropertyKey[] = []): RowProblem | undefined {
  const chars = JSON.stringify(row).length;
  if (chars <= MAX_ROW_CHARS) return undefined;
  return { path, message: `the row is ${chars} characters as JSON, more than ${MAX_ROW_CHARS}: its page would be more than the SDK reads` };
}
