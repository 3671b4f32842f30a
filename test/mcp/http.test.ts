/**
 * The MCP server over Streamable HTTP (`startMcpHttpServer`) with the SDK's own `Client`: the
 * tools work with the key; without it, with a wrong one, from a foreign Origin or under a
 * foreign Host name (DNS rebinding) nothing is answered and nothing reaches the API; it listens
 * on 127.0.0.1 alone; the key comes from the option, env COMMUNITY_SERVER_MCP_KEY, or chance.
 */
import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InvalidArgumentError } from 'community-server-sdk';
import { startMcpHttpServer, type McpHttpServer } from 'community-server-sdk/mcp';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from '../helpers';
import { call } from './fixture';

const KEY = 'test-key-0123456789abcdef';
let mock: MockApi;
let http: McpHttpServer;

beforeAll(async () => {
  mock = createMockApi({ seed: 7 });
  http = await startMcpHttpServer(mockClient(mock), { key: KEY, toolsets: ['members', 'departments'] });
});
afterAll(() => http.close());
beforeEach(() => mock.reset());

async function clientOf(url: string, headers: Record<string, string>) {
  const client = new Client({ name: 'community-server-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw POST of `initialize`, with `headers` (a `host` among them replaces the real one). */
function post(headers: Record<string, string>, path = '/mcp'): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const { port } = new URL(http.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, body, headers: response.headers }));
      },
    );
    request.on('error', reject);
    request.end(initialize);
  });
}

describe('with the key', () => {
  it('serves the tools to the SDK’s client, one server per request over the one client: a repeated question costs no request', async () => {
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const first = await clientOf(http.url, { Authorization: `Bearer ${KEY}` });
    const second = await clientOf(http.url, { Authorization: `Bearer ${KEY}` });
    expect((await first.listTools()).tools).toHaveLength(21);
    const answer = await call(first, 'members_list', { page_size: 5 });
    expect(answer.structuredContent).toMatchObject({ pageSize: 5, page: 1 });
    expect(await call(second, 'members_list', { page_size: 5 })).toEqual(answer);
    expect(mock.requests.map((request) => request.endpoint)).toEqual(['members.list']);
    await first.close();
    await second.close();
  });

  it('answers under localhost too, and a browser page of its own origin', async () => {
    const { port } = new URL(http.url);
    const client = await clientOf(`http://localhost:${port}/mcp`, { Authorization: `Bearer ${KEY}`, Origin: `http://localhost:${port}` });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe('refused, before anything reaches the API', () => {
  it.each([
    ['no key', {}, 401],
    ['a wrong key', { authorization: 'Bearer test-key-0123456789abcdeX' }, 401],
    ['the key without its scheme', { authorization: KEY }, 401],
    ['the key as Basic', { authorization: `Basic ${KEY}` }, 401],
    ['the key, from Origin http://evil.example', { authorization: `Bearer ${KEY}`, origin: 'http://evil.example' }, 403],
    ['the key, from Origin null (a sandboxed page)', { authorization: `Bearer ${KEY}`, origin: 'null' }, 403],
    ['the key, under Host evil.example (DNS rebinding)', { authorization: `Bearer ${KEY}`, host: 'evil.example' }, 403],
    ['the key, under Host 127.0.0.1 on another port', { authorization: `Bearer ${KEY}`, host: '127.0.0.1:1' }, 403],
  ])('%s: %i', async (_, headers, status) => {
    const answer = await post(headers);
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    expect(answer.body).not.toContain(KEY);
    if (status === 401) expect(answer.headers['www-authenticate']).toBe('Bearer');
    expect(mock.requests).toEqual([]);
  });

  it('with the key, another path is 404 and another method 405', async () => {
    expect((await post({ authorization: `Bearer ${KEY}` }, '/')).status).toBe(404);
    const { port } = new URL(http.url);
    const get = await fetch(`http://127.0.0.1:${port}/mcp`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('the SDK’s client without the key fails to connect', async () => {
    await expect(clientOf(http.url, {})).rejects.toThrow(/401|Unauthorized/);
  });
});

describe('where it listens, and its key', () => {
  it('on 127.0.0.1 alone: another address of this machine is not answered', async () => {
    const other = Object.values(networkInterfaces())
      .flat()
      .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
    if (other === undefined) return; // a machine with loopback alone has no other address to try
    const { port } = new URL(http.url);
    await expect(fetch(`http://${other}:${port}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` } })).rejects.toThrow();
  });

  it('takes its key from env COMMUNITY_SERVER_MCP_KEY, else makes one at random', async () => {
    vi.stubEnv('COMMUNITY_SERVER_MCP_KEY', 'from-the-environment-0123');
    try {
      const fromEnv = await startMcpHttpServer(mockClient(mock));
      expect(fromEnv.key).toBe('from-the-environment-0123');
      await fromEnv.close();
    } finally {
      vi.unstubAllEnvs();
    }
    const random = await startMcpHttpServer(mockClient(mock));
    const again = await startMcpHttpServer(mockClient(mock));
    expect(random.key).toMatch(/^[\w-]{43}$/);
    expect(again.key).not.toBe(random.key);
    await Promise.all([random.close(), again.close()]);
  });

  it.each([
    [{ key: 'short' }, 'the MCP key (option key or env COMMUNITY_SERVER_MCP_KEY) must be at least 16 characters'],
    [{ key: 'sixteen chars but spaces' }, 'must be at least 16 characters of A-Z a-z 0-9 - . _ ~ + /'],
    [{ port: 70_000 }, 'port must be a whole number from 0 to 65535, got 70000'],
    [{ toolsets: ['nope'] }, 'unknown toolset "nope"'],
    [{ host: '0.0.0.0' }, 'unknown MCP HTTP server option "host" (known: toolsets, dynamic, allowWrites, port, key)'],
  ])('%j is refused before listening: %s', async (options, message) => {
    const started = startMcpHttpServer(mockClient(mock), options as never);
    await expect(started).rejects.toThrow(InvalidArgumentError);
    await expect(started).rejects.toThrow(message);
    await expect(started).rejects.not.toThrow(/short|spaces/);
  });
});
