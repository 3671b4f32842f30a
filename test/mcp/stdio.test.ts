/**
 * `community-server mcp`, the built bin (`npm run build` first) as an assistant's client starts
 * it: the SDK's own `Client` over stdio, against the HTTP mock bin and with `--mock`; stdout
 * carries the protocol and nothing else, even with the client's debug log on; no token in any
 * output; bad usage exits 2 and sends nothing; `--http` prints its URL and key and serves them.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, runCommand, startCommand, startHttpMock, type HttpMock } from '../cli/harness';
import { call } from './fixture';

let mock: HttpMock;
beforeAll(async () => {
  mock = await startHttpMock();
});
afterAll(() => mock.stop());
beforeEach(() => mock.remote.reset());

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH!,
  COMMUNITY_SERVER_BASE_URL: mock.url,
  COMMUNITY_SERVER_TOKEN: mock.tokens.main,
  ...extra,
});

/** The SDK's client over stdio to `community-server mcp …args`, and what the bin wrote on stderr. */
async function stdioClient(args: readonly string[], environment: Record<string, string>) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env: environment, stderr: 'pipe' });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'community-server-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const lines = (...messages: object[]) => messages.map((message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`).join('');
/** A session as a script writes it, all at once, stdin then closed; a line that is not JSON first. */
const session =
  'this is not json\n' +
  lines(
    { id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
    { method: 'notifications/initialized' },
    { id: 2, method: 'tools/list' },
    { id: 3, method: 'tools/call', params: { name: 'members_get', arguments: { member_id: 'nobody' } } },
    { id: 4, method: 'tools/call', params: { name: 'members_list', arguments: { page_size: 3 } } },
  );

describe('over stdio, against the HTTP mock bin', () => {
  it('serves the default tools to the SDK’s client; answers come from the service, once per question', async () => {
    const { client, stderr } = await stdioClient([], env());
    expect((await client.listTools()).tools).toHaveLength(34);
    const first = await call(client, 'departments_list', { page_size: 2 });
    expect(first.structuredContent).toMatchObject({ page: 1, pageSize: 2 });
    expect(await call(client, 'departments_list', { page_size: 2 })).toEqual(first);
    expect((await mock.remote.requests()).map((request) => request.endpoint)).toEqual(['departments.list']);
    await client.close();
    expect(stderr()).toBe('community-server: MCP server on stdio (34 tools), waiting for its client\n');
  });

  it('writes nothing but JSON-RPC on stdout, with the client’s debug log on and a line that is not JSON (both on stderr), and no token anywhere; stdin closed, it answers all, then exits 0', async () => {
    const { code, stdout, stderr } = await runCommand(['mcp', '--toolsets', 'members'], {
      env: env({ COMMUNITY_SERVER_LOG: 'debug' }),
      input: session,
    });
    expect(code).toBe(0);
    const messages = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { jsonrpc: string; id: number; result: { isError?: boolean } })
      // JSON-RPC lets a server answer in any order: the two tool calls run at once.
      .sort((a, b) => a.id - b.id);
    expect(messages.map(({ jsonrpc, id }) => [jsonrpc, id])).toEqual([
      ['2.0', 1],
      ['2.0', 2],
      ['2.0', 3],
      ['2.0', 4],
    ]);
    expect(messages[2]!.result.isError).toBe(true);
    expect(stderr).toMatch(/debug: community-server-sdk: GET \/api\/v1\/server\/members\?pageSize=3 → 200/);
    expect(stderr).toMatch(/^community-server: .*"this is not json" is not valid JSON$/m);
    for (const text of [stdout, stderr]) expect(text).not.toContain(mock.tokens.main);
  });

  it('the dynamic mode and --allow-writes', async () => {
    const { client } = await stdioClient(['--dynamic', '--allow-writes'], env());
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_endpoints', 'describe_endpoint', 'call_endpoint']);
    const created = await call(client, 'call_endpoint', { name: 'tokens_create', arguments: { name: 'from stdio' } });
    expect(created.structuredContent).toMatchObject({ name: 'from stdio', active: true });
    await client.close();
  });
});

describe('with --mock', () => {
  it('needs no server and no token: every toolset’s tools answer', async () => {
    const { client } = await stdioClient(['--mock', '--toolsets', 'all'], { PATH: process.env.PATH! });
    expect((await client.listTools()).tools).toHaveLength(62);
    expect((await call(client, 'cad_units_list')).structuredContent).toMatchObject({ page: 1, pageSize: 10 });
    await client.close();
  });
});

describe('bad usage exits 2 and sends nothing', () => {
  it.each([
    [
      ['--toolsets', 'nope'],
      '--toolsets: unknown toolset "nope" (known: admin, applications, audit_logs, cad, departments, server, join_requests, loas, logs, members, roles, shifts, tokens, verification, health, or \'all\')',
    ],
    [['--port', '4020'], '--port goes with --http'],
    [['--http', '--port', '70000'], '--port must be a whole number from 0 to 65535, got "70000"'],
    [['list'], 'mcp takes no arguments, got "list"'],
    [['--token', 'x'], '--token is not accepted'],
    [['--read-only'], "Unknown option '--read-only'"],
  ])('mcp %j', async (args, message) => {
    const { code, stdout, stderr } = await runCommand(['mcp', ...args], { env: env() });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(await mock.remote.requests()).toEqual([]);
  });

  it('without a token it says where one comes from', async () => {
    const { code, stderr } = await runCommand(['mcp'], { env: { PATH: process.env.PATH!, COMMUNITY_SERVER_BASE_URL: mock.url } });
    expect(code).toBe(2);
    expect(stderr).toContain('no token: set COMMUNITY_SERVER_TOKEN, or pass --token-file PATH or --token-stdin');
  });
});

describe('--http', () => {
  /** Starts `mcp --http …args` and reads its URL and key line. */
  async function startHttp(args: readonly string[], environment: Record<string, string>) {
    const run = startCommand(['mcp', '--http', '--port', '0', ...args], { env: environment });
    for (const deadline = Date.now() + 15_000; !/^key: .+$/m.test(run.output().stdout) && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { stdout } = run.output();
    return { run, url: /on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(stdout)![1]!, keyLine: /^key: (.+)$/m.exec(stdout)![1]!, stdout };
  }

  it('prints its URL and a key, and serves the SDK’s client that sends the key; Ctrl-C stops it with exit 0', async () => {
    const { run, url, keyLine } = await startHttp([], env());
    const client = new Client({ name: 'community-server-tests', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${keyLine}` } } }),
    );
    expect((await call(client, 'server_info')).structuredContent).toHaveProperty('id');
    await client.close();
    expect((await fetch(url, { method: 'POST' })).status).toBe(401);
    run.child.kill('SIGINT');
    const { code, stdout, stderr } = await run.done;
    expect(code).toBe(0);
    for (const text of [stdout, stderr]) expect(text).not.toContain(mock.tokens.main);
  });

  it('takes its key from COMMUNITY_SERVER_MCP_KEY, and then does not print it', async () => {
    const key = 'a-key-from-the-environment';
    const { run, url, keyLine, stdout } = await startHttp(['--mock'], { PATH: process.env.PATH!, COMMUNITY_SERVER_MCP_KEY: key });
    expect(keyLine).toBe('from COMMUNITY_SERVER_MCP_KEY');
    expect(stdout).not.toContain(key);
    expect((await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}` } })).status).not.toBe(401);
    run.child.kill('SIGINT');
    expect((await run.done).code).toBe(0);
  });
});
