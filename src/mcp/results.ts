/**
 * Tool results: a success as `structuredContent` with the same JSON as text (what a client
 * without structured output shows the model), a failure as `isError: true` with the error's
 * name, status, code and message as JSON (the shape the command line prints with
 * `--output json`). Values stay JSON: text a member wrote reaches the model as a string inside
 * JSON, never as text of the result's own.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod/mini';
import { describeThrown } from '../core/describe';

/** Cuts the note names one by one; past them, it counts. */
const LISTED_CUTS = 10;

/** A failure's fields, as the result's JSON names them. */
export interface ToolFailure {
  readonly name: string;
  readonly status: number | null;
  readonly code: string | null;
  readonly message: string;
}

/** The result of a call that succeeded; `cuts` (see `trim`) become a note after the JSON. */
export function success(structured: Record<string, unknown>, cuts: readonly string[] = []): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(structured) }];
  if (cuts.length > 0) {
    const more = cuts.length > LISTED_CUTS ? `; and ${cuts.length - LISTED_CUTS} more` : '';
    content.push({ type: 'text', text: `Cut to fit: ${cuts.slice(0, LISTED_CUTS).join('; ')}${more}.` });
  }
  return { content, structuredContent: structured };
}

/** The result of a call that failed with `failure`. */
export function failed(failure: ToolFailure): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: failure }) }] };
}

/** The fields of anything thrown: the SDK's errors carry a status and a code; others, their name and message. */
export function failureOf(thrown: unknown): ToolFailure {
  const error = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as Record<string, unknown>;
  return {
    name: typeof error.name === 'string' ? error.name : 'Error',
    status: typeof error.status === 'number' ? error.status : null,
    code: typeof error.code === 'string' ? error.code : null,
    message: describeThrown(thrown),
  };
}

/**
 * zod's issues in one line, each at the argument or field it concerns; an unknown argument's
 * with the arguments `known`, so a model can correct its call at once.
 */
export function issuesText(error: z.core.$ZodError, known: readonly string[] = []): string {
  return error.issues
    .map((issue) => {
      const at = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      const hint = issue.code === 'unrecognized_keys' ? ` (known: ${known.join(', ') || 'none'})` : '';
      return `${at}${issue.message}${hint}`;
    })
    .join('; ');
}

/** The result of a call whose arguments its input schema refused. */
export const refusedArguments = (tool: string, error: z.core.$ZodError, known: readonly string[]): CallToolResult =>
  failed({ name: 'InvalidArgumentError', status: null, code: null, message: `${tool}: ${issuesText(error, known)}` });
