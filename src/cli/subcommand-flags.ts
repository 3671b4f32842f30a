/**
 * The flags of the subcommands, apart from their code: the registry (`subcommands.ts`) names
 * them, for the dispatcher and the completion scripts, without loading the commands.
 * @module
 */
import { CONNECTION_OPTIONS } from './connection';
import { OUTPUT_OPTIONS, type Options } from './flags';

/** `api <METHOD> <path>`: what any command prints with and connects by. */
export const API_OPTIONS = { ...OUTPUT_OPTIONS, ...CONNECTION_OPTIONS } as const satisfies Options;
export const API_METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD'] as const;

/** `watch <group…> <list> [ids…]`. */
export const WATCH_OPTIONS = {
  'interval-ms': { type: 'string' },
  'forward-to': { type: 'string' },
  'cursor-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  ...CONNECTION_OPTIONS,
} as const satisfies Options;

/** `completion bash|zsh|fish`. */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
