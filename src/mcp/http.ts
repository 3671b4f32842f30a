/**
 * The MCP server over Streamable HTTP, for a client on this machine only. The server reads the
 * API with the token of the process; anything that reaches it can read what the token reads, so:
 * - it listens on 127.0.0.1 alone (never another interface);
 * - a request must carry `Authorization: Bearer <key>` (a key given, or from env
 *   `COMMUNITY_SERVER_MCP_KEY`, or made at random), compared in constant time;
 * - a `Host` other than its own address is refused (a DNS-rebinding page reaches 127.0.0.1
 *   under a name of its own), and so is a browser's `Origin` other than its own;
 * - it is stateless: each POST gets a server of its own over the one client (one rate-limit
 *   gate, one memory of answers), so nothing grows with the number of sessions.
 * @module
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CommunityServerClient } from '../client';
import { checkOptions, describe } from '../core/arguments';
import { InvalidArgumentError } from '../core/error-base';
import { createMcpServer } from './server';
import type { McpServerOptions } from './toolsets';

/** The only address it listens on. */
const HOST = '127.0.0.1';
/** The path it serves MCP on. */
export const MCP_PATH = '/mcp';
/** The shortest key it accepts: a guessable key opens the token's data to any local process. */
export const MIN_KEY_LENGTH = 16;

/**
 * Options of {@link startMcpHttpServer}: the server's (toolsets, dynamic, allowWrites), and where
 * and with which key it listens.
 * @example
 * const http = await startMcpHttpServer(client, { port: 4020, toolsets: 'all' });
 */
export interface McpHttpServerOptions extends McpServerOptions {
  /** The port on 127.0.0.1 (default 0: one the system picks; `url` tells it). */
  port?: number | undefined;
  /**
   * What requests must carry as `Authorization: Bearer <key>`, at least 16 characters of
   * `A-Z a-z 0-9 - . _ ~ + /`. Default: env `COMMUNITY_SERVER_MCP_KEY`, else 32 random bytes (base64url).
   */
  key?: string | undefined;
}

/**
 * A running MCP server over HTTP.
 * @example
 * const http = await startMcpHttpServer(client);
 * console.log(`MCP on ${http.url}, key ${http.key}`);
 * await http.close();
 */
export interface McpHttpServer {
  /** Where clients connect: `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** The key requests must carry. */
  readonly key: string;
  /**
   * Stops listening and ends open connections.
   * @example
   * process.once('SIGINT', () => void http.close());
   */
  close(): Promise<void>;
}

const KEY_CHARS = /^[A-Za-z0-9\-._~+/]+=*$/;

function keyOf(given: unknown): string {
  const key = given ?? process.env.COMMUNITY_SERVER_MCP_KEY;
  if (key === undefined || key === '') return randomBytes(32).toString('base64url');
  // Never quoted: a refused key is still somebody's secret.
  if (typeof key !== 'string' || key.length < MIN_KEY_LENGTH || !KEY_CHARS.test(key)) {
    throw new InvalidArgumentError(
      `the MCP key (option key or env COMMUNITY_SERVER_MCP_KEY) must be at least ${MIN_KEY_LENGTH} characters of A-Z a-z 0-9 - . _ ~ + /`,
    );
  }
  return key;
}

function checkPort(port: unknown): number {
  if (port === undefined) return 0;
  if (!(typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65_535)) {
    throw new InvalidArgumentError(`port must be a whole number from 0 to 65535, got ${describe(port)}`);
  }
  return port;
}

/** A one-way digest, so comparing two keys takes the same time whatever they hold and however long they are. */
const digest = (text: string) => createHash('sha256').update(text).digest();

/** Answers a refused request with a JSON-RPC error, as the SDK's transport answers its own. */
function refuse(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Serves `createMcpServer(client, options)` over Streamable HTTP on 127.0.0.1 (see
 * {@link McpHttpServerOptions}); resolves once it listens. Requests need
 * `Authorization: Bearer <key>` (401 without it); a foreign `Host` or browser `Origin` gets 403,
 * another path 404, a method other than POST 405. Throws `InvalidArgumentError` for bad options
 * before listening.
 * @example
 * import { CommunityServerClient } from 'community-server-sdk';
 * import { startMcpHttpServer } from 'community-server-sdk/mcp';
 *
 * const http = await startMcpHttpServer(new CommunityServerClient(), { port: 4020 });
 * console.log(`MCP server on ${http.url}; send Authorization: Bearer ${http.key}`);
 */
export async function startMcpHttpServer(client: CommunityServerClient, options: McpHttpServerOptions = {}): Promise<McpHttpServer> {
  checkOptions(options, ['toolsets', 'dynamic', 'allowWrites', 'port', 'key'], 'MCP HTTP server');
  const { port: givenPort, key: givenKey, ...serverOptions } = options;
  const port = checkPort(givenPort);
  const key = keyOf(givenKey);
  const expected = digest(`Bearer ${key}`);
  createMcpServer(client, serverOptions); // its options checked now, not at the first request

  let own: { hosts: string[]; origins: string[] } = { hosts: [], origins: [] };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const { pathname } = new URL(request.url ?? '/', 'http://host.invalid');
    if (!own.hosts.includes(request.headers.host ?? '')) {
      return refuse(response, 403, 'Forbidden: this server answers only at its own address');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !own.origins.includes(origin)) {
      return refuse(response, 403, 'Forbidden: requests from another origin are refused');
    }
    if (!timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
      return refuse(response, 401, 'Unauthorized: send Authorization: Bearer <key>', { 'WWW-Authenticate': 'Bearer' });
    }
    if (pathname !== MCP_PATH) return refuse(response, 404, `Not found: MCP is served at ${MCP_PATH}`);
    if (request.method !== 'POST') {
      return refuse(response, 405, 'Method not allowed: this server is stateless, POST only', { Allow: 'POST' });
    }

    const server = createMcpServer(client, serverOptions);
    // No session id generator: stateless. Plain JSON answers: the server sends nothing unasked.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    response.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };

  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) refuse(response, 500, 'Internal error');
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, HOST, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const bound = (http.address() as AddressInfo).port;
  own = {
    hosts: [`${HOST}:${bound}`, `localhost:${bound}`],
    origins: [`http://${HOST}:${bound}`, `http://localhost:${bound}`],
  };
  return {
    url: `http://${HOST}:${bound}${MCP_PATH}`,
    key,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        http.closeAllConnections();
      }),
  };
}
