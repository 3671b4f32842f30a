/**
 * The control API's schemas, in the one form every side of it reads: a small subset of JSON
 * Schema (draft 2020-12), as plain data. The OpenAPI document embeds them as they are; the HTTP
 * plane, the in-process `mock.*` calls and `connectMock` check values with {@link problemsOf}.
 * zod would serve the server alone: `community-server-sdk/mock/remote` must check the same
 * arguments without bundling it, so the table says its checks once, in data both can interpret.
 * Each schema also carries, in its type alone, the TypeScript type of the values it accepts
 * ({@link Infer}): the types of the control API's arguments are read off their schemas, never
 * written beside them.
 *
 * The subset: `type` (one or a list), `properties` with `required` and `additionalProperties:
 * false`, `items`, `minimum`/`maximum`, `minLength`, `pattern`, `enum`, `const`, `anyOf`, and
 * `allOf` of rules (`not`/`anyOf` of `required`) that relate fields. A `description` is how a
 * message says what a value must be (`endpoint must be <description>, got …`); on a rule, it is
 * the whole message.
 * @module
 */
import { InvalidArgumentError } from '../../src/core/errors';

type TypeName = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

declare const accepts: unique symbol;

/** A JSON Schema of the subset the control API is written in; `T`, in its type alone, is what it accepts. */
export interface Schema<T = unknown> {
  readonly type?: TypeName | readonly TypeName[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly items?: Schema;
  readonly minimum?: number | undefined;
  readonly maximum?: number | undefined;
  readonly minLength?: number;
  readonly pattern?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly Schema[];
  readonly allOf?: readonly Schema[];
  readonly not?: Schema;
  readonly description?: string | undefined;
  /** A value that does not fit is named by its kind, never quoted: where a secret is a likely mistake. */
  readonly 'x-not-shown'?: boolean;
  /** Types only, never set: the values the schema accepts. */
  readonly [accepts]?: T;
}

/** The TypeScript type of the values `S` accepts. */
export type Infer<S> = S extends Schema<infer T> ? T : never;

/** The fields of an object schema, each typed as its schema accepts (documentation comments carried). */
type Fields<Properties> = { -readonly [Name in keyof Properties]: Infer<Properties[Name]> };
/** An object of `Properties`: those named in `Required` present, the others optional. */
type ObjectOf<Properties, Required extends keyof Properties> = Partial<Pick<Fields<Properties>, Exclude<keyof Properties, Required>>> &
  Pick<Fields<Properties>, Required>;

/** One problem of a value: where (`''` for the value itself, else a dotted path) and what, in words. */
export interface Problem {
  readonly path: string;
  readonly message: string;
}

/** An integer from `minimum` to `maximum` (absent: the safe integers from `minimum`). */
export const integer = (minimum?: number, maximum?: number, description?: string): Schema<number> => ({
  type: 'integer',
  minimum,
  maximum,
  description,
});

/** An object of exactly `properties`; those named in `required` must be present. */
export const object = <Properties extends Record<string, Schema>, const Required extends readonly (keyof Properties & string)[] = []>(
  properties: Properties,
  required?: Required,
): Schema<ObjectOf<Properties, Required[number]>> => ({
  type: 'object',
  properties,
  required: required ?? [],
  additionalProperties: false,
});

export const STRING: Schema<string> = { type: 'string' };
export const BOOLEAN: Schema<boolean> = { type: 'boolean' };
/** Any JSON object, whatever its keys. */
export const ANY_OBJECT: Schema<object> = { type: 'object' };
export const arrayOf = <Item>(items: Schema<Item>): Schema<Item[]> => ({ type: 'array', items });
/** One of `values` (`extra`: a description, `x-not-shown`). */
export const oneOf = <const Values extends readonly unknown[]>(
  values: Values,
  extra?: Pick<Schema, 'x-not-shown' | 'description'>,
): Schema<Values[number]> => ({
  enum: values,
  ...extra,
});
/** Exactly `value`. */
export const constant = <const Value>(value: Value, description?: string): Schema<Value> => ({ const: value, description });
/** A value one of `branches` accepts. */
export const either = <T>(branches: readonly Schema<T>[], description?: string): Schema<T> => ({ anyOf: branches, description });
export const nullable = <T>(schema: Schema<T>): Schema<T | null> => ({ ...schema, type: [schema.type as TypeName, 'null'] });

/** Keys an unknown-key message names; the rest are counted. */
const SHOWN_KEYS = 5;
/** Characters of a sent value a message repeats. */
const SHOWN_CHARS = 40;

/** How a value is named after "got" when its type is wrong: its JSON type. */
export const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** A value as a message shows it: a string quoted and cut short, a number or literal as is, anything else by its type. */
export function shownValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value);
  return typeof value === 'number' || typeof value === 'boolean' || value == null ? String(value) : typeName(value);
}

const isType = (value: unknown, type: TypeName): boolean =>
  type === 'integer'
    ? Number.isSafeInteger(value)
    : type === 'number'
      ? typeof value === 'number' && Number.isFinite(value)
      : type === 'object'
        ? typeof value === 'object' && value !== null && !Array.isArray(value)
        : typeName(value) === type;

const WORDS: Readonly<Record<TypeName, string>> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
};

