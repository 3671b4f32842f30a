/**
 * The package as a newcomer meets it: packed, then run from an empty directory by the README's
 * one command, `npx -p community-server-sdk community-server-mock` (and the command
 * `community-server` beside it), which installs the package and its dependencies but not msw,
 * faker or the MCP SDK (optional peers). The bins must serve, carrying what they use of them;
 * importing the mock's entries (and the MCP entry) there must say in one line what to install.
 * Uses the built dist (`npm test` builds first); offline: the dependencies come from this
 * checkout's node_modules, packed, and npm gets a cache of its own.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProcess } from './bin';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
  name: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const MESSAGE = 'needs msw and @faker-js/faker: npm install -D msw @faker-js/faker';
const MCP_MESSAGE = 'needs @modelcontextprotocol/sdk: npm install @modelcontextprotocol/sdk';

describe('from an empty directory, without msw or faker (nor the MCP SDK)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  /** The README's command, the package and its dependencies given as local tarballs. */
  let npx: string[];
  /** Where npx installed the package. */
  let installed: string;

  beforeAll(async () => {
    dir = mkdtempSync(`${tmpdir()}/sdk-empty-`);
    mkdirSync(`${dir}/empty`);
    const sources = [root, ...Object.keys(pkg.dependencies).map((name) => `${root}/node_modules/${name}`)];
    const { stdout } = await run('npm', ['pack', ...sources, '--pack-destination', dir, '--ignore-scripts', '--json'], { cwd: root });
    const tarballs = (JSON.parse(stdout) as { filename: string }[]).map(({ filename }) => `${dir}/${filename}`);
    env = {
      ...process.env,
      npm_config_cache: `${dir}/cache`,
      npm_config_yes: 'true',
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    };
    npx = ['--offline', ...tarballs.flatMap((tarball) => ['-p', tarball]), 'community-server-mock'];
    const help = await run('npx', [...npx, '--help'], { cwd: `${dir}/empty`, env });
    expect(help.stdout).toContain('Usage: community-server-mock');
    const [hash] = readdirSync(`${dir}/cache/_npx`);
    installed = `${dir}/cache/_npx/${hash}`;
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('npx installed the package and its dependencies, and none of its peers', () => {
    const modules = readdirSync(`${installed}/node_modules`);
    expect(modules).toEqual(expect.arrayContaining([pkg.name, ...Object.keys(pkg.dependencies)]));
    for (const peer of Object.keys(pkg.peerDependencies)) expect(modules).not.toContain(peer.split('/')[0]);
  });

  it('the bin serves the API', async () => {
    // Its own process group, so the stop below reaches the bin npx started as well as npx.
    const bin = startProcess('npx', [...npx, '--port', '0'], { cwd: `${dir}/empty`, env, detached: true });
    try {
      const output = await bin.ready;
      const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
      const token = /^\s+main\s+(\S+)$/m.exec(output)![1]!;
      const response = await fetch(`${url}/api/v1/server/members?pageSize=2`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(2);
    } finally {
      process.kill(-bin.child.pid!, 'SIGTERM');
    }
    await bin.exit; // npx dies of the signal itself (no exit code); the bin closes on it
  });

  it('the command community-server runs there too, carrying the mock and the MCP SDK: a request with --mock, its MCP server with --mock', async () => {
    const command = [...npx.slice(0, -1), 'community-server'];
    const { stdout } = await run('npx', [...command, 'members', 'list', '--mock', '--page-size', '2', '--output', 'jsonl'], {
      cwd: `${dir}/empty`,
      env,
    });
    expect(
      stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: string }).id),
    ).toHaveLength(2);
    // An MCP client's first words on stdin; the command answers each before it closes.
    const requests = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    const mcp = spawnSync('npx', [...command, 'mcp', '--mock'], {
      cwd: `${dir}/empty`,
      env,
      input: requests.map((request) => `${JSON.stringify(request)}\n`).join(''),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(mcp.status, mcp.stderr).toBe(0);
    const answers = mcp.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result: { tools?: unknown[] } });
    expect(answers.map(({ id }) => id)).toEqual([1, 2]);
    expect(answers[1]!.result.tools!.length).toBeGreaterThan(10);
  }, 60_000);

  it.each([
    ['ESM', 'community-server-sdk/mock', ['--input-type=module', '-e', "import 'community-server-sdk/mock';"], MESSAGE],
    ['CommonJS', 'community-server-sdk/mock', ['-e', "require('community-server-sdk/mock');"], MESSAGE],
    ['ESM', 'community-server-sdk/mock/node', ['--input-type=module', '-e', "import 'community-server-sdk/mock/node';"], MESSAGE],
    ['CommonJS', 'community-server-sdk/mock/node', ['-e', "require('community-server-sdk/mock/node');"], MESSAGE],
    ['ESM', 'community-server-sdk/mcp', ['--input-type=module', '-e', "import 'community-server-sdk/mcp';"], MCP_MESSAGE],
    ['CommonJS', 'community-server-sdk/mcp', ['-e', "require('community-server-sdk/mcp');"], MCP_MESSAGE],
  ])('%s: importing %s says in one line what to install, with no stack trace', async (_, specifier, args, message) => {
    const failure = await run(process.execPath, args, { cwd: installed }).then(
      () => expect.unreachable('the import succeeded without its peers'),
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain(`${specifier} ${message}`);
    expect(failure.stderr).not.toContain('MODULE_NOT_FOUND');
    expect(failure.stderr).not.toMatch(/^\s+at /m);
  });

  it.each([
    [
      'ESM',
      [
        '--input-type=module',
        '-e',
        "const { connectMock } = await import('community-server-sdk/mock/remote'); console.log(typeof connectMock);",
      ],
    ],
    ['CommonJS', ['-e', "console.log(typeof require('community-server-sdk/mock/remote').connectMock);"]],
  ])('%s: community-server-sdk/mock/remote loads without them: it needs fetch alone', async (_, args) => {
    const { stdout } = await run(process.execPath, args, { cwd: installed });
    expect(stdout.trim()).toBe('function');
  });
});
