/**
 * The tree `queries(core, tree)` is given: namespaces of `community-server-sdk/core` functions,
 * each at its client path (`{ members: { get: membersGet } }`). Each function carries its endpoint
 * (`~endpoint`, see `src/core/function.ts`), whose dotted name must be the path it stands at:
 * the tree's options and keys are then exactly those `queries(client)` makes for that path.
 * @module
 */
import { describe, isPlainObject } from '../core/arguments';
import type { Endpoint } from '../core/endpoint';
import { InvalidArgumentError } from '../core/error-base';
import type { CarriesEndpoint } from '../core/function';

/** A function of the tree: its endpoint's dotted name, the endpoint, and the function (the core first). */
export interface TreeFunction {
  readonly name: string;
  readonly endpoint: Endpoint;
  readonly call: (...args: unknown[]) => unknown;
}

/** The most names a method's dotted name has (`cad.calls.get`); test/query/core.test.ts checks it against the table. */
export const MAX_DEPTH = 3;

/**
 * Every function of `tree` with its path, in the tree's order; `InvalidArgumentError` for an
 * entry that is neither a namespace (a plain object) nor the `/core` function of its own path.
 */
export function functionsOf(tree: unknown, path = 'tree', depth = 1): TreeFunction[] {
  if (!isPlainObject(tree)) throw new InvalidArgumentError(`queries(): the ${path} must be an object, got ${describe(tree)}`);
  return Object.entries(tree).flatMap(([key, value]) => {
    const name = path === 'tree' ? key : `${path}.${key}`;
    // No method is named deeper than its third name (`cad.calls.get`): an object there is refused
    // as any entry that is no function, and a tree that holds itself is not walked for ever.
    if (isPlainObject(value) && depth < MAX_DEPTH) return functionsOf(value, name, depth + 1);
    const endpoint = typeof value === 'function' ? (value as CarriesEndpoint)['~endpoint'] : undefined;
    if (endpoint?.name !== name) {
      throw new InvalidArgumentError(
        `queries(): ${name} takes the community-server-sdk/core function of ${name}, got ${endpoint ? `that of ${endpoint.name}` : describe(value)}`,
      );
    }
    return [{ name, endpoint, call: value as TreeFunction['call'] }];
  });
}
