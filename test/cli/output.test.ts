/**
 * What the bin prints (issue 32, item 1): every format for one answer and for `--all` over several
 * pages, `--fields`, the default (table on a terminal, JSON when piped), `--all`'s progress on a
 * terminal only, and text members wrote made harmless: CSV cells a spreadsheet would run as
 * formulas, and escape sequences that would act on a terminal. Drives the built bin against the
 * HTTP mock bin.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCommand, runOnTerminal, startHttpMock, type HttpMock } from './harness';

let mock: HttpMock;
beforeAll(async () => {
  mock = await startHttpMock();
});
afterAll(() => mock.stop());
beforeEach(() => mock.remote.reset());

const env = () => ({ COMMUNITY_SERVER_BASE_URL: mock.url, COMMUNITY_SERVER_TOKEN: mock.tokens.main });
const run = (args: string[]) => runCommand(args, { env: env() });
/** Every member, as the JSON output has them, newest first. */
const allMembers = async () => JSON.parse((await run(['members', 'list', '--all'])).stdout) as { id: string; username: string }[];

describe('one answer', () => {
  it('json (the default when piped) prints the page; jsonl its items, one per line', async () => {
    const json = await run(['members', 'list', '--page-size', '4']);
    const page = JSON.parse(json.stdout);
    expect(Object.keys(page)).toEqual(['data', 'page', 'pageSize', 'total', 'totalPages']);
    const jsonl = await run(['members', 'list', '--page-size', '4', '--output', 'jsonl']);
    expect(
      jsonl.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(page.data);
    const one = await run(['members', 'get', page.data[0].id, '--output', 'jsonl']);
    expect(one.stdout.split('\n')).toEqual([JSON.stringify(page.data[0]), '']);
  });

  it('csv and table print a header and a line per item; --fields picks and orders the columns, dotted paths included', async () => {
    const page = JSON.parse((await run(['members', 'list', '--page-size', '3'])).stdout);
    const csv = await run(['members', 'list', '--page-size', '3', '--output', 'csv', '--fields', 'username,id']);
    expect(csv.stdout).toBe(
      ['username,id', ...page.data.map((m: { id: string; username: string }) => `${m.username},${m.id}`), ''].join('\n'),
    );
    const table = await run(['members', 'list', '--page-size', '3', '--output', 'table', '--fields', 'username,id']);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^username +id$/);
    expect(lines.slice(1).map((line) => line.split(/ +/))).toEqual(
      page.data.map((m: { id: string; username: string }) => [m.username, m.id]),
    );
    const info = await run(['server', 'info', '--output', 'json', '--fields', 'name,missing.field']);
    expect(JSON.parse(info.stdout)).toEqual({ name: expect.any(String), 'missing.field': null });
  });

  it('a single object as a table is a table of its fields', async () => {
    const { stdout } = await run(['server', 'info', '--output', 'table']);
    expect(stdout).toMatch(/^id +\S+$/m);
    expect(stdout).toMatch(/^name +\S/m);
  });

  it('a terminal gets a table by default, and where the page is in the list on stderr', async () => {
    const { code, stdout } = await runOnTerminal(['members', 'list', '--page-size', '2', '--fields', 'id'], env());
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^id\r\n[0-9a-f-]{36}\r\n[0-9a-f-]{36}\r\npage 1 of 125, 250 items; --page 2 for the next, --all for every page\r\n$/,
    );
  });
});

