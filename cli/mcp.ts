/**
 * `community-server mcp`: the API as an MCP server for an assistant (`createMcpServer` of
 * `community-server-sdk/mcp`), over stdio (what Claude Desktop, Claude Code, Cursor and VS Code
 * start) or, with `--http`, over Streamable HTTP on 127.0.0.1. Over stdio, stdout carries the
 * protocol and nothing else: the client's log lines and this command's own go to stderr.
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import { startMcpHttpServer } from '../src/mcp/http';
import { createMcpServer } from '../src/mcp/server';
import { selectTools, type McpServerOptions } from '../src/mcp/toolsets';
import { connect } from './connection';
import type { Cli } from './context';
import { UsageError } from './failure';
import { integerFlag, parse, type Values } from './flags';
import { DEFAULT_MCP_PORT, MCP_OPTIONS } from './mcp-options';
import { StdioTransport } from './mcp-stdio';
import { visible } from './terminal';

const HELP = `Usage: community-server mcp [--toolsets a,b | --toolsets all] [--dynamic] [--allow-writes] [--http [--port N]]
                            [--base-url URL] [--token-file PATH | --token-stdin] [--mock [--seed N]]

Serves the API to an assistant as an MCP server: one tool per read request, results as JSON.
Over stdio (the default) for a client that starts it; with --http, over Streamable HTTP on
127.0.0.1 for clients that connect to a URL.

  --toolsets a,b      the toolsets (top-level namespaces: members, departments, cad, …) whose tools
                      it offers, or 'all' (62 tools); default: server, members, departments, loas,
                      shifts, logs, roles
  --dynamic           offer three tools instead (search_endpoints, describe_endpoint, call_endpoint)
                      that reach every tool by name
  --allow-writes      also offer tokens_create and tokens_deactivate
  --http              serve over Streamable HTTP on 127.0.0.1; it prints its URL and the key
                      requests must send as 'Authorization: Bearer <key>' (or set the key in env
                      COMMUNITY_SERVER_MCP_KEY)
  --port N            the port for --http (default ${DEFAULT_MCP_PORT}; 0: any free one)
  --mock [--seed N]   serve a seeded mock in this process: no server, no token
  -h, --help          this help

The token comes from env COMMUNITY_SERVER_TOKEN, --token-file or --token-stdin; the base URL from
--base-url or env COMMUNITY_SERVER_BASE_URL.
`;

/** The server's options from the flags, checked before anything connects, and how many tools they offer. */
function serverOptions(values: Values): { options: McpServerOptions; tools: number } {
  const toolsets = values.toolsets as string | undefined;
  const options: McpServerOptions = {
    toolsets: toolsets === undefined || toolsets === 'all' ? toolsets : toolsets.split(',').map((name) => name.trim()),
    dynamic: values.dynamic === true,
    allowWrites: values['allow-writes'] === true,
  };
  try {
    const { reads, writes, dynamic } = selectTools(options);
    return { options, tools: dynamic ? 3 : reads.length + writes.length };
  } catch (error) {
    // Only --toolsets can be wrong here (the other flags are booleans): exit 2, nothing sent.
    throw new UsageError(`--toolsets: ${(error as Error).message}`, 'mcp');
  }
}

/** Resolves on Ctrl-C. */
const interrupted = (cli: Cli) => new Promise<void>((resolve) => cli.signal.addEventListener('abort', () => resolve(), { once: true }));

/** Resolves once the client has gone (stdin ended) and had its answers, or on Ctrl-C. */
function untilDone(cli: Cli, transport: StdioTransport): Promise<void> {
  const ended = new Promise<void>((resolve) => {
    cli.io.stdin.once('end', resolve);
    cli.io.stdin.once('close', resolve);
  });
  return Promise.race([ended.then(() => transport.answered()), interrupted(cli)]);
}

export async function run(args: readonly string[], cli: Cli): Promise<void> {
  const { values, positionals } = parse(args, MCP_OPTIONS, 'mcp');
  if (values.help) return cli.out.write(HELP);
  if (positionals.length > 0) throw new UsageError(`mcp takes no arguments, got "${positionals[0]}"`, 'mcp');
  if (values.port !== undefined && !values.http) throw new UsageError('--port goes with --http', 'mcp');
  const { options, tools } = serverOptions(values);
  const port = integerFlag(values, 'port', 0, 65_535) ?? DEFAULT_MCP_PORT;
  const connection = await connect(values, cli, { needsToken: true });
  try {
    if (values.http) {
      const key = cli.io.env.COMMUNITY_SERVER_MCP_KEY || undefined;
      const http = await startMcpHttpServer(connection.client, { ...options, port, key });
      await cli.out.line(`MCP server (Streamable HTTP, ${tools} tools) on ${http.url}`);
      await cli.out.line(key ? 'key: from COMMUNITY_SERVER_MCP_KEY' : `key: ${http.key}`);
      await cli.out.line('Requests need the header  Authorization: Bearer <key>. Ctrl-C stops it.');
      await interrupted(cli);
      await http.close();
      return;
    }
    // Whatever a dependency prints with console.log would corrupt the protocol: to stderr with it.
    console.log = console.info = console.debug = console.error;
    const server = createMcpServer(connection.client, options);
    // A line that is not JSON-RPC is skipped by the SDK: say so where the client's logs keep it.
    server.server.onerror = (error) => void cli.err.line(`community-server: ${visible(error.message.split('\n')[0]!)}`);
    const transport = new StdioTransport(cli.io.stdin as Readable, cli.io.stdout as Writable);
    await server.connect(transport);
    await cli.err.line(`community-server: MCP server on stdio (${tools} tools), waiting for its client`);
    await untilDone(cli, transport);
    await server.close();
  } finally {
    connection.close();
  }
}