/** `"a"`, `"a" or "b"`, `one of "a", "b", "c"`: the values a field may take, each as `show` writes it. */
export const listed = (values: readonly unknown[], show: (value: unknown) => string = shownValue) =>
  (values.length > 2 ? 'one of ' : '') + values.map(show).join(values.length > 2 ? ', ' : ' or ');

/** `"a", "b" and 3 more`: the first keys of `keys`, each as `show` writes it, and how many more there are. */
export function namedKeys(keys: readonly unknown[], show: (key: unknown) => string): string {
  const more = keys.length - SHOWN_KEYS;
  return keys.slice(0, SHOWN_KEYS).map(show).join(', ') + (more > 0 ? ` and ${more} more` : '');
}

/** What `schema` asks of a value, in words, after "must be". */
function expected(schema: Schema): string {
  if (schema.description) return schema.description;
  if (schema.enum) return listed(schema.enum);
  if ('const' in schema) return shownValue(schema.const);
  if (schema.anyOf) return schema.anyOf.map(expected).join(', or ');
  const types = [schema.type ?? []].flat();
  const { minimum: min, maximum: max } = schema;
  const range = min === undefined ? '' : max === undefined || max >= Number.MAX_SAFE_INTEGER ? ` ≥ ${min}` : ` from ${min} to ${max}`;
  return types.map((type) => WORDS[type] + (type === 'integer' ? range : '')).join(' or ');
}

/** Whether `value` meets `schema` on its own, fields aside: the checks that make one problem of the value. */
function fits(schema: Schema, value: unknown): boolean {
  const types = schema.type === undefined ? undefined : [schema.type].flat();
  if (types && !types.some((type) => isType(value, type))) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  if ('const' in schema && value !== schema.const) return false;
  if (typeof value === 'number' && !((schema.minimum ?? -Infinity) <= value && value <= (schema.maximum ?? Infinity))) return false;
  if (typeof value === 'string' && (value.length < (schema.minLength ?? 0) || !new RegExp(schema.pattern ?? '').test(value))) {
    return false;
  }
  return !schema.anyOf || schema.anyOf.some((branch) => problemsOf(branch, value).length === 0);
}

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/**
 * The problems of `value` against `schema`, at most one per field, each naming where it is:
 * `path` is the name of `value` itself (`''`: an unnamed request body, said "the request body").
 * No problems: the value fits.
 */
export function problemsOf(schema: Schema, value: unknown, path = ''): Problem[] {
  const subject = path || 'the request body';
  if (!fits(schema, value)) {
    // A value of another type is named by its type, unless a description says what is wanted, or
    // it is a number where an integer is (1.5): then it is shown itself.
    const types = [schema.type ?? []].flat();
    const numeric = typeof value === 'number' && (types.includes('integer') || types.includes('number'));
    const typeWrong = types.length > 0 && !types.some((type) => isType(value, type));
    let got = typeWrong && !schema.description && !numeric ? typeName(value) : shownValue(value);
    if (schema['x-not-shown']) got = 'a value that is none of these (not shown)';
    // A request body is JSON text: "a JSON object" says what to send.
    const wanted = path ? expected(schema) : expected(schema).replace(/\ban object\b/, 'a JSON object');
    return [{ path, message: `${subject} must be ${wanted}, got ${got}` }];
  }
  const problems: Problem[] = [];
  if (isType(value, 'object') && (schema.properties || schema.required)) {
    const record = value as Record<string, unknown>;
    const properties = schema.properties ?? {};
    // A key whose value is `undefined` is absent, as JSON would send it.
    const present = Object.keys(record).filter((key) => record[key] !== undefined);
    const unknown = schema.additionalProperties === false ? present.filter((key) => !Object.hasOwn(properties, key)) : [];
    if (unknown.length) {
      const keys = namedKeys(unknown, shownValue);
      problems.push({
        path,
        message: `unknown ${unknown.length === 1 ? 'key' : 'keys'} ${keys}${path ? ` in ${path}` : ''}; accepted: ${Object.keys(properties).join(', ')}`,
      });
    }
    for (const key of new Set([...Object.keys(properties), ...(schema.required ?? [])])) {
      const given = Object.hasOwn(record, key) && record[key] !== undefined;
      if (given && properties[key]) problems.push(...problemsOf(properties[key], record[key], join(path, key)));
      else if (!given && schema.required?.includes(key)) {
        problems.push({ path: join(path, key), message: `${join(path, key)} is required` });
      }
    }
  }
  if (Array.isArray(value) && schema.items) {
    // The first item that does not fit: a 1 MiB array of wrong items makes one problem, not 100 000.
    const index = value.findIndex((item) => problemsOf(schema.items!, item).length > 0);
    if (index >= 0) problems.push(...problemsOf(schema.items, value[index], join(path, index)));
  }
  // Rules relating fields, once each field is right: their description is the whole message.
  if (problems.length === 0) {
    for (const rule of schema.allOf ?? []) {
      const broken = rule.not ? problemsOf(rule.not, value).length === 0 : !fits(rule, value);
      if (broken) problems.push({ path, message: rule.description ?? `${subject} is not a value this takes` });
    }
  }
  return problems;
}

/** Throws `InvalidArgumentError` saying every one of `problems`, after `call` (`faults.add(rule): …`) when given; none: returns. */
export function refuseProblems(problems: readonly Problem[], call?: string): void {
  if (problems.length) {
    throw new InvalidArgumentError(`${call ? `${call}: ` : ''}${problems.map((problem) => problem.message).join('; ')}`);
  }
}
