/**
 * `community-server completion bash|zsh|fish`: prints the shell's completion script, which
 * completes every command of the endpoint table, the subcommands, flags, and the values of
 * `--output` and `--sort`. The script holds what it completes: it never runs the command.
 * @module
 */
import type { Cli } from '../context';
import { UsageError } from '../failure';
import { parse } from '../flags';
import { COMPLETION_SHELLS } from '../subcommand-flags';
import { completionModel } from './model';
import { bashScript, fishScript, zshScript } from './scripts';

const HELP = `Usage: community-server completion bash|zsh|fish

Prints the shell's completion script for community-server. Load it:
  bash  in ~/.bashrc:  source <(community-server completion bash)
  zsh   in ~/.zshrc, after compinit:  source <(community-server completion zsh)
  fish  community-server completion fish > ~/.config/fish/completions/community-server.fish
`;

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript };

export async function run(args: readonly string[], cli: Cli): Promise<void> {
  const { values, positionals } = parse(args, { help: { type: 'boolean', short: 'h' } }, 'completion');
  if (values.help) return cli.out.write(HELP);
  const [shell, ...extra] = positionals;
  if (!(COMPLETION_SHELLS as readonly unknown[]).includes(shell) || extra.length) {
    throw new UsageError(`completion takes one shell: ${COMPLETION_SHELLS.join(', ')}`, 'completion');
  }
  await cli.out.write(SCRIPTS[shell as (typeof COMPLETION_SHELLS)[number]](completionModel()));
}
