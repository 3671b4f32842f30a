/**
 * The bin `community-server` as a user meets it (issue 32, item 1): help, a request against the
 * HTTP mock bin and with `--mock`, the token's sources, exit statuses, and usage errors that send
 * nothing (the HTTP mock's journal counts what arrived). Drives the built bin.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { operations } from '../../src/operations/index';
import { runCommand, startHttpMock, type HttpMock } from './harness';

let mock: HttpMock;
let dir: string;
beforeAll(async () => {
  mock = await startHttpMock();
  dir = mkdtempSync(`${tmpdir()}/cli-dispatch-`);
});
afterAll(async () => {
  await mock.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => mock.remote.reset());

const env = (token: string = mock.tokens.main) => ({ COMMUNITY_SERVER_BASE_URL: mock.url, COMMUNITY_SERVER_TOKEN: token });

describe('help', () => {
  it('--help names every group of the endpoint table and the exit statuses, on stdout, exit 0', async () => {
    const { code, stdout, stderr } = await runCommand(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    for (const group of new Set(operations().map((operation) => operation.words[0]))) {
      expect(stdout).toMatch(new RegExp(`^  ${group} `, 'm'));
    }
    expect(stdout).toContain('Exit status: 0 success; 1 an error from the service or the network; 2 bad usage');
  });

  it("a command's --help names its ids from the table, and needs no token", async () => {
    const { code, stdout } = await runCommand(['cad', 'unit-groups', 'get', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: community-server cad unit-groups get <group-id> \[flags\]$/m);
    expect(stdout).toContain('<group-id>  a whole number');
    expect(stdout).toContain('Request: GET /api/v1/server/cad/unit-groups/{groupId}');
  });
});

describe('a request', () => {
  it('prints one JSON document when piped: a list prints its page', async () => {
    const { code, stdout, stderr } = await runCommand(['members', 'list', '--page-size', '3'], { env: env() });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const page = JSON.parse(stdout);
    expect(page).toMatchObject({ page: 1, pageSize: 3, totalPages: expect.any(Number) });
    expect(page.data).toHaveLength(3);
    const sent = await mock.remote.requests();
    expect(sent.map(({ endpoint, query, token }) => ({ endpoint, query, token }))).toEqual([
      { endpoint: 'members.list', query: { pageSize: '3' }, token: 'main' },
    ]);
  });

  it('takes its ids in order, an int32 id as a number', async () => {
    const [department] = (await runCommand(['departments', 'list'], { env: env() }).then(({ stdout }) => JSON.parse(stdout).data)) as {
      id: string;
    }[];
    const members = await runCommand(['departments', 'members', 'list', department!.id, '--page-size', '1'], { env: env() });
    const [member] = JSON.parse(members.stdout).data as { id: string }[];
    const { code, stdout } = await runCommand(['departments', 'members', 'get', department!.id, member!.id], { env: env() });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).id).toBe(member!.id);
    expect((await runCommand(['cad', 'units', 'get', '1'], { env: env() })).code).toBe(0);
  });

  it('--mock answers with no server and no token, the same seeded world every time', async () => {
    const first = await runCommand(['--mock', 'members', 'list']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).data).toHaveLength(10);
    expect((await runCommand(['members', 'list', '--mock'])).stdout).toBe(first.stdout);
    expect((await runCommand(['members', 'list', '--mock', '--seed', '2'])).stdout).not.toBe(first.stdout);
  });
});

describe('the token', () => {
  it('comes from env, --token-file (a trailing newline trimmed) or --token-stdin (CRLF too)', async () => {
    const file = `${dir}/token`;
    writeFileSync(file, `${mock.tokens.main}\n`);
    const base = { COMMUNITY_SERVER_BASE_URL: mock.url };
    const runs = await Promise.all([
      runCommand(['server', 'info'], { env: env() }),
      runCommand(['server', 'info', '--token-file', file], { env: base }),
      runCommand(['server', 'info', '--token-stdin'], { env: base, input: `${mock.tokens.main}\r\n` }),
    ]);
    for (const run of runs) expect(run).toMatchObject({ code: 0, stderr: '' });
    expect((await mock.remote.requests()).map(({ token }) => token)).toEqual(['main', 'main', 'main']);
  });

  it.each([[['--token', 'cs_secret_value_1234']], [['--token=cs_secret_value_1234']]])(
    '%j is refused with where a token comes from, exit 2, nothing sent, the value not shown',
    async (flag) => {
      const { code, stdout, stderr } = await runCommand(['members', 'list', ...flag], { env: env() });
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain('--token is not accepted');
      expect(stderr).toContain('set COMMUNITY_SERVER_TOKEN, or pass --token-file PATH or --token-stdin');
      expect(stderr).not.toContain('cs_secret_value_1234');
      expect(await mock.remote.requests()).toEqual([]);
    },
  );

  it('a rejected token is exit 1 with the error on one line, and the token shows nowhere', async () => {
    const { code, stdout, stderr } = await runCommand(['members', 'get', mock.tokens.revoked], { env: env(mock.tokens.revoked) });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^community-server: AuthenticationError \(401 [^)]*\): .+\n$/);
    expect(stderr).not.toContain(mock.tokens.revoked);
  });
});

describe('exit statuses', () => {
  it('an error from the service is exit 1: one line, or one JSON object with --output json', async () => {
    const line = await runCommand(['members', 'get', 'nobody'], { env: env() });
    expect(line.code).toBe(1);
    expect(line.stderr).toMatch(/^community-server: NotFoundError \(404 \w+\): .*nobody.*\n$/);
    const json = await runCommand(['members', 'get', 'nobody', '--output', 'json'], { env: env() });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { name: 'NotFoundError', status: 404, code: expect.any(String), message: expect.any(String) },
    });
  });

  it('a network failure is exit 1', async () => {
    const { code, stderr } = await runCommand(['server', 'info'], { env: { ...env(), COMMUNITY_SERVER_BASE_URL: 'http://127.0.0.1:9' } });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^community-server: ConnectionError/);
  });

  it.each([
    ['no command words', ['members']],
    ['an unknown command', ['membrs', 'list']],
    ['a missing id', ['members', 'get']],
    ['an extra id', ['members', 'get', 'a', 'b']],
    ['a non-integer int32 id', ['cad', 'units', 'get', '1.5']],
    ['an unknown flag', ['members', 'list', '--pages', '2']],
    ['a list flag on a non-list', ['members', 'get', 'x', '--page', '2']],
    ['a bad page size', ['members', 'list', '--page-size', '101']],
    ['a bad sort', ['members', 'list', '--sort', 'up']],
    ['a missing required body flag', ['tokens', 'create']],
    ['a body number that is none', ['tokens', 'create', '--name', 'x', '--expires-in-days', 'soon']],
    ['a body the schema refuses', ['tokens', 'create', '--name', ' ']],
    ['--seed without --mock', ['members', 'list', '--seed', '3']],
    ['--mock with a base URL', ['members', 'list', '--mock', '--base-url', 'http://127.0.0.1:1']],
    ['both token flags', ['members', 'list', '--token-file', 'x', '--token-stdin']],
    ['a token file that is missing', ['members', 'list', '--token-file', '/nonexistent/token']],
  ])('bad usage (%s) is exit 2, on stderr, and sends nothing', async (_, args) => {
    const { code, stdout, stderr } = await runCommand(args, { env: env() });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^community-server: .+\nRun 'community-server .*--help' for usage\.\n$/);
    expect(await mock.remote.requests()).toEqual([]);
  });

  it('no token is exit 2 naming its sources; no base URL likewise', async () => {
    const noToken = await runCommand(['members', 'list'], { env: { COMMUNITY_SERVER_BASE_URL: mock.url } });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('no token: set COMMUNITY_SERVER_TOKEN, or pass --token-file PATH or --token-stdin');
    const noBase = await runCommand(['members', 'list'], { env: { COMMUNITY_SERVER_TOKEN: mock.tokens.main } });
    expect(noBase.code).toBe(2);
    expect(noBase.stderr).toContain('no base URL');
    expect(await mock.remote.requests()).toEqual([]);
  });

  it('a request that needs no token goes without one', async () => {
    const { code } = await runCommand(['health', 'live'], { env: { COMMUNITY_SERVER_BASE_URL: mock.url } });
    expect(code).toBe(0);
    expect((await mock.remote.requests()).map(({ endpoint, token }) => [endpoint, token])).toEqual([['health.live', null]]);
  });
});
