/**
 * A request body as flags: each property of the endpoint's body schema (zod 4's JSON Schema of
 * it) is a flag in kebab-case (`expiresInDays` → `--expires-in-days`), numbers read as numbers.
 * The client checks the body against its schema before sending; here only what a flag can say.
 * @module
 */
import * as z from 'zod/mini';
import type { Endpoint } from '../src/core/endpoint';
import { kebabCase } from '../src/operations/index';
import { UsageError } from './failure';
import type { Options, Values } from './flags';

/** One property of a body, as a flag. */
export interface BodyFlag {
  readonly flag: string;
  readonly property: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean';
  readonly required: boolean;
}

interface JsonSchema {
  type?: string;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** The JSON type of a property, looking through `anyOf` (an optional field is `T | null`). */
const typeOf = (schema: JsonSchema): BodyFlag['type'] => {
  const types = [schema.type, ...(schema.anyOf ?? []).map((option) => option.type)];
  return (['integer', 'number', 'boolean'] as const).find((type) => types.includes(type)) ?? 'string';
};

const cache = new WeakMap<Endpoint, BodyFlag[]>();

/** The flags of `endpoint`'s body, none when it sends none. */
export function bodyFlags(endpoint: Endpoint): BodyFlag[] {
  if (!endpoint.body) return [];
  let flags = cache.get(endpoint);
  if (!flags) {
    const schema = z.toJSONSchema(endpoint.body, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    const required = new Set(schema.required ?? []);
    flags = Object.entries(schema.properties ?? {}).map(([property, field]) => ({
      flag: kebabCase(property),
      property,
      type: typeOf(field),
      required: required.has(property),
    }));
    cache.set(endpoint, flags);
  }
  return flags;
}

/** The body flags as `parseArgs` options. */
export const bodyOptions = (flags: readonly BodyFlag[]): Options =>
  Object.fromEntries(flags.map(({ flag, type }) => [flag, { type: type === 'boolean' ? 'boolean' : 'string' }]));

/** The body the flags' `values` make; a required flag missing, or a number that is none, is a usage error. */
export function bodyOf(flags: readonly BodyFlag[], values: Values, help: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const { flag, property, type, required } of flags) {
    const raw = values[flag];
    if (raw === undefined) {
      if (required) throw new UsageError(`--${flag} is required`, help);
      continue;
    }
    if (type === 'integer' || type === 'number') {
      const number = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
      if (!Number.isFinite(number) || (type === 'integer' && !Number.isSafeInteger(number))) {
        throw new UsageError(`--${flag} must be ${type === 'integer' ? 'a whole number' : 'a number'}, got "${String(raw)}"`, help);
      }
      body[property] = number;
    } else body[property] = raw;
  }
  return body;
}
