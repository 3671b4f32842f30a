/**
 * Keeps a secret out of anything the SDK hands back: a service that echoes the token in an
 * error body or header, or a `fetch` that quotes its request (headers and all) in what it
 * throws, must not make the token reach a log through the error. The walk of any value; the
 * text-only redaction (log lines, payloads) is `redact-text.ts`'s, on every call's path, where
 * this module loads the first time a call fails.
 * @module
 */
import { REDACTED, secretReplacer } from './redact-text';

export { REDACTED, secretForms } from './redact-text';

/** Deeper than any real error or body: dropped rather than walked. */
const MAX_DEPTH = 32;
/** Values walked at most: a huge or generated structure is cut short, not walked forever. */
const MAX_NODES = 100_000;
/**
 * Prototypes whose members are the platform's own, so nothing on them can render text of the
 * caller's: an object inheriting only from these (or from a bare subclass of them) shows what
 * its own data holds and no more.
 */
const PLATFORM = new Set<unknown>([
  null,
  Object.prototype,
  Array.prototype,
  ...[Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError, AggregateError].map((type) => type.prototype),
]);

/**
 * `value` with every occurrence of `secret` replaced (percent-encoded too, and a head of it a
 * cut left: see `secretReplacer`), at any depth: in strings, keys (Symbol
 * descriptions too), errors (message, stack, `cause`, `errors`, own and hidden properties),
 * arrays, `Map`s, `Set`s, `Headers`, `Request`s, `Response`s, `URL`s, and what getters return. Cycles stay cycles.
 * `value` itself only when nothing in it mentions the secret and nothing in it can produce text
 * the walk did not see (so a caller's own error class survives as a `cause`); else a copy made
 * of plain data, so no internal slot, getter, hook (`toJSON`, `util.inspect.custom`, a method)
 * or Proxy can show the secret later: a renderer calls code the walk never ran.
 */
export function redact<T>(value: T, secret: string | undefined): T {
  if (!secret) return value;
  /** Set once the value is not known clean: it mentions the secret, or could say more than was read. */
  let dirty = false;
  let nodes = 0;
  const copies = new Map<object, unknown>();

  const replace = secretReplacer(secret);
  const text = (string: string): string => {
    const replaced = replace(string);
    if (replaced !== string) dirty = true;
    return replaced;
  };
  const symbol = (key: symbol): symbol => {
    const description = key.description === undefined ? undefined : text(key.description);
    return description === key.description ? key : Symbol(description);
  };

  const copy = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') return text(item);
    if (typeof item === 'symbol') return symbol(item);
    if ((typeof item !== 'object' && typeof item !== 'function') || item === null) return item;
    if (copies.has(item)) return copies.get(item);
    if (depth >= MAX_DEPTH || ++nodes > MAX_NODES) {
      dirty = true; // not walked, so not known clean
      return REDACTED;
    }
    depth++;
    try {
      // Collections and fetch's classes keep their content in internal slots, which a walk of
      // own properties would miss and inspect would show: their entries are walked instead, and
      // the copy is kept, as their own properties and subclasses are not walked.
      if (
        item instanceof Map ||
        item instanceof Set ||
        item instanceof Headers ||
        item instanceof Request ||
        item instanceof Response ||
        item instanceof URL ||
        item instanceof URLSearchParams
      ) {
        dirty = true;
      }
      if (item instanceof Map) return new Map(copy([...item], depth) as [unknown, unknown][]);
      if (item instanceof Set) return new Set(copy([...item], depth) as unknown[]);
      if (item instanceof Headers) return new Headers(copy([...item], depth) as [string, string][]);
      if (item instanceof Request || item instanceof Response) return copy({ url: item.url, headers: item.headers }, depth);
      if (item instanceof URL || item instanceof URLSearchParams) return copy(String(item), depth);
      return properties(item, depth);
    } catch {
      dirty = true; // a Proxy's trap threw (even `instanceof` asks one): not walked, so not known clean
      return REDACTED;
    }
  };

  /** Errors, arrays, functions and other objects: own properties (Symbol keys, hidden ones) copied as data. */
  const properties = (item: object, depth: number): unknown => {
    const result = shell(item);
    copies.set(item, result);
    const keys = Reflect.ownKeys(item);
    if (inherited(item, text)) dirty = true;
    // An error's name is inherited, so not among its own keys; but inspect shows it.
    if (result instanceof Error) keys.push('name');
    for (const key of keys) {
      if (Array.isArray(result) && key === 'length') continue;
      const { value: own, enumerable, data } = read(item, key);
      if (!data) dirty = true; // a getter may answer a renderer otherwise than it answered the walk
      Object.defineProperty(result, typeof key === 'string' ? text(key) : symbol(key), {
        value: copy(own, depth),
        enumerable,
        writable: true,
        configurable: true,
      });
    }
    return result;
  };

  const result = copy(value, 0);
  // Last, what the walk cannot see: a Proxy (a renderer reads its target, not its traps) or a
  // function (a hook a renderer may call) anywhere in it. Structured cloning refuses both, and
  // is only tried on what has no getter left to call twice.
  if (!dirty) {
    try {
      structuredClone([...copies.keys()]);
    } catch {
      dirty = true;
    }
  }
  return (dirty ? result : value) as T;
}

