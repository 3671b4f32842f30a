/**
 * Which tools a server offers: the options of `createMcpServer`, checked, and the toolsets they
 * name (a toolset is a top-level namespace in snake_case: `members`, `cad`, `join_requests`).
 * @module
 */
import { checkOptions, describe } from '../core/arguments';
import { InvalidArgumentError } from '../core/error-base';
import { allTools, type Tool } from './tools';

/**
 * Options of `createMcpServer`.
 * @example
 * const server = createMcpServer(client, { toolsets: ['members', 'departments'], allowWrites: false });
 */
export interface McpServerOptions {
  /**
   * The toolsets whose read tools it offers: top-level namespaces in snake_case (`members`,
   * `cad`, `join_requests`…), or `'all'` for all 62. Default: members, departments, LOAs,
   * shifts, logs, roles and the server's own information (see the README).
   */
  toolsets?: readonly string[] | 'all' | undefined;
  /**
   * Offers three tools instead, `search_endpoints`, `describe_endpoint` and `call_endpoint`, that
   * reach every read tool of the toolsets (default: all) by name: a small `tools/list` whatever
   * the API's size.
   */
  dynamic?: boolean | undefined;
  /** Also offers the API's writes, `tokens_create` and `tokens_deactivate` (default false). */
  allowWrites?: boolean | undefined;
}

/**
 * The toolsets offered by default: what people ask an assistant about their community most
 * (who is a member, of which department and rank, who is on leave or on shift, what the
 * moderators logged), within 40 tools and a `tools/list` of 24,000 characters. CAD,
 * applications and the audit logs are a `--toolsets` away.
 */
export const DEFAULT_TOOLSETS: readonly string[] = ['server', 'members', 'departments', 'loas', 'shifts', 'logs', 'roles'];

/** Every toolset, in the spec's order. */
export const toolsetNames = (): string[] => [...new Set(allTools().map((tool) => tool.operation.toolset))];

/** What a server offers. */
export interface Selection {
  /** The read tools of the toolsets. */
  readonly reads: readonly Tool[];
  /** The writes, with `allowWrites`; else none. */
  readonly writes: readonly Tool[];
  readonly dynamic: boolean;
}

function checkFlag(name: string, value: unknown): boolean {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new InvalidArgumentError(`${name} must be true or false, got ${describe(value)}`);
  }
  return value === true;
}

function toolsetsOf(toolsets: unknown, dynamic: boolean): readonly string[] {
  const known = toolsetNames();
  if (toolsets === 'all' || (toolsets === undefined && dynamic)) return known;
  if (toolsets === undefined) return DEFAULT_TOOLSETS;
  if (!Array.isArray(toolsets) || toolsets.length === 0) {
    throw new InvalidArgumentError(`toolsets must be 'all' or a non-empty array of toolset names, got ${describe(toolsets)}`);
  }
  for (const name of toolsets) {
    if (!known.includes(name as string)) {
      throw new InvalidArgumentError(`unknown toolset ${describe(name)} (known: ${known.join(', ')}, or 'all')`);
    }
  }
  return toolsets as string[];
}

/** The tools that `options` select, or an `InvalidArgumentError` naming what is wrong with them. */
export function selectTools(options: unknown): Selection {
  checkOptions(options, ['toolsets', 'dynamic', 'allowWrites'], 'MCP server');
  const dynamic = checkFlag('dynamic', options?.dynamic);
  const allowWrites = checkFlag('allowWrites', options?.allowWrites);
  const toolsets = toolsetsOf(options?.toolsets, dynamic);
  return {
    reads: allTools().filter((tool) => !tool.operation.write && toolsets.includes(tool.operation.toolset)),
    writes: allowWrites ? allTools().filter((tool) => tool.operation.write) : [],
    dynamic,
  };
}

/** Why the tool `name` is not offered by this server: the message a call of it gets. */
export function notOffered(name: unknown): string {
  const tool = allTools().find((candidate) => candidate.name === name);
  if (tool === undefined) return `no tool named ${describe(name)}`;
  if (tool.operation.write) return `${tool.name} changes the server: it is offered only with allowWrites (the command's --allow-writes)`;
  const { toolset } = tool.operation;
  return `${tool.name} is in toolset ${toolset}, which this server does not offer (toolsets: ['${toolset}'], the command's --toolsets ${toolset})`;
}
