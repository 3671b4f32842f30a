/**
 * What the MCP suites share: an SDK `Client` connected to `createMcpServer` in memory, a tool's
 * arguments from a method's positional arguments, and ajv checks of results against schemas.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Ajv2020 from 'ajv/dist/2020';
import type { CommunityServerClient } from 'community-server-sdk';
import { createMcpServer, type McpServerOptions } from 'community-server-sdk/mcp';
import { operations } from '../../src/operations/index';

/** An SDK client connected in memory to a new server over `client`. */
export async function connected(client: CommunityServerClient, options?: McpServerOptions): Promise<Client> {
  const server = createMcpServer(client, options);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: 'community-server-tests', version: '1.0.0' });
  await mcp.connect(clientSide);
  return mcp;
}

/** The tool of the method `name` (`cad.unitGroups.get`). */
export const toolOf = (name: string) => operations().find((operation) => operation.name === name)!;

/** A tool's arguments from the method's positional arguments (path ids, then list params or a body). */
export function toolArguments(name: string, positional: readonly unknown[]): Record<string, unknown> {
  const operation = toolOf(name);
  return Object.fromEntries(operation.params.map((param, index) => [param.snake, positional[index]]));
}

/** A call's result, as the SDK's client types it (never a task's). */
export const call = async (mcp: Client, name: string, args: Record<string, unknown> = {}) =>
  (await mcp.callTool({ name, arguments: args })) as CallToolResult;

/** A failed call's `{ name, status, code, message }`. */
export function failureOf(result: CallToolResult): { name: string; status: number | null; code: string | null; message: string } {
  if (result.isError !== true) throw new Error(`expected a failure, got ${JSON.stringify(result).slice(0, 300)}`);
  const [content] = result.content;
  return (JSON.parse((content as { text: string }).text) as { error: ReturnType<typeof failureOf> }).error;
}

/** ajv in strict mode, MCP's default dialect (2020-12): a schema with a keyword it does not know fails to compile. */
const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });

/** ajv's errors of `value` against `schema`, or `null` when it matches. */
export function schemaErrors(schema: object, value: unknown): unknown {
  const validate = ajv.compile(schema);
  return validate(value) ? null : validate.errors;
}

/** Characters of a `tools/list` answer's JSON: what a client puts into the model's context. */
export const listSize = async (mcp: Client) => JSON.stringify(await mcp.listTools()).length;
