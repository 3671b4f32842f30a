/**
 * The dynamic mode's three tools, which reach every tool of a selection by name while
 * `tools/list` stays three entries long: `search_endpoints` finds tools by the words of their
 * names and descriptions, `describe_endpoint` gives one's schemas, `call_endpoint` calls one.
 * @module
 */
import * as z from 'zod/mini';
import type { CommunityServerClient } from '../client';
import { callTool } from './call';
import { failed, success } from './results';
import { ownTool, type ServedTool } from './served';
import type { Tool } from './tools';
import { notOffered, type Selection } from './toolsets';

/** Tools `search_endpoints` answers at most. */
export const MAX_SEARCH_RESULTS = 10;

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** The tools of `tools` that share most words with `query` (a word of the query may be part of one of theirs), best first. */
function search(tools: readonly Tool[], query: string): Tool[] {
  const wanted = wordsOf(query);
  return tools
    .map((tool, order) => {
      const own = wordsOf(`${tool.name} ${tool.definition.description}`);
      return { tool, order, score: wanted.filter((word) => own.some((candidate) => candidate.includes(word))).length };
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, MAX_SEARCH_RESULTS)
    .map(({ tool }) => tool);
}

const endpointName = z.string().check(z.minLength(1), z.maxLength(100));
const jsonObject = z.record(z.string(), z.unknown());

/** The three tools over `selection`'s tools. */
export function dynamicTools(client: CommunityServerClient, selection: Selection): ServedTool[] {
  const reachable = [...selection.reads, ...selection.writes];
  const find = (name: string) => reachable.find((tool) => tool.name === name);
  const unknown = (name: string) =>
    failed({
      name: 'InvalidArgumentError',
      status: null,
      code: null,
      message: `${notOffered(name)}; search_endpoints finds tools by words`,
    });
  return [
    ownTool(
      {
        name: 'search_endpoints',
        description: `Finds API endpoints by words (e.g. "department leave"): up to ${MAX_SEARCH_RESULTS} names, each with what it answers.`,
        readOnly: true,
      },
      z.strictObject({ query: z.string().check(z.minLength(1), z.maxLength(200)) }),
      z.object({ endpoints: z.array(z.object({ name: z.string(), description: z.string() })) }),
      async ({ query }) =>
        success({
          endpoints: search(reachable, query).map(({ definition }) => ({ name: definition.name, description: definition.description })),
        }),
    ),
    ownTool(
      {
        name: 'describe_endpoint',
        description: 'The arguments (inputSchema) and result (outputSchema) of an endpoint, by name.',
        readOnly: true,
      },
      z.strictObject({ name: endpointName }),
      z.object({ name: z.string(), description: z.string(), inputSchema: jsonObject, outputSchema: jsonObject }),
      async ({ name }) => {
        const tool = find(name);
        if (tool === undefined) return unknown(name);
        const { description, inputSchema, outputSchema } = tool.definition;
        return success({ name, description, inputSchema, outputSchema });
      },
    ),
    ownTool(
      {
        name: 'call_endpoint',
        description: 'Calls an endpoint by name with its arguments; answers its JSON result.',
        readOnly: selection.writes.length === 0,
      },
      z.strictObject({ name: endpointName, arguments: z.optional(jsonObject) }),
      jsonObject,
      async ({ name, arguments: args }, signal) => {
        const tool = find(name);
        return tool === undefined ? unknown(name) : callTool(client, tool, args, signal);
      },
    ),
  ];
}
