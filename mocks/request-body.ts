/**
 * Reading a JSON request body against the SDK's schema of it (the spec's only one is #56's), with
 * 400 texts a person can act on: each names the field and the problem, e.g. `unknown key
 * "nmae"; accepted: name, expiresInDays` or `name must be a string, got number`. zod's own texts
 * ("Invalid input") name neither.
 * @module
 */
import type * as z from 'zod/mini';
import { invalidBody, shown } from './replies';

/** One problem of a body: where (`''` for the body itself) and what, in words. */
export interface BodyProblem {
  path: string;
  message: string;
}

/** How a value is named after "got": its JSON type. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Unknown keys a message names; the rest are counted. */
const SHOWN_KEYS = 5;

/** What zod's `expected` means, in words. The SDK's numbers in bodies are integers. */
const EXPECTED: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'an integer',
  int: 'an integer',
  object: 'a JSON object',
  boolean: 'a boolean',
};

/** The value at `path` inside `body`; `undefined` where the body has none. */
function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined),
    body,
  );
}

/** Whether the object schema lets its field `field` be `null` (to say "or null" in a type error). */
function nullable(schema: z.ZodMiniType, field: PropertyKey | undefined): boolean {
  const shape = (schema as { shape?: Record<PropertyKey, z.ZodMiniType> }).shape;
  const member = field === undefined ? undefined : shape?.[field];
  return member !== undefined && member.safeParse(null).success;
}

/** One zod issue in words, naming the field; `accepted` are the body's keys, for an unknown one. */
export function describe(issue: z.core.$ZodIssue, body: unknown, schema: z.ZodMiniType, accepted: readonly string[]): string {
  const field = issue.path.join('.');
  const value = valueAt(body, issue.path);
  const subject = field || 'the request body';
  switch (issue.code) {
    case 'unrecognized_keys': {
      const more = issue.keys.length - SHOWN_KEYS;
      const keys = issue.keys.slice(0, SHOWN_KEYS).map(shown).join(', ') + (more > 0 ? ` and ${more} more` : '');
      return `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${keys}; accepted: ${accepted.join(', ')}`;
    }
    case 'invalid_type': {
      if (value === undefined && field) return `${field} is required`;
      const expected = `${EXPECTED[issue.expected] ?? issue.expected}${nullable(schema, issue.path[0]) ? ' or null' : ''}`;
      // A number of the wrong kind (1.5 for an integer) is shown itself; anything else by its type.
      const got = typeof value === 'number' && (issue.expected === 'int' || issue.expected === 'number') ? String(value) : typeName(value);
      return `${subject} must be ${expected}, got ${got}`;
    }
    case 'invalid_value':
      return `${subject} must be ${issue.values.map((option) => JSON.stringify(option)).join(' or ')}, got ${shown(value)}`;
    case 'too_small':
      return `${subject} must be at least ${String(issue.minimum)}, got ${shown(value)}`;
    case 'too_big':
      return `${subject} must be at most ${String(issue.maximum)}, got ${shown(value)}`;
    default:
      // The SDK's schemas give their own refinements a text that names the field.
      return `${issue.message}, got ${shown(value)}`;
  }
}

/**
 * The body of `request` parsed by `schema`, or a 400 `invalid_request` whose message names each
 * field's first problem and whose `details.issues` list them as `{ path, message }`.
 */
export async function readJsonBody<Schema extends z.ZodMiniType>(request: Request, schema: Schema): Promise<z.output<Schema>> {
  const accepted = Object.keys((schema as { shape?: object }).shape ?? {});
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const message = `the request body must be a JSON object with ${accepted.join(', ')}, got ${text.trim() ? 'text that is not JSON' : 'no body'}`;
    throw invalidBody(message, { issues: [{ path: '', message }] });
  }
  return checkBody(body, schema, accepted);
}

/**
 * `body` (parsed JSON) checked by `schema`, or a 400 `invalid_request` whose message names each
 * field's first problem and whose `details.issues` list them as `{ path, message }`. `accepted`
 * are the keys an unknown key's message lists (default: the object schema's own).
 */
export function checkBody<Schema extends z.ZodMiniType>(
  body: unknown,
  schema: Schema,
  accepted: readonly string[] = Object.keys((schema as { shape?: object }).shape ?? {}),
): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  // One problem per field: zod may report a value twice (past the safe integers, then past the
  // field's own limit), and the field's limit is the one a person can act on.
  const chosen = new Map<string, z.core.$ZodIssue>();
  for (const issue of parsed.error.issues) {
    const path = issue.path.join('.');
    const earlier = chosen.get(path);
    if (!earlier || (earlier.code === 'too_big' && issue.code === 'too_big' && Number(issue.maximum) < Number(earlier.maximum))) {
      chosen.set(path, issue);
    }
  }
  const issues: BodyProblem[] = [...chosen].map(([path, issue]) => ({ path, message: describe(issue, body, schema, accepted) }));
  throw invalidBody(issues.map((problem) => problem.message).join('; '), { issues });
}
