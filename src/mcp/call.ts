/**
 * A tool call, from arguments to result: the arguments checked against the tool's input schema
 * (a refusal names them as the tool does), the client method called by its dotted name, the
 * answer trimmed and held to the tool's output schema, and the {@link Memory} of the client
 * consulted and kept. Every failure is a result with `isError`, never a throw: the model reads it
 * and can correct its call.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import type { CommunityServerClient } from '../client';
import { memoryOf } from './memory';
import { failed, failureOf, issuesText, refusedArguments, success, type ToolFailure } from './results';
import type { Tool } from './tools';
import { trim } from './trim';

type Method = (...args: unknown[]) => Promise<unknown>;

/** The client's method of dotted name `name`: `cad.unitGroups.get` is `client.cad.unitGroups.get`. */
function methodOf(client: CommunityServerClient, name: string): Method {
  const path = name.split('.');
  const own = path.pop()!;
  return path.reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, client as never)[own] as Method;
}

/** A 401 seen before, answered again without a request. */
const stillRefused = (refused: ToolFailure): ToolFailure => ({
  ...refused,
  message: `${refused.message} (answered earlier: no request is sent with a token the service refused, since one that keeps failing can be suspended; fix the token and restart the MCP server)`,
});

/** Calls `tool` with the arguments a client sent. `signal` is the MCP request's: a cancelled call stops its request. */
export async function callTool(client: CommunityServerClient, tool: Tool, args: unknown, signal?: AbortSignal): Promise<CallToolResult> {
  const parsed = z.safeParse(tool.input, args ?? {});
  if (!parsed.success) return refusedArguments(tool.name, parsed.error, tool.argumentNames);
  const { operation } = tool;
  const memory = memoryOf(client);
  if (operation.endpoint.auth && memory.refused) return failed(stillRefused(memory.refused));

  const callArguments = tool.callArguments(parsed.data);
  const key = `${tool.name} ${JSON.stringify(callArguments)}`;
  // A write is never repeated from memory; a health probe reports the state now.
  const reusable = !operation.write && !operation.endpoint.probe;
  const remembered = reusable ? memory.recall(key) : undefined;
  if (remembered) return remembered;

  let answer: unknown;
  try {
    answer = await methodOf(client, operation.name)(...callArguments, { signal });
  } catch (error) {
    const failure = failureOf(error);
    if (failure.status === 401 && operation.endpoint.auth) memory.refused = failure;
    return failed(failure);
  }
  if (operation.write) {
    // What the write changed is read afresh: by this server, and by the client's own cache.
    memory.forget(`${operation.toolset}_`);
    // A cache store that fails to drop its entries leaves them to expire: the write itself succeeded.
    await client.cache.invalidate(operation.name.split('.')[0]).catch(() => undefined);
  }
  const { value, cuts } = trim(tool.structure(answer));
  // The client holds answers to their schemas unless its `validation` says otherwise; a tool
  // promises its output schema whatever the client's.
  const checked = z.safeParse(tool.output, value);
  if (!checked.success) {
    return failed({
      name: 'ResponseValidationError',
      status: null,
      code: null,
      message: `${tool.name}: the service's answer does not match the output schema: ${issuesText(checked.error)}`,
    });
  }
  const result = success(value as Record<string, unknown>, cuts);
  if (reusable) memory.remember(key, result);
  return result;
}
