/**
 * `community-server-sdk/mcp`: the API as an MCP server, for assistants (Claude, Cursor, VS Code…).
 * `createMcpServer(client, options?)` gives an `McpServer` of `@modelcontextprotocol/sdk` (an
 * optional peer dependency, ^1.32: install it) with one tool per read request, derived from the
 * endpoint table: names, argument and result schemas, one-line descriptions. Results are
 * `structuredContent` with the same JSON as text, trimmed (a page of 10 items unless asked, at
 * most 100; a huge string cut, saying so); a failure is `isError` naming the error. `community-server mcp`
 * serves it over stdio or Streamable HTTP; `startMcpHttpServer` does the latter in your process.
 * Node ≥ 20.
 * @example
 * import { CommunityServerClient } from 'community-server-sdk';
 * import { createMcpServer } from 'community-server-sdk/mcp';
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 *
 * const client = new CommunityServerClient(); // token and base URL from the environment
 * await createMcpServer(client).connect(new StdioServerTransport());
 * @module community-server-sdk/mcp
 */
export { createMcpServer } from './mcp/server';
export { startMcpHttpServer, type McpHttpServer, type McpHttpServerOptions } from './mcp/http';
export { DEFAULT_TOOLSETS, type McpServerOptions } from './mcp/toolsets';
