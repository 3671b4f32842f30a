/**
 * What a server offers: each tool's definition (its `tools/list` entry) and what a call of it
 * does. The API's tools are served as they are; the dynamic mode's three tools of their own
 * (`dynamic.ts`) are built here from their schemas.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import type { CommunityServerClient } from '../client';
import { callTool } from './call';
import { jsonSchemaOf } from './json-schema';
import { refusedArguments } from './results';
import type { ToolDefinition } from './tools';
import type { Selection } from './toolsets';

/** A tool a server offers. */
export interface ServedTool {
  readonly definition: ToolDefinition;
  /** Answers a call with the arguments a client sent; `signal` is the MCP request's. */
  run(args: unknown, signal?: AbortSignal): Promise<CallToolResult>;
}

/** The API's tools of `selection`, each calling its request. */
export function apiTools(client: CommunityServerClient, selection: Selection): ServedTool[] {
  return [...selection.reads, ...selection.writes].map((tool) => ({
    definition: tool.definition,
    run: (args, signal) => callTool(client, tool, args, signal),
  }));
}

/** A tool of the server's own: its arguments checked against `input`, then handed to `run`. */
export function ownTool<Shape extends z.core.$ZodShape>(
  definition: { name: string; description: string; readOnly: boolean },
  input: z.ZodMiniObject<Shape, z.core.$strict>,
  output: z.ZodMiniType,
  run: (values: z.infer<z.ZodMiniObject<Shape, z.core.$strict>>, signal?: AbortSignal) => Promise<CallToolResult>,
): ServedTool {
  const { name, description, readOnly } = definition;
  return {
    definition: {
      name,
      description,
      inputSchema: jsonSchemaOf(input, 'input'),
      outputSchema: jsonSchemaOf(output, 'output'),
      annotations: { readOnlyHint: readOnly },
    },
    async run(args, signal) {
      const parsed = z.safeParse(input, args ?? {});
      return parsed.success ? run(parsed.data, signal) : refusedArguments(name, parsed.error, Object.keys(input.shape));
    },
  };
}
