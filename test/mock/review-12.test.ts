/**
 * Issue 12's toolkit tried as a careless test and a hostile request would: the defects found in
 * review, each through the public entry points.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockApi, InvalidRowError, snapshotWorld } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';
import { describe, expect, it } from 'vitest';
import { mockClient } from '../helpers';
import { startBin } from './bin';

describe('update() that changes the key', () => {
  it('refuses a key another row holds, and leaves the table as it was', () => {
    const mock = createMockApi({ seed: 3 });
    const members = mock.store.main.members;
    const [first, second] = members.all();
    const size = members.size;
    expect(() => members.update(first!.id, { id: second!.id })).toThrow(
      new InvalidRowError(`main.members.update: id ${JSON.stringify(second!.id)} is already taken`),
    );
    expect(members.size).toBe(size);
    expect(members.get(first!.id)).toBe(first);
    expect(members.get(second!.id)).toBe(second);
  });

  it('still moves a row to a free key', () => {
    const members = createMockApi({ seed: 3 }).store.main.members;
    const [first] = members.all();
    members.update(first!.id, { id: 'moved' });
    expect(members.get('moved')).toMatchObject({ serverId: first!.serverId });
    expect(members.get(first!.id)).toBeUndefined();
  });
});

describe('the journal and a wrong token', () => {
  it('keeps the path and query of a request with a short unknown token as they were sent', async () => {
    const mock = createMockApi({ seed: 3 });
    await mock.fetch(new Request('https://mock.test/api/v1/server/members?orderBy=createdAt', { headers: { authorization: 'Bearer a' } }));
    expect(mock.requests.at(-1)).toMatchObject({
      path: '/api/v1/server/members',
      query: { orderBy: 'createdAt' },
      token: 'unknown',
      status: 401,
    });
  });

  it('still hides the wrong token where it stands alone, and a seeded secret wherever it is, in one pass', async () => {
    const mock = createMockApi({ seed: 3 });
    const wrong = 'not-a-real-token-0123456789';
    await mock.fetch(
      new Request(`https://mock.test/api/v1/server/members?t=${wrong}&s=x${mock.tokens.readOnly}x`, {
        headers: { authorization: `Bearer ${wrong}` },
      }),
    );
    const row = mock.requests.at(-1)!;
    expect(row.query).toEqual({ t: '[redacted]', s: 'x[redacted]x' });
    expect(JSON.stringify(row)).not.toContain(wrong);
  });
});

describe('the journal and a hostile body', () => {
  it('records JSON nested deeper than the stack as its text, and the request is answered', async () => {
    const mock = createMockApi({ seed: 3 });
    const deep = '['.repeat(30_000) + ']'.repeat(30_000);
    const response = await mock.fetch(
      new Request('https://mock.test/api/v1/tokens', {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.tokens.main}`, 'content-type': 'application/json' },
        body: deep,
      }),
    );
    expect(response.status).toBe(400);
    expect(mock.requests.at(-1)).toMatchObject({ endpoint: 'tokens.create', token: 'main', status: 400, body: deep });
  });
});

describe('a snapshot that holds a row twice', () => {
  it('serves it once: a live server read page by page can return a row on two pages', async () => {
    const world = await snapshotWorld(mockClient(createMockApi({ seed: 3 })), { progress: false });
    const [member] = world.members;
    const [department] = world.departments;
    const twice = { ...world, members: [...world.members, { ...member!, roles: [] }], departments: [...world.departments, department!] };
    const mock = createMockApi({ world: twice });
    const client = mockClient(mock);

    expect((await client.members.list()).total).toBe(world.members.length);
    expect((await client.departments.list()).total).toBe(world.departments.length);
    // The later reading wins, as an insert of the same key would.
    expect((await client.members.get(member!.id)).roles).toEqual([]);
    expect(mock.store.main.members.delete(member!.id)).toBe(true);
    expect(mock.store.main.members.get(member!.id)).toBeUndefined();
  });
});

describe('snapshot --out where it cannot write', () => {
  const { COMMUNITY_SERVER_TOKEN: _token, COMMUNITY_SERVER_BASE_URL: _url, ...cleanEnv } = process.env;
  /** The bin run against a mock server: its result, and the requests the server answered. */
  async function snapshotTo(
    out: string,
    onStart?: (child: ReturnType<typeof startBin>['child'], mock: ReturnType<typeof createMockApi>) => void,
  ) {
    const mock = createMockApi({ counts: { members: 30 }, latency: onStart ? 100 : 0 });
    const http = await startMockHttpServer({ mock });
    try {
      const bin = startBin(['snapshot', '--out', out], {
        ...cleanEnv,
        COMMUNITY_SERVER_TOKEN: mock.tokens.main,
        COMMUNITY_SERVER_BASE_URL: http.url,
      });
      onStart?.(bin.child, mock);
      return { ...(await bin.exit), requests: mock.requests.length };
    } finally {
      await http.close();
    }
  }

  it('a directory or a missing folder: says so in one line, exits 2, before reading the server, and leaves no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'review-12-'));
    mkdirSync(join(dir, 'folder'));
    const intoFolder = await snapshotTo(join(dir, 'folder'));
    expect(intoFolder.code).toBe(2);
    expect(intoFolder.stderr.split('\n')[0]).toBe(
      `community-server-mock snapshot: --out ${join(dir, 'folder')}: is a directory; give a file name`,
    );
    expect(intoFolder.requests).toBe(0);
    const nowhere = join(dir, 'missing', 'world.json');
    const intoNothing = await snapshotTo(nowhere);
    expect(intoNothing.code).toBe(2);
    expect(intoNothing.stderr.split('\n')[0]).toBe(
      `community-server-mock snapshot: --out ${nowhere}: cannot write ${nowhere}.partial (ENOENT)`,
    );
    expect(intoNothing.requests).toBe(0);
    expect(readdirSync(dir)).toEqual(['folder']);
  }, 30_000);

  it('Ctrl-C while it reads: no file under the name and no partial one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'review-12-'));
    const file = join(dir, 'world.json');
    let partialWhileReading = false;
    const run = await snapshotTo(file, (child, mock) => {
      // Interrupted once the server has answered a few requests: the partial file exists by then.
      const poll = setInterval(() => {
        if (mock.requests.length < 3) return;
        clearInterval(poll);
        partialWhileReading = existsSync(`${file}.partial`);
        child.kill('SIGINT');
      }, 20);
    });
    expect(partialWhileReading).toBe(true);
    expect(run.code).toBe(130);
    expect(run.requests).toBeGreaterThanOrEqual(3);
    expect(readdirSync(dir)).toEqual([]);
  }, 30_000);
});

describe('create, insert and update given something other than an object of fields', () => {
  it.each([
    ['a string', 'abc', 'got string'],
    ['null', null, 'got null'],
    ['an array', [1, 2], 'got array'],
    ['a number', 7, 'got number'],
  ])('%s is refused with InvalidRowError naming the operation, and the table is unchanged', (_, value, got) => {
    const mock = createMockApi({ seed: 3 });
    const members = mock.store.main.members;
    const before = members.size;
    const [first] = members.all();
    expect(() => members.create(value as never)).toThrow(
      new InvalidRowError(`main.members.create: the partial row must be an object of fields, ${got}`),
    );
    expect(() => members.insert(value as never)).toThrow(
      new InvalidRowError(`main.members.insert: a row must be an object of fields, ${got}`),
    );
    expect(() => members.update(first!.id, value as never)).toThrow(
      new InvalidRowError(`main.members.update: the patch must be an object of fields, ${got}`),
    );
    expect(members.size).toBe(before);
    expect(members.get(first!.id)).toEqual(first);
  });
});
