/**
 * One zod issue in words, for the messages the SDK writes (a request body it refuses, a mock
 * snapshot it cannot serve). Its own module, so the mock shares it without pulling in the client's
 * request pipeline.
 * @module
 */
import type * as z from 'zod/mini';

/** zod's message when a schema gives none of its own. */
export const GENERIC_MESSAGE = 'Invalid input';

/**
 * Parse parameters under which an issue's message is its schema's own text, or else
 * {@link GENERIC_MESSAGE}, whatever the process configured: classic `zod` registers its English
 * locale the first time any of its schemas is built (an app's own `import { z } from 'zod'`),
 * and a locale's text ("Invalid input: expected string, received number") would pass for a
 * schema's own and reach a message without the field. A parse's own error map outranks the
 * global locale and yields to the schema's.
 * @example
 * const parsed = schema.safeParse(body, OWN_WORDS);
 */
export const OWN_WORDS = { error: () => GENERIC_MESSAGE } as const;

/**
 * zod/mini ships no message locale (loading one would change the caller's zod globally), so
 * its messages are a bare "Invalid input" (under {@link OWN_WORDS}, whatever locale the process
 * loaded): say what was expected from the issue itself.
 */
export function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.message !== GENERIC_MESSAGE) return issue.message; // a schema's own wording
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_small':
      return `must be ${issue.inclusive ? '≥' : '>'} ${String(issue.minimum)}`;
    case 'too_big':
      return `must be ${issue.inclusive ? '≤' : '<'} ${String(issue.maximum)}`;
    case 'unrecognized_keys':
      return `unknown key(s) ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'matches none of the allowed shapes';
    default:
      return GENERIC_MESSAGE;
  }
}