/** A progress line: a carriage return, erase-line, and the text up to the next line end. */
// eslint-disable-next-line no-control-regex -- the terminal's control sequence is what it finds
const PROGRESS = /\r\x1b\[K[^\r\n]*/g;

describe('--all', () => {
  it('jsonl streams every item of every page once, in order, asking for each page once', async () => {
    const members = await allMembers();
    await mock.remote.reset();
    const { code, stdout, stderr } = await run(['members', 'list', '--all', '--page-size', '30', '--output', 'jsonl']);
    expect(code).toBe(0);
    expect(stderr).toBe(''); // no progress when stderr is not a terminal
    expect(
      stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(members);
    const pages = Math.ceil(members.length / 30);
    expect((await mock.remote.requests()).map(({ query }) => query.page ?? '1')).toEqual(
      Array.from({ length: pages }, (_, i) => String(i + 1)),
    );
  });

  it('asks for pages of 100 unless told a size; json is one array, csv and table one header', async () => {
    const members = await allMembers();
    expect(members).toHaveLength(250);
    expect((await mock.remote.requests()).map(({ query }) => query.pageSize)).toEqual(['100', '100', '100']);
    const csv = await run(['members', 'list', '--all', '--output', 'csv', '--fields', 'id']);
    expect(csv.stdout).toBe(['id', ...members.map(({ id }) => id), ''].join('\n'));
    const table = await run(['members', 'list', '--all', '--output', 'table', '--fields', 'id']);
    expect(table.stdout.trimEnd().split('\n')).toEqual(['id'.padEnd(36).trimEnd(), ...members.map(({ id }) => id)]);
  });

  it('an empty list is an empty array, and nothing else in every other format', async () => {
    const department = JSON.parse((await run(['departments', 'list', '--page-size', '1'])).stdout).data[0].id as string;
    const empty = ['departments', 'loas', 'by-member', department, 'nobody', '--all'];
    expect((await run(empty)).stdout).toBe('[]\n');
    for (const format of ['jsonl', 'csv', 'table']) expect((await run([...empty, '--output', format])).stdout, format).toBe('');
    expect((await run([...empty, '--output', 'csv', '--fields', 'id,days'])).stdout).toBe('id,days\n');
  });

  it('shows its progress on a terminal, on stderr, and clears it', async () => {
    const { code, stdout } = await runOnTerminal(['members', 'list', '--all', '--output', 'jsonl'], env());
    expect(code).toBe(0);
    expect(stdout).toContain('\r\x1b[Kmembers list: page 1 of 3 · 100 items');
    expect(stdout).toContain('\r\x1b[Kmembers list: page 3 of 3 · 250 items\r\x1b[K');
    expect(stdout.replaceAll(PROGRESS, '').trimEnd().split('\r\n')).toHaveLength(250);
  });
});

describe('text members wrote', () => {
  it.each(['=HYPERLINK("http://evil.example","click")', '+1+2', '-2+3', '@SUM(A1:A2)', '\t=1+2'])(
    'a CSV cell starting like a formula (%j) is written as text, with a leading quote',
    async (username) => {
      const member = await mock.remote.store('main.members').create({ username });
      const { stdout } = await run(['members', 'get', member.id, '--output', 'csv', '--fields', 'username,createdAt']);
      const [, row] = stdout.split('\n');
      const cell = row!.slice(0, row!.lastIndexOf(','));
      expect(cell.replace(/^"(.*)"$/s, '$1').replaceAll('""', '"')).toBe(`'${username}`);
      expect(row!.slice(row!.lastIndexOf(',') + 1)).toBe(String(member.createdAt)); // a number stays a number
    },
  );

  it('escape sequences in a table are shown, not acted on; JSON keeps the text exact', async () => {
    const username = 'ada\x1b]0;owned\x07\x1b[2J\r\u202eevil\u009b31m';
    // The newest member, first in the list.
    const member = await mock.remote.store('main.members').create({ username, createdAt: Math.floor(Date.now() / 1000) });
    const table = await run(['members', 'list', '--page-size', '1', '--output', 'table', '--fields', 'username']);
    expect(table.stdout).toBe('username\nada\\x1b]0;owned\\x07\\x1b[2J\\x0d\\u202eevil\\x9b31m\n');
    const record = await run(['members', 'get', member.id, '--output', 'table']);
    for (const character of ['\x1b', '\x07', '\r', '\u202e', '\u009b']) expect(record.stdout).not.toContain(character);
    expect(JSON.parse((await run(['members', 'get', member.id])).stdout).username).toBe(username);
  });
});
