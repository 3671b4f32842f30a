/**
 * `--help` at every level, generated from the command tree and the registered subcommands: the
 * top (every group and subcommand), a group (its commands with their arguments and summaries),
 * and a command (its arguments, flags and request).
 * @module
 */
import type { Operation } from '../src/operations/index';
import { bodyFlags } from './body';
import { commandTree, isGroup, operationsUnder, type Group } from './tree';
import { SUBCOMMANDS } from './subcommands';

/** `<member-id>` for each path id of `operation`. */
export const idsSynopsis = (operation: Operation) => operation.params.map(({ kebab }) => `<${kebab}>`).join(' ');

const columns = (rows: readonly (readonly [string, string])[]) => {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd()).join('\n');
};

const CONNECTION_HELP = columns([
  ['--base-url URL', 'where the API is (or env COMMUNITY_SERVER_BASE_URL)'],
  ['--token-file PATH', 'read the token from a file (or env COMMUNITY_SERVER_TOKEN)'],
  ['--token-stdin', 'read the token from stdin; never pass it as an argument'],
  ['--mock [--seed N]', 'answer from a seeded mock in this process: no server, no token'],
]);

const OUTPUT_HELP = columns([
  ['--output FORMAT', 'table, json, jsonl or csv (default: table on a terminal, json otherwise)'],
  ['--fields a,b', "only these fields of each item (dotted for nested ones: 'rank.name')"],
  ['-h, --help', 'this help'],
]);

const LIST_HELP = columns([
  ['--page N', 'the page to get, from 1'],
  ['--page-size N', 'items per page, 1 to 100 (the service defaults to 10)'],
  ['--limit N', 'the same as --page-size (which wins when both are given)'],
  ['--order-by FIELD', 'the field to order by'],
  ['--sort asc|desc', 'the order'],
  ['--all', 'every page, streamed as it arrives (100 per page unless --page-size says otherwise)'],
]);

const EXIT_HELP = 'Exit status: 0 success; 1 an error from the service or the network; 2 bad usage (nothing was sent); 130 interrupted.';

/** The top-level help. */
export function topHelp(): string {
  const tree = commandTree();
  const groups = [...tree.children.entries()].map(([word, node]) => {
    const children = isGroup(node) ? [...node.children.entries()] : [];
    return [word, children.map(([child, next]) => (isGroup(next) ? `${child}…` : child)).join(' · ')] as const;
  });
  const synopses = SUBCOMMANDS.map(({ name, synopsis }) => `\n       community-server ${name} ${synopsis}`).join('');
  return `Usage: community-server <group…> <command> [ids…] [flags]${synopses}

The Community Server Data API from a shell: every request of the API is a command.

Requests ('community-server <group> --help' lists a group's commands and their arguments):
${columns(groups)}
${SUBCOMMANDS.length ? `\nOther commands:\n${columns(SUBCOMMANDS.map(({ name, summary }) => [name, summary]))}\n` : ''}
Output:
${OUTPUT_HELP}

Connection:
${CONNECTION_HELP}

${EXIT_HELP}
`;
}

/** The help of a group: its commands, with their arguments. */
export function groupHelp(group: Group): string {
  const prefix = group.words.join(' ');
  const rows = operationsUnder(group).map(
    (operation) => [[...operation.words.slice(group.words.length), idsSynopsis(operation)].join(' ').trim(), operation.summary] as const,
  );
  return `Usage: community-server ${prefix} <command> [ids…] [flags]

Commands:
${columns(rows)}

Run 'community-server ${prefix} <command> --help' for a command's flags.
`;
}

/** The help of one request's command. */
export function operationHelp(operation: Operation): string {
  const body = bodyFlags(operation.endpoint);
  const bodyRows = body.map(
    ({ flag, type, required }) => [`--${flag} ${type === 'string' ? 'TEXT' : 'N'}`, required ? 'required' : 'optional'] as const,
  );
  const ids = operation.params.map(({ kebab, kind }) => [`<${kebab}>`, kind === 'int32' ? 'a whole number' : 'text'] as const);
  return `Usage: community-server ${operation.words.join(' ')} ${[idsSynopsis(operation), '[flags]'].filter(Boolean).join(' ')}

${operation.summary}
${ids.length ? `\nArguments:\n${columns(ids)}\n` : ''}${bodyRows.length ? `\nBody:\n${columns(bodyRows)}\n` : ''}${operation.paged ? `\nList:\n${LIST_HELP}\n` : ''}
Output:
${OUTPUT_HELP}

Connection:
${CONNECTION_HELP}

Request: ${operation.endpoint.method} ${operation.endpoint.path}${operation.endpoint.auth ? '' : ' (no token needed)'}
${EXIT_HELP}
`;
}
