/**
 * Reading a JSON request body against the SDK's schema of it (the spec's only one is #56's), with
 * 400 texts a person can act on: each names the field and the problem, e.g. `unknown key
 * "nmae"; accepted: name, expiresInDays` or `name must be a string, got number`. zod's own texts
 * ("Invalid input") name neither.
 * @module
 */
import type * as z from 'zod/mini';
import { GENERIC_MESSAGE, OWN_WORDS } from '../../../src/core/issues';
import { listed, namedKeys, typeName } from '../../contract/schema';
import { invalidBody, shownJson } from '../replies';

/** One problem of a body: where (`''` for the body itself) and what, in words. */
export interface BodyProblem {
  path: string;
  message: string;
}

/** What zod's `expected` means, in words. The SDK's numbers in bodies are integers. */
const EXPECTED: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'an integer',
  int: 'an integer',
  object: 'a JSON object',
  record: 'a JSON object',
  array: 'a JSON array',
  boolean: 'a boolean',
};

/** How a too-small or too-big value is measured, by zod's `origin`: a string's length, an array's size. */
const MEASURE: Readonly<Record<string, { verb: string; unit: string }>> = {
  string: { verb: 'be', unit: 'characters long' },
  array: { verb: 'hold', unit: 'items' },
};

/** The value at `path` inside `body`; `undefined` where the body has none. */
function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined),
    body,
  );
}

/** The object schema inside `schema` (itself, or what `nullable`/`optional` wraps), whose keys a body may have. */
function objectShape(schema: z.ZodMiniType): Record<PropertyKey, z.ZodMiniType> | undefined {
  const { shape, _zod } = schema as { shape?: Record<PropertyKey, z.ZodMiniType>; _zod: { def: { innerType?: z.ZodMiniType } } };
  return shape ?? (_zod.def.innerType && objectShape(_zod.def.innerType));
}

/** Whether the body itself (path `[]`) or its field `path[0]` may be `null`, to say "or null" in a type error. */
function nullable(schema: z.ZodMiniType, path: readonly PropertyKey[]): boolean {
  const member = path.length === 0 ? schema : path.length === 1 ? objectShape(schema)?.[path[0]!] : undefined;
  return member !== undefined && member.safeParse(null).success;
}

/** What a bound asks, after "must": `be at least 1`, `be at most 40 characters long`, `hold at least 2 items`, `not be empty`. */
function bound(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === 'too_small';
  const limit = String(small ? issue.minimum : issue.maximum);
  const measure = MEASURE[issue.origin];
  if (!measure) return `be ${small ? 'at least' : 'at most'} ${limit}`;
  if (small && limit === '1') return 'not be empty';
  return `${measure.verb} ${small ? 'at least' : 'at most'} ${limit} ${measure.unit}`;
}

/**
 * One zod issue in words, naming the field; `accepted` are the body's keys, for an unknown one.
 * The issue must come from a parse under `OWN_WORDS`: a locale's message would pass for the schema's own.
 */
export function issueInWords(issue: z.core.$ZodIssue, body: unknown, schema: z.ZodMiniType, accepted: readonly string[]): string {
  const field = issue.path.join('.');
  const value = valueAt(body, issue.path);
  const subject = field || 'the request body';
  if (issue.code === 'unrecognized_keys') {
    const keys = namedKeys(issue.keys, shownJson);
    return `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${keys}; accepted: ${accepted.join(', ')}`;
  }
  if (issue.code === 'invalid_type' && value === undefined && field) return `${field} is required`;
  // A check on a secret (`params: { secret: true }`: a token's) says what is wrong, never the value.
  if (issue.code === 'custom' && issue.params?.secret === true) return issue.message;
  // The SDK's schemas give their own checks a text that names the field ("endpoint must be a method name…").
  if (issue.message !== GENERIC_MESSAGE) return `${issue.message}, got ${shownJson(value)}`;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = `${EXPECTED[issue.expected] ?? `a ${issue.expected}`}${nullable(schema, issue.path) ? ' or null' : ''}`;
      // A number of the wrong kind (1.5 for an integer) is shown itself; anything else by its type.
      const got = typeof value === 'number' && (issue.expected === 'int' || issue.expected === 'number') ? String(value) : typeName(value);
      return `${subject} must be ${expected}, got ${got}`;
    }
    case 'invalid_value':
      return `${subject} must be ${listed(issue.values, (value) => JSON.stringify(value))}, got ${shownJson(value)}`;
    case 'too_small':
    case 'too_big':
      return `${subject} must ${bound(issue)}, got ${shownJson(value)}`;
    default:
      return `${subject} is not a value this request takes, got ${shownJson(value)}`;
  }
}

/**
 * The request body `text` parsed by `schema`, or a 400 `invalid_request` whose message names each
 * field's first problem and whose `details.issues` list them as `{ path, message }`.
 */
export function readJsonBody<Schema extends z.ZodMiniType>(received: string | undefined, schema: Schema): z.output<Schema> {
  const accepted = Object.keys(objectShape(schema) ?? {});
  const text = received ?? '';
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
function checkBody<Schema extends z.ZodMiniType>(
  body: unknown,
  schema: Schema,
  accepted: readonly string[] = Object.keys(objectShape(schema) ?? {}),
): z.output<Schema> {
  const parsed = schema.safeParse(body, OWN_WORDS);
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
  const issues: BodyProblem[] = [...chosen].map(([path, issue]) => ({ path, message: issueInWords(issue, body, schema, accepted) }));
  throw invalidBody(issues.map((problem) => problem.message).join('; '), { issues });
}
