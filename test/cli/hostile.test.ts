/**
 * The attack pass of issue 32's command: a service that lies or echoes, a user who slips, a
 * reader that goes away, Ctrl-C mid-walk. Each case is one a hostile service or a careless user
 * can bring about; drives the built bin against a service of the test's making (or the HTTP mock).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, runCommand, runOnTerminal, startCommand, startFixtureService, startHttpMock, type HttpMock } from './harness';

const TOKEN = 'cs_live_9Qw2Lr7Xz4Kp1Vb8';
let service: Awaited<ReturnType<typeof startFixtureService>>;
let mock: HttpMock;
let dir: string;
beforeAll(async () => {
  [service, mock] = await Promise.all([startFixtureService(), startHttpMock()]);
  dir = mkdtempSync(`${tmpdir()}/cli-hostile-`);
});
afterAll(async () => {
  await Promise.all([service.close(), mock.stop()]);
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  service.seen.length = 0;
  await mock.remote.reset();
});

const env = () => ({ COMMUNITY_SERVER_BASE_URL: service.url, COMMUNITY_SERVER_TOKEN: TOKEN });
const mockEnv = () => ({ COMMUNITY_SERVER_BASE_URL: mock.url, COMMUNITY_SERVER_TOKEN: mock.tokens.main });
const member = (i: number) => ({ id: `m${i}`, serverId: 's', roles: [], createdAt: 1_700_000_000 + i, username: `user${i}` });
const pageOf = (page: number, pageSize: number, totalPages: number, data: unknown[]) => ({
  data,
  page,
  pageSize,
  total: totalPages * pageSize,
  totalPages,
});
const requested = (url: string) => Number(new URL(url, 'http://x').searchParams.get('page') ?? '1');

describe('a service that lies', () => {
  it('claims a billion pages: the walk ends at the first empty page, memory a page', async () => {
    service.handler = (request, response) => {
      const page = requested(request.url!);
      json(response, pageOf(page, 100, 1e9, page <= 3 ? Array.from({ length: 100 }, (_, i) => member(page * 100 + i)) : []));
    };
    const { code, stdout } = await runCommand(['members', 'list', '--all', '--output', 'jsonl'], { env: env() });
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n')).toHaveLength(300);
    expect(service.seen.map(requested)).toEqual([1, 2, 3, 4]);
  });

  it('answers page 1 whatever page is asked, claiming more: the walk stops with an error rather than repeating it forever', async () => {
    service.handler = (_request, response) => json(response, pageOf(1, 2, 1e9, [member(1), member(2)]));
    const { code, stdout, stderr } = await runCommand(['members', 'list', '--all', '--output', 'jsonl'], { env: env() });
    expect(code).toBe(1);
    expect(stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(stderr).toContain('answered page 1 when asked for page 2');
    expect(service.seen).toHaveLength(2);
  });

  it('sends one huge page: every item is printed, one per line', async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => member(i));
    service.handler = (_request, response) => json(response, pageOf(1, 20_000, 1, items));
    const { code, stdout } = await runCommand(['members', 'list', '--all', '--output', 'jsonl'], { env: env() });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(20_000);
    expect(JSON.parse(lines.at(-1)!)).toEqual(items.at(-1));
  });

  it('echoes the token in its answer and its errors: it shows nowhere', async () => {
    service.handler = (request, response) => {
      const echoed = request.headers.authorization!.replace('Bearer ', '');
      if (request.url!.includes('/members/')) json(response, { error: { code: 'bad', message: `your token ${echoed} is no good` } }, 400);
      else json(response, { id: 's', name: `owned by ${echoed}`, ownerId: 'o', createdAt: 1 });
    };
    for (const args of [
      ['server', 'info'],
      ['server', 'info', '--output', 'table'],
      ['members', 'get', 'x'],
      ['members', 'get', 'x', '--output', 'json'],
      ['api', 'GET', '/api/v1/server/info'],
      ['api', 'GET', '/api/v1/server/members/x'],
    ]) {
      const { stdout, stderr } = await runCommand(args, { env: env() });
      expect(stdout + stderr, args.join(' ')).not.toContain(TOKEN);
      expect(stdout + stderr, args.join(' ')).toContain('[redacted]');
    }
  });

  it('puts escape sequences in its error message: they are shown, not acted on', async () => {
    service.handler = (_request, response) => json(response, { error: { code: 'x', message: 'bad \x1b]0;owned\x07\x1b[2J thing' } }, 400);
    const { code, stderr } = await runCommand(['server', 'info'], { env: env() });
    expect(code).toBe(1);
    expect(stderr).toBe('community-server: BadRequestError (400 x): bad \\x1b]0;owned\\x07\\x1b[2J thing\n');
  });
});

describe('a user who slips', () => {
  it('--token-stdin from a terminal is refused: the token would show as it is typed', async () => {
    const { code, stdout } = await runOnTerminal(['members', 'list', '--token-stdin'], { COMMUNITY_SERVER_BASE_URL: service.url });
    expect(code).toBe(2);
    expect(stdout).toContain('--token-stdin reads the token from a pipe or a file');
    expect(service.seen).toEqual([]);
  });

  it.each([
    ['a token of two lines', `${TOKEN}\nsecond line\n`, 'holds characters no token has'],
    ['an empty stdin', '\n', 'it is empty'],
    ['a token too short', 'abc\n', 'shorter than any token'],
  ])('--token-stdin with %s is exit 2, the value never shown, nothing sent', async (_, input, message) => {
    const { code, stderr } = await runCommand(['members', 'list', '--token-stdin'], {
      env: { COMMUNITY_SERVER_BASE_URL: service.url },
      input,
    });
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).not.toContain(TOKEN);
    expect(service.seen).toEqual([]);
  });

  it("a token pasted where an id goes, or into a flag's value, shows nowhere", async () => {
    service.handler = (request, response) =>
      json(response, { error: { code: 'not_found', message: `no ${decodeURIComponent(request.url!)}` } }, 404);
    const asId = await runCommand(['members', 'get', TOKEN], { env: env() });
    expect(asId.code).toBe(1);
    const asFlag = await runCommand(['members', 'list', '--sort', TOKEN], { env: env() });
    expect(asFlag.code).toBe(2);
    for (const { stdout, stderr } of [asId, asFlag]) expect(stdout + stderr).not.toContain(TOKEN);
  });
});

describe('interruptions', () => {
  it('Ctrl-C mid --all: the request in flight is dropped, output ends with a whole line, exit 130', async () => {
    await mock.remote.faults.add({ endpoint: 'members.list', latencyMs: 400 });
    const walk = startCommand(['members', 'list', '--all', '--page-size', '10', '--output', 'jsonl'], { env: mockEnv() });
    await new Promise<void>((resolve) => walk.child.stdout.once('data', () => resolve()));
    const at = Date.now();
    walk.child.kill('SIGINT');
    const { code, stdout, stderr } = await walk.done;
    expect(code).toBe(130);
    expect(Date.now() - at).toBeLessThan(2_000);
    expect(stdout.endsWith('\n')).toBe(true);
    expect(stdout.trimEnd().split('\n').length % 10).toBe(0);
    expect(JSON.parse(stderr)).toEqual({ error: { name: 'Interrupted', status: null, code: 'interrupted', message: 'interrupted' } });
  });

  it('a reader that goes away (| head) stops the walk: no more pages are asked for, exit 0, nothing on stderr', async () => {
    const walk = startCommand(['members', 'list', '--all', '--page-size', '1', '--output', 'jsonl'], { env: mockEnv() });
    await new Promise<void>((resolve) => walk.child.stdout.once('data', () => resolve()));
    walk.child.stdout.destroy();
    const { code, stderr } = await walk.done;
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect((await mock.remote.requests()).length).toBeLessThan(50); // of 250 pages
  });
});
