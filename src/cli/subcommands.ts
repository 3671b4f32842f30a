/**
 * The commands that are not a request of the endpoint table: each is registered here with its
 * flags, so the dispatcher, `--help` and the completion scripts know them without loading it,
 * and its loader is in `subcommand-modules.ts`, so its code is read only when it runs. Every
 * other first word is a request's namespace (`members`, `cad`, …), served by `request.ts`.
 * @module
 */
import type { Operation } from '../operations/index';
import { API_METHODS, API_OPTIONS, COMPLETION_SHELLS, WATCH_OPTIONS } from './subcommand-flags';
import type { Cli } from './context';
import type { Options } from './flags';
import { MCP_OPTIONS } from './mcp-options';

/** What a subcommand's module exports. */
export interface SubcommandModule {
  /**
   * Runs the subcommand on `args` (the command line after its name). Resolves when it is done
   * (exit 0); throws a `UsageError` for bad usage (exit 2) or the failure that ended it (exit 1).
   * `--help` is its own to answer.
   */
  run(args: readonly string[], cli: Cli): Promise<void>;
}

/** A subcommand, as the dispatcher, `--help` and the completion scripts see it. */
export interface Subcommand {
  /** Its word: `community-server <name> …`. */
  readonly name: string;
  /** Its arguments and flags, after the name, as `--help` shows them. */
  readonly synopsis: string;
  /** One line on what it does. */
  readonly summary: string;
  /** Its flags, as `parseArgs` takes them. */
  readonly options: Options;
  /** The words its first argument may be, for completion (`bash`, `zsh`, `fish`). */
  readonly choices?: readonly string[];
  /** Which requests' words it takes after its name (`watch`: the lists'), for completion and help. */
  readonly requests?: (operation: Operation) => boolean;
}

/** The registry, as written: each word known to the type system (`SubcommandName`). */
const REGISTERED = [
  {
    name: 'api',
    synopsis: '<METHOD> <path>',
    summary: 'Send one request as written (e.g. api GET /api/v1/server/info) and print its answer.',
    options: API_OPTIONS,
    choices: API_METHODS,
  },
  {
    name: 'watch',
    synopsis: '<group…> <list> [ids…] [--interval-ms N] [--forward-to URL] [--cursor-file PATH]',
    summary: 'Print each item that enters a list as a JSON line; --forward-to POSTs each one, signed.',
    options: WATCH_OPTIONS,
    requests: (operation) => operation.paged,
  },
  {
    name: 'mcp',
    synopsis: '[--toolsets a,b | --toolsets all] [--dynamic] [--allow-writes] [--http [--port N]]',
    summary: 'Serve the API to an assistant as an MCP server (stdio, or Streamable HTTP on 127.0.0.1).',
    options: MCP_OPTIONS,
  },
  {
    name: 'completion',
    synopsis: 'bash|zsh|fish',
    summary: "Print the shell's completion script (e.g. source <(community-server completion bash)).",
    options: { help: { type: 'boolean', short: 'h' } },
    choices: COMPLETION_SHELLS,
  },
] as const satisfies readonly Subcommand[];

/** A registered subcommand's word. */
export type SubcommandName = (typeof REGISTERED)[number]['name'];

/** Every subcommand, in the order `--help` lists them. */
export const SUBCOMMANDS: readonly (Subcommand & { readonly name: SubcommandName })[] = REGISTERED;
