/**
 * Class identity that survives the dual-package hazard: an app that loads both the ESM and the
 * CommonJS build (one dependency `import`s the SDK, another `require`s it) gets two copies of
 * every class, and plain `instanceof` fails between them. Each SDK class marks its prototype
 * with a registered symbol, the same in both copies, and its `instanceof` also accepts an
 * object carrying that mark.
 * @module
 */

/** Each SDK class's mark; classes a caller derives have none, so they keep plain `instanceof`. */
const brands = new WeakMap<object, symbol>();

/**
 * Marks `Class` (from its `static` block) as the SDK's class `name`, in whichever build this
 * is, and makes its `instanceof` (and, by inheritance, that of classes derived from it) also
 * true for an object of the same class, or a subclass, from the other build.
 */
export function brand(Class: abstract new (...args: never[]) => object, name: string): void {
  const key = Symbol.for(`community-server-sdk/${name}`);
  Object.defineProperty(Class.prototype, key, { value: true });
  Object.defineProperty(Class, Symbol.hasInstance, { value: hasInstance });
  brands.set(Class, key);
}

/** By the prototype chain, or, for the SDK's own classes, by the mark its other copy left there. */
function hasInstance(this: object, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
  const key = brands.get(this);
  return key !== undefined && typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[key] === true;
}