/**
 * `error`, one the SDK made for a call and no one has seen yet, with every occurrence of
 * `secret` replaced in each of its own properties (message, stack, cause, path, details,
 * headers, issues…) as {@link redact} replaces it: in place, so that its class, and every
 * `instanceof` a caller checks, stay what they were.
 */
export function redactError<E extends Error>(error: E, secret: string | undefined): E {
  for (const key of Reflect.ownKeys(error)) Reflect.set(error, key, redact(Reflect.get(error, key), secret));
  return error;
}

// In the leaf module describe.ts, so an entry that only describes what was thrown (the fleet's)
// carries none of this module's (nor errors.ts's) classes; re-exported for this module's users.
export { describeThrown } from './describe';

/** V8 from Node 22 on gives every error an own `stack` accessor: the platform's, answering as data does. */
const errorStack = Reflect.getOwnPropertyDescriptor(new Error(), 'stack')?.get;

/** A property's value however it is defined: a getter is called; one that throws reads as redacted. `data`: no getter of the caller's. */
function read(target: object, key: string | symbol): { value: unknown; enumerable: boolean; data: boolean } {
  try {
    const own = Reflect.getOwnPropertyDescriptor(target, key);
    const data = !own || 'value' in own || (errorStack !== undefined && own.get === errorStack);
    return { value: Reflect.get(target, key), enumerable: own?.enumerable ?? false, data };
  } catch {
    return { value: REDACTED, enumerable: true, data: false }; // unreadable, so not known clean
  }
}

/**
 * Whether `value` inherits anything of the caller's a renderer may call or show: a prototype
 * that is not the platform's and holds more than a `constructor` (a method, `toJSON`, a hook, a
 * getter), or a constructor that is not a plain `class` with a data name (a Proxy's source reads
 * as native code, and inspect asks it for the name). `text` sees the class names.
 */
function inherited(value: object, text: (string: string) => string): boolean {
  for (let proto = value, depth = 0; !PLATFORM.has((proto = Reflect.getPrototypeOf(proto)!));) {
    const type: unknown = Reflect.getOwnPropertyDescriptor(proto, 'constructor')?.value;
    const name: unknown =
      typeof type == 'function' &&
      /^class\b/.test(Function.prototype.toString.call(type)) &&
      Reflect.getOwnPropertyDescriptor(type, 'name')?.value;
    if (++depth > MAX_DEPTH || Reflect.ownKeys(proto).length > 1 || typeof name != 'string') return true;
    text(name);
  }
  return false;
}

/** An empty object of the same broad kind as `value` (error, array, or plain), to copy its properties into. */
function shell(value: object): object {
  if (value instanceof Error) return value instanceof AggregateError ? new AggregateError([]) : new Error();
  return Array.isArray(value) ? [] : {};
}
