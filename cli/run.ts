/**
 * The dispatcher: what `community-server …` does with its arguments. `--token` is refused
 * wherever it is; the first word picks a registered subcommand (`subcommands.ts`) or else a
 * request of the endpoint table (`request.ts`); what goes wrong is reported on stderr, and the
 * exit status returned.
 * @module
 */
import { refuseTokenArgument } from './connection';
import type { Cli } from './context';
import { errorLine, errorReport, exitCodeOf, EXIT, UsageError } from './failure';
import { wordsOf, type Options } from './flags';
import { topHelp } from './help';
import { ALL_REQUEST_OPTIONS, runRequest } from './request';
import { SUBCOMMANDS } from './subcommands';
import { visible } from './terminal';

/** Every flag any command takes: what finding the first word needs (a flag's value is not a word). */
const allOptions = (): Options =>
  Object.assign({}, ALL_REQUEST_OPTIONS(), ...SUBCOMMANDS.map((subcommand) => subcommand.options)) as Options;

/** Runs the command line `argv` (without node and the script); resolves with the exit status. */
export async function runCli(argv: readonly string[], cli: Cli): Promise<number> {
  try {
    refuseTokenArgument(argv);
    const [first] = wordsOf(argv, allOptions());
    const subcommand = first && SUBCOMMANDS.find(({ name }) => name === first.value);
    if (subcommand) {
      const command = await subcommand.load();
      await command.run([...argv.slice(0, first.index), ...argv.slice(first.index + 1)], cli);
    } else if (!first && argv.some((arg) => arg === '--help' || arg === '-h')) {
      await cli.out.write(topHelp());
    } else await runRequest(argv, cli);
    return EXIT.ok;
  } catch (error) {
    await report(error, argv, cli);
    return exitCodeOf(error);
  }
}

/** The failure on stderr: one line (a usage error with where to read more), or one JSON object with `--output json|jsonl`. */
async function report(error: unknown, argv: readonly string[], cli: Cli): Promise<void> {
  const details = errorReport(error);
  if (wantsJsonErrors(argv)) return cli.err.line(JSON.stringify({ error: details }));
  if (error instanceof UsageError) {
    await cli.err.line(`community-server: ${visible(error.message)}`);
    return cli.err.line(`Run 'community-server ${error.help ? `${error.help} ` : ''}--help' for usage.`);
  }
  if (cli.signal.aborted && exitCodeOf(error) === EXIT.interrupted) return cli.err.line('community-server: interrupted');
  return cli.err.line(`community-server: ${visible(errorLine(details))}`);
}

/** Whether the command line asks for JSON output (`--output json`, `--output=jsonl`). */
function wantsJsonErrors(argv: readonly string[]): boolean {
  const at = argv.indexOf('--output');
  const format = at >= 0 ? argv[at + 1] : argv.find((arg) => arg.startsWith('--output='))?.slice('--output='.length);
  return format === 'json' || format === 'jsonl';
}
