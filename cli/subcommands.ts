/**
 * The commands that are not a request of the endpoint table: each is registered here, in one
 * line, with its flags (so the dispatcher and the completion scripts know them without loading
 * it) and a loader, so its code is read only when it runs. Every other first word is a
 * request's namespace (`members`, `cad`, …), served by `request.ts`.
 * @module
 */
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
  readonly load: () => Promise<SubcommandModule>;
}

/** Every subcommand, in the order `--help` lists them. */
export const SUBCOMMANDS: readonly Subcommand[] = [
  {
    name: 'mcp',
    synopsis: '[--toolsets a,b | --toolsets all] [--dynamic] [--allow-writes] [--http [--port N]]',
    summary: 'serve the API to an assistant as an MCP server (stdio, or Streamable HTTP on 127.0.0.1)',
    options: MCP_OPTIONS,
    load: () => import('./mcp'),
  },
];
