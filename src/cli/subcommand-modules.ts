/**
 * Where each registered subcommand's code is (`subcommands.ts` names them): a loader per word,
 * so a command's code is read only when it runs, in a chunk of its own in the bin's build. Kept
 * apart from the registry because the commands read the registry (`--help`, completion): a
 * registry that loaded them would import its own readers.
 * @module
 */
import type { SubcommandModule, SubcommandName } from './subcommands';

/** Every subcommand's loader; the type asks for one per registered word. */
export const SUBCOMMAND_MODULES: Readonly<Record<SubcommandName, () => Promise<SubcommandModule>>> = {
  api: () => import('./api'),
  watch: () => import('./watch/command'),
  mcp: () => import('./mcp'),
  completion: () => import('./completion/command'),
};
