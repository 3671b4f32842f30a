/**
 * What the MCP server costs an assistant's context: the characters of its `tools/list` answer
 * (the JSON a client puts before the model on every turn) for the default set (goal ≤ 24,000,
 * shared/API.md), `--toolsets all` and `--dynamic`, as the built bin serves them over stdio
 * to the SDK's own client. And, for context, how long the bin takes from its start to the answer
 * of `initialize`. Neither asks the API anything: the bin runs with a token and a base URL where
 * nothing listens, as an assistant starts it.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { format, smoke, spread, type Comparison } from './harness';

const bin = fileURLToPath(new URL('../dist/community-server.js', import.meta.url));

/** The bin's `tools/list` answer with `args`, in characters of JSON, its tool count, and the milliseconds to `initialize`. */
async function listOf(args: readonly string[]): Promise<{ characters: number; tools: number; startMs: number }> {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', ...args],
    env: {
      PATH: process.env.PATH ?? '',
      COMMUNITY_SERVER_BASE_URL: 'http://127.0.0.1:9',
      COMMUNITY_SERVER_TOKEN: 'cs_bench_0123456789abcdef',
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const startMs = performance.now() - started;
  const list = await client.listTools();
  await client.close();
  return { characters: JSON.stringify(list).length, tools: list.tools.length, startMs };
}

const BUDGET = 24_000;
const figure = ({ characters, tools }: { characters: number; tools: number }) =>
  `${characters.toLocaleString('en-US')} characters, ${tools} tools`;

export async function mcpToolsList(): Promise<Comparison[]> {
  const defaults = await listOf([]);
  const all = await listOf(['--toolsets', 'all']);
  const dynamic = await listOf(['--dynamic']);
  const starts = [defaults.startMs, all.startMs, dynamic.startMs];
  for (let round = 0; round < (smoke ? 0 : 7); round++) starts.push((await listOf([])).startMs);
  return [
    {
      name: '`community-server mcp`: `tools/list` of the default set (server, members, departments, loas, shifts, logs, roles), JSON',
      value: figure(defaults),
      baseline: '—',
      ratio: null,
      goal: `≤ ${BUDGET.toLocaleString('en-US')} characters, ≤ 40 tools`,
      met: defaults.characters <= BUDGET && defaults.tools <= 40,
    },
    { name: '↳ context: `--toolsets all`', value: figure(all), baseline: '—', ratio: null, goal: null, met: null },
    { name: '↳ context: `--dynamic`', value: figure(dynamic), baseline: '—', ratio: null, goal: null, met: null },
    {
      name: '↳ context: `community-server mcp`, from its start to the answer of `initialize`',
      value: format(spread(starts), 'ms'),
      baseline: '—',
      ratio: null,
      goal: null,
      met: null,
    },
  ];
}
