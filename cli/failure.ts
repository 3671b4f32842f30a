/**
 * How the command ends: its exit status, and what it says on stderr when it fails. Exit 0 on
 * success; 1 for an error from the service or the network; 2 for bad usage, found before any
 * request is sent; 130 when interrupted (Ctrl-C), as shells report a SIGINT.
 * @module
 */
import { AbortError, ApiError, InvalidArgumentError } from '../src/core/errors';

export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/**
 * Bad usage: an unknown command or flag, a missing or malformed argument, a token passed where
 * none may be. Thrown before any request; the command exits 2. `help` names the command whose
 * `--help` would have helped.
 */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly help: string = '',
  ) {
    super(message);
  }
}

/** The command was interrupted (SIGINT) or its reader went away (a closed pipe). */
export class Interrupted extends Error {
  override name = 'Interrupted';
}

/** The exit status for `error`. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError || error instanceof InvalidArgumentError) return EXIT.usage;
  if (error instanceof Interrupted || error instanceof AbortError) return EXIT.interrupted;
  return EXIT.failed;
}

/** What an error report holds: `{ name, status, code, message }`, status and code `null` where none. */
export interface ErrorReport {
  name: string;
  status: number | null;
  code: string | null;
  message: string;
}

export function errorReport(error: unknown): ErrorReport {
  if (error instanceof ApiError) return { name: error.name, status: error.status, code: error.code, message: error.message };
  if (error instanceof UsageError) return { name: error.name, status: null, code: 'usage', message: error.message };
  if (error instanceof Error) return { name: error.name, status: null, code: null, message: error.message };
  return { name: 'Error', status: null, code: null, message: String(error) };
}

/** The one line that says what went wrong: `NotFoundError (404 not_found): member 123 was not found`. */
export function errorLine({ name, status, code, message }: ErrorReport): string {
  const detail = [status, code].filter((part) => part !== null).join(' ');
  return `${name}${detail ? ` (${detail})` : ''}: ${message}`;
}
