/**
 * Query keys: `['community-server', scope, ...method path, ...arguments]`. The method path is
 * the client's, one element a name (`['cad', 'calls', 'list']`), so a prefix of a key addresses
 * a namespace (`q.key('cad')`) as well as one method. The arguments are normalised, so the
 * same call always gives the same key, and two calls asking for the same thing share one.
 * @module
 */
import { isPlainObject } from '../core/arguments';

/** The first element of every key this entry makes. */
export const KEY_ROOT = 'community-server';

/**
 * A key: `head` (the root, the scope, the method's path), then the first `length` arguments of
 * a call. In a plain object (list params, live options: flat) keys come sorted and `undefined`
 * values are dropped; `undefined` and `{}` are one argument (both ask for the defaults), and
 * trailing ones are left out, so `list()`, `list(undefined)` and `list({ page: undefined })`
 * share a key. Request options never get here. Made at every render, so built in one array.
 */
export function keyOf(head: readonly unknown[], args: readonly unknown[], length: number): unknown[] {
  const key = [...head];
  for (const arg of args.slice(0, length)) key.push(arg === undefined ? {} : normalise(arg));
  // `head` ends with the method's name: the arguments' empties are all that can go.
  while (isEmpty(key.at(-1))) key.pop();
  return key;
}

/** A plain object with its keys sorted and `undefined` values dropped. */
function normalise(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  // No prototype: an own `__proto__` key (from JSON.parse) stays a key rather than becoming one.
  const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const name of Object.keys(value).sort()) if (value[name] !== undefined) sorted[name] = value[name];
  return sorted;
}

const isEmpty = (value: unknown) => isPlainObject(value) && Object.keys(value).length === 0;
