/**
 * The requests of the endpoint table as commands: `community-server <group…> <command> [ids…]`
 * resolved in the command tree, its ids, list parameters and body read from the command line
 * and checked (a usage error sends nothing), then the client's own method called by its dotted
 * name (`client.cad.unitGroups.get(…)`), and the answer printed. No code here is any one
 * endpoint's.
 * @module
 */
import type { CommunityServerClient } from '../src/client';
import { InvalidArgumentError } from '../src/core/error-base';
import type { ListParams } from '../src/core/types';
import type { Operation } from '../src/operations/index';
import { operations } from '../src/operations/index';
import { bodyFlags, bodyOf, bodyOptions } from './body';
import { connect, CONNECTION_OPTIONS } from './connection';
import type { Cli } from './context';
import { UsageError } from './failure';
import { choiceFlag, integerFlag, LIST_OPTIONS, OUTPUT_OPTIONS, parse, wordsOf, type Options, type Values } from './flags';
import { groupHelp, operationHelp, topHelp } from './help';
import { isGroup, resolveWords, type Group } from './tree';

/** The largest page the API serves. */
const MAX_PAGE_SIZE = 100;
const INT32_MAX = 2 ** 31 - 1;

/** The flags of `operation`'s command. */
export const operationOptions = (operation: Operation): Options => ({
  ...OUTPUT_OPTIONS,
  ...CONNECTION_OPTIONS,
  ...(operation.paged ? LIST_OPTIONS : {}),
  ...bodyOptions(bodyFlags(operation.endpoint)),
});

/** Every flag any request's command takes. */
export const ALL_REQUEST_OPTIONS = (): Options => Object.assign({}, ...operations().map(operationOptions), LIST_OPTIONS) as Options;

/** Whether `argv` asks for help (before any `--`). */
export const asksHelp = (argv: readonly string[]) => {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
};

/** Runs the request `argv` names. */
export async function runRequest(argv: readonly string[], cli: Cli): Promise<void> {
  const words = wordsOf(argv, ALL_REQUEST_OPTIONS()).map(({ value }) => value);
  const { node, used } = resolveWords(words);
  if (isGroup(node)) return runGroup(node, words, used, argv, cli);
  const help = node.words.join(' ');
  const { values, positionals } = parse(argv, operationOptions(node), help);
  if (values.help) return cli.out.write(operationHelp(node));
  const ids = idArguments(node, positionals.slice(used), help);
  const tail = node.paged ? [listParams(values)] : node.endpoint.body ? [bodyOf(bodyFlags(node.endpoint), values, help)] : [];
  const connection = await connect(values, cli, { needsToken: node.endpoint.auth });
  try {
    const result = await methodOf(connection.client, node)(...ids, ...tail, { signal: cli.signal }).catch(refusedAsUsage(help));
    await cli.out.line(typeof result === 'string' ? JSON.stringify(result) : JSON.stringify(result, null, 2));
  } finally {
    connection.close();
  }
}

/** Words that stop at a group: its help, or what is wrong with them. */
async function runGroup(group: Group, words: readonly string[], used: number, argv: readonly string[], cli: Cli): Promise<void> {
  const where = group.words.join(' ');
  if (used < words.length) {
    const choices = [...group.children.keys()].join(', ');
    throw new UsageError(`unknown command '${[...group.words, words[used]].join(' ')}'; ${where || 'the groups'}: ${choices}`, where);
  }
  if (group.words.length === 0) return cli.out.write(topHelp()); // no words at all
  if (asksHelp(argv)) return cli.out.write(groupHelp(group));
  throw new UsageError(`'${where}' needs a command: ${[...group.children.keys()].join(', ')}`, where);
}

/** The path ids from the positionals after the command's words, checked and converted (an int32 id is a number). */
function idArguments(operation: Operation, given: readonly string[], help: string): (string | number)[] {
  const { params } = operation;
  if (given.length !== params.length) {
    const wanted = params.length ? params.map(({ kebab }) => `<${kebab}>`).join(' ') : 'no arguments';
    throw new UsageError(`${help} takes ${wanted}, got ${given.length === 0 ? 'none' : given.length}`, help);
  }
  return params.map(({ kebab, kind }, index) => {
    const raw = given[index]!;
    if (raw.trim() === '') throw new UsageError(`<${kebab}> must not be empty`, help);
    if (kind === 'string') return raw;
    const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(Math.abs(value) <= INT32_MAX)) throw new UsageError(`<${kebab}> must be a whole number, got "${raw}"`, help);
    return value;
  });
}

/** A list's query parameters from its flags. */
function listParams(values: Values): ListParams {
  const params: ListParams = {};
  const page = integerFlag(values, 'page', 1);
  const pageSize = integerFlag(values, 'page-size', 1, MAX_PAGE_SIZE);
  const limit = integerFlag(values, 'limit', 1, MAX_PAGE_SIZE);
  const sort = choiceFlag(values, 'sort', ['asc', 'desc'] as const);
  if (page !== undefined) params.page = page;
  if (pageSize !== undefined) params.pageSize = pageSize;
  if (limit !== undefined) params.limit = limit;
  if (typeof values['order-by'] === 'string') params.orderBy = values['order-by'];
  if (sort !== undefined) params.sort = sort;
  return params;
}

/**
 * What the client refused before sending (a body its schema rejects, an id it cannot put in a
 * path) is bad usage of the command `help` names, like what this module refuses itself.
 */
export const refusedAsUsage =
  (help: string) =>
  (error: unknown): never => {
    throw error instanceof InvalidArgumentError ? new UsageError(error.message, help) : error;
  };

type Method = (...args: unknown[]) => Promise<unknown>;

/** The client's method for `operation`, reached by its dotted name (`cad.unitGroups.get`). */
const methodOf = (client: CommunityServerClient, operation: Operation): Method =>
  operation.name.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], client) as Method;
