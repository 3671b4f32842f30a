/**
 * Snapshots: a real server, offline. The seeded mock stands in for the real server: a snapshot of
 * it is taken over HTTP with a real client, served again (in-process and by the built bin with
 * `--world`), and every read request must answer the same on both, status and body.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from 'community-server-sdk';
import { createMockApi, snapshotWorld, type MockApi, type WorldSnapshot } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointsOf, type Endpoint } from '../../../../src/core/endpoint';
import { resources } from '../../../../src/resources/index';
import { mockClient, rawAnswer } from '../../../helpers';
import { startBin } from '../../doors/cli/bin';
import { pick, replaceArg, rows, type Ids, type Row } from '../api/contract-rows';

/** One clock for the original and its copy: `lastUsedAt` of the token that asks is then the same. */
const NOW = Date.UTC(2026, 0, 2);
/** The contract suite's seed, whose world has a row for every id `pick` needs; the copy keeps it so its five tokens are the same strings. */
const SEED = 11;
const dir = mkdtempSync(join(tmpdir(), 'snapshot-test-'));

/** The GETs that read the server's data: every one that carries the token (the health probes read none). */
const reads = endpointsOf(resources).filter(({ endpoint }) => endpoint.method === 'GET' && endpoint.auth);
const rowNamed = new Map(rows.map((row) => [row.name, row]));

const pathOf = (endpoint: Endpoint, args: readonly unknown[]) => {
  let at = 0;
  return endpoint.parts.map((part) => (typeof part === 'string' ? part : encodeURIComponent(String(args[at++])))).join('');
};

interface Probe {
  label: string;
  path: string;
  token: 'main' | 'noCad';
}

/**
 * The requests that compare two servers: each read with ids of the original's rows; each list
 * page by page (100 a page) and in the other direction; each id it names also missing (404).
 */
async function probesFor(original: MockApi, ids: Ids, http: MockHttpServer): Promise<Probe[]> {
  const probes: Probe[] = [];
  for (const { name, endpoint } of reads) {
    const row: Row = rowNamed.get(name)!;
    const args = row.args(ids);
    const path = pathOf(endpoint, args);
    probes.push({ label: name, path, token: 'main' });
    for (const missing of row.missing ?? []) {
      if (missing === 'cad') probes.push({ label: `${name} on a server without CAD`, path, token: 'noCad' });
      else probes.push({ label: `${name}, ${missing} id missing`, path: pathOf(endpoint, replaceArg(args, missing, row)), token: 'main' });
    }
    if (endpoint.kind !== 'page') continue;
    const { json } = await rawAnswer(original, `${path}?pageSize=100`, { baseUrl: http.url });
    for (let page = 1; page <= json.totalPages; page++) {
      probes.push({ label: `${name} page ${page}`, path: `${path}?pageSize=100&page=${page}`, token: 'main' });
    }
    probes.push({ label: `${name} ascending`, path: `${path}?sort=asc`, token: 'main' });
  }
  return probes;
}

/** The answers of `probes` from the server at `baseUrl` (or in-process), each as { status, body }. */
async function answers(mock: MockApi, probes: readonly Probe[], baseUrl?: string) {
  const out: Record<string, { status: number; body: unknown }> = {};
  for (const probe of probes) {
    const { status, json, text } = await rawAnswer(mock, probe.path, { token: mock.tokens[probe.token], ...(baseUrl && { baseUrl }) });
    out[probe.label] = { status, body: json ?? text };
  }
  return out;
}

describe('snapshotWorld → createMockApi({ world }): a round trip', () => {
  const original = createMockApi({ seed: SEED, now: () => NOW }); // seeded, default counts
  let http: MockHttpServer;
  let snapshot: WorldSnapshot;
  let probes: Probe[];
  let expected: Awaited<ReturnType<typeof answers>>;

  beforeAll(async () => {
    http = await startMockHttpServer({ mock: original });
    snapshot = await snapshotWorld(mockClient(original, { baseUrl: http.url }), { progress: false });
    probes = await probesFor(original, pick(original.store), http);
    expected = await answers(original, probes, http.url);
  }, 60_000);
  afterAll(() => http.close());

  it('enumerates every data read of the endpoint table, each with data to answer', () => {
    expect(reads.map(({ name }) => name).filter((name) => !rowNamed.has(name))).toEqual([]);
    // The 64 requests less the four health probes (no token, no data), tokens.create and tokens.deactivate.
    expect(reads.length).toBe(58);
    // Each read answers 200 on the original with the ids picked, so equality below compares data.
    for (const { name } of reads) expect(expected[name]!.status, name).toBe(200);
    const lists = reads.filter(({ endpoint }) => endpoint.kind === 'page');
    for (const { name } of lists) expect((expected[name]!.body as { total: number }).total, name).toBeGreaterThan(0);
  });

  it('is versioned, plain JSON, and holds every group of the server', () => {
    expect(snapshot).toMatchObject({ version: 1, takenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    const main = original.store.main;
    expect(snapshot.server.id).toBe(main.info.id);
    expect(snapshot.members.length).toBe(main.members.size);
    expect(snapshot.logs.length).toBe(main.logs.size);
    expect(snapshot.applicationResponses.length).toBe(main.applicationResponses.size);
    expect(snapshot.accountLinks.length).toBe(main.links.size);
    expect(snapshot.departments.map((d) => d.members.length)).toEqual(
      main.departments.all().map((d) => main.departmentData.get(d.id)!.members.size),
    );
    expect(snapshot.cad!.notes.length).toBe(main.cad!.notes.size);
  });

  it('served in-process, answers every read request as the original did', async () => {
    const served = createMockApi({ world: snapshot, seed: SEED, now: () => NOW, tokens: 'seeded' });
    expect(served.tokens).toEqual(original.tokens); // the mock's own five tokens, scoped to the snapshot's server
    expect(await answers(served, probes)).toEqual(expected);
    // The snapshot is the served mock's starting state: the activity changes it, reset() brings it back.
    served.activity.step(50);
    expect(await answers(served, probes)).not.toEqual(expected);
    served.reset();
    expect(await answers(served, probes)).toEqual(expected);
  });

  it('served in-process, is under fresh random tokens unless they are asked for seeded: a real server’s data is never under public ones', async () => {
    const [served, again] = [createMockApi({ world: snapshot, seed: SEED }), createMockApi({ world: snapshot, seed: SEED })];
    const seededSecrets = Object.values(original.tokens);
    for (const [role, secret] of Object.entries(served.tokens)) {
      expect(secret, role).toMatch(/^cst_[A-Za-z0-9]{40}$/);
      expect(seededSecrets, role).not.toContain(secret);
      expect(Object.values(again.tokens), role).not.toContain(secret);
    }
    const info = (mock: MockApi, token: string) => rawAnswer(mock, '/api/v1/server/info', { token });
    expect((await info(served, served.tokens.main)).status).toBe(200);
    expect((await info(served, original.tokens.main)).status).toBe(401);
    // The API's own new tokens are no seed's either; reset() keeps the five (tests hold them).
    const created = await mockClient(served).tokens.create({ name: 'new' });
    const twin = await mockClient(again).tokens.create({ name: 'new' });
    expect(created.token).toMatch(/^cst_[A-Za-z0-9]{40}$/);
    expect(created.token).not.toBe(twin.token);
    const before = { ...served.tokens };
    served.reset();
    expect(served.tokens).toEqual(before);
    expect((await info(served, served.tokens.readOnly)).status).toBe(200);
    // A seeded world may ask for random tokens too; a bad choice is refused.
    expect(createMockApi({ tokens: 'random' }).tokens.main).not.toBe(createMockApi().tokens.main);
    expect(() => createMockApi({ tokens: 'fixed' as never })).toThrow('tokens must be "seeded" or "random", got "fixed"');
  });

  it('served by the bin with --world, answers every read request as the original did', async () => {
    const file = join(dir, 'world.json');
    writeFileSync(file, JSON.stringify(snapshot));
    const bin = startBin(['--port', '0', '--seed', String(SEED), '--world', file, '--tokens', 'seeded']);
    try {
      const banner = await bin.ready;
      expect(banner).toContain(`world ${file}`);
      const url = /listening on (\S+)/.exec(banner)![1]!;
      // The bin keeps the real clock: a token's last use is the only answer that tells the time.
      const unclocked = (all: typeof expected) => JSON.parse(JSON.stringify(all).replace(/"lastUsedAt":\d+/g, '"lastUsedAt":"a time"'));
      expect(unclocked(await answers(original, probes, url))).toEqual(unclocked(expected));
    } finally {
      bin.child.kill();
    }
  }, 30_000);

  it('served by the bin with --world, prints fresh random tokens each start; the seed’s open nothing', async () => {
    const file = join(dir, 'world-random.json');
    writeFileSync(file, JSON.stringify(snapshot));
    const printed = async () => {
      const bin = startBin(['--port', '0', '--seed', String(SEED), '--world', file]);
      try {
        const banner = await bin.ready;
        const url = /listening on (\S+)/.exec(banner)![1]!;
        const main = /^ {2}main +(\S+)$/m.exec(banner)![1]!;
        const status = async (token: string) =>
          (await fetch(`${url}/api/v1/server/info`, { headers: { authorization: `Bearer ${token}` } })).status;
        expect(await status(main)).toBe(200);
        expect(await status(original.tokens.main)).toBe(401);
        return main;
      } finally {
        bin.child.kill();
      }
    };
    const [first, second] = [await printed(), await printed()];
    expect(first).not.toBe(second);
    expect(first).not.toBe(original.tokens.main);
    const { code, stderr } = await startBin(['--port', '0', '--world', file, '--tokens', 'fixed']).exit;
    expect(code).toBe(2);
    expect(stderr).toContain('--tokens must be "seeded" or "random", got "fixed"');
  }, 30_000);

  it('writes no token secret: the five tokens’ secrets appear nowhere in it', () => {
    const text = JSON.stringify(snapshot);
    for (const secret of Object.values(original.tokens)) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/cst_[A-Za-z0-9]{40}/);
  });

  it('of a server without CAD, records none; served, CAD answers 404 as it did', async () => {
    const noCad = await snapshotWorld(mockClient(original, { token: original.tokens.noCad }), { progress: false });
    expect(noCad.cad).toBeNull();
    expect(noCad.server.id).toBe(original.store.noCad.info.id);
    const served = createMockApi({ world: noCad });
    const answer = await rawAnswer(served, '/api/v1/server/cad/calls');
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe('cad_not_found');
    expect((await rawAnswer(served, '/api/v1/server/members?pageSize=1')).json.total).toBe(original.store.noCad.members.size);
  });
});

describe('snapshotWorld options', () => {
  const mock = createMockApi({ counts: { members: 12, logs: 30 } });

  it('draws a progress line on a TTY, and nothing on a pipe', async () => {
    const drawn: string[] = [];
    await snapshotWorld(mockClient(mock), { progress: { isTTY: true, write: (text: string) => drawn.push(text) } });
    expect(drawn.some((line) => line.includes('snapshot: members…'))).toBe(true);
    // The line is redrawn in place: carriage return, then ESC [2K (erase the line).
    expect(drawn.at(-1)!.startsWith('\r\u001b[2K')).toBe(true);
    expect(drawn.at(-1)!.slice(5)).toMatch(/^snapshot of ".+" taken: [\d,]+ rows in [\d.]+ s\n$/);
    const piped: string[] = [];
    await snapshotWorld(mockClient(mock), { progress: { isTTY: false, write: (text: string) => piped.push(text) } });
    expect(piped).toEqual([]);
  });

  it('accountLinks: false skips the per-member lookups', async () => {
    const asked = mock.store.main.members.size;
    const snapshot = await snapshotWorld(mockClient(mock), { progress: false, accountLinks: false });
    expect(snapshot.accountLinks).toEqual([]);
    expect(snapshot.members.length).toBe(asked);
  });

  it('refuses bad options before any request', () => {
    const client = mockClient(mock);
    expect(() => snapshotWorld(client, { concurrency: 0 })).toThrow(InvalidArgumentError);
    expect(() => snapshotWorld(client, { concurrency: 0 })).toThrow('concurrency must be a whole number ≥ 1, got 0');
    expect(() => snapshotWorld(client, { pages: 2 } as never)).toThrow('unknown snapshotWorld option "pages"');
    expect(() => snapshotWorld({} as never)).toThrow('client must be a CommunityServerClient');
  });
});

describe('a bad snapshot', () => {
  let good: WorldSnapshot;
  beforeAll(async () => {
    good = await snapshotWorld(mockClient(createMockApi({ counts: { members: 8 } })), { progress: false });
  });
  const broken = (change: (snapshot: any) => void) => {
    const copy = structuredClone(good) as any;
    change(copy);
    return copy;
  };

  it('createMockApi({ world }) names the path inside it', () => {
    const misdated = broken((s) => (s.members[3].createdAt = 'yesterday'));
    expect(() => createMockApi({ world: misdated })).toThrow(InvalidArgumentError);
    expect(() => createMockApi({ world: misdated })).toThrow('world.members[3].createdAt: expected number');
    expect(() => createMockApi({ world: broken((s) => (s.departments[1].ranks[0].position = null)) })).toThrow(
      'world.departments[1].ranks[0].position: ',
    );
    expect(() => createMockApi({ world: broken((s) => (s.version = 2)) })).toThrow(
      'world.version: this SDK reads snapshot version 1, got 2',
    );
    expect(() => createMockApi({ world: broken((s) => delete s.cad) })).toThrow('world.cad: ');
    expect(() => createMockApi({ world: good, counts: { members: 1 } })).toThrow('pass one or the other');
  });

  it('the bin names the file and the path inside it, and exits 2', async () => {
    const cases = [
      { name: 'not-json.json', text: '{"version": 1,', says: /not-json\.json: not JSON/ },
      {
        name: 'version.json',
        text: JSON.stringify(broken((s) => (s.version = 2))),
        says: /version\.json: not a world snapshot: version: this SDK reads snapshot version 1, got 2/,
      },
      {
        name: 'deep.json',
        text: JSON.stringify(broken((s) => (s.cad.calls[5].createdAt = 'noon'))),
        says: /deep\.json: not a world snapshot: cad\.calls\[5\]\.createdAt: expected number/,
      },
    ];
    for (const { name, text, says } of cases) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const { code, stderr } = await startBin(['--port', '0', '--world', file]).exit;
      expect(code, name).toBe(2);
      expect(stderr.split('\n')[0], name).toMatch(says);
    }
    const { code, stderr } = await startBin(['--world', join(dir, 'absent.json')]).exit;
    expect(code).toBe(2);
    expect(stderr).toMatch(/absent\.json: cannot read it \(ENOENT\)/);
  });
});

describe('community-server-mock snapshot --out', () => {
  const original = createMockApi({ counts: { members: 30, logs: 40, applicationResponses: 30 } });
  let http: MockHttpServer;
  beforeAll(async () => {
    http = await startMockHttpServer({ mock: original });
  });
  afterAll(() => http.close());
  const { COMMUNITY_SERVER_TOKEN: _token, COMMUNITY_SERVER_BASE_URL: _url, ...cleanEnv } = process.env;

  it('writes a file that --world serves', async () => {
    const file = join(dir, 'taken.json');
    const env = { ...cleanEnv, COMMUNITY_SERVER_TOKEN: original.tokens.main, COMMUNITY_SERVER_BASE_URL: http.url };
    const run = await startBin(['snapshot', '--out', file], env).exit;
    expect(run.stderr).toBe(''); // not a TTY: no progress line
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`wrote ${file}: server "${original.store.main.info.name}", 30 members, 40 logs`);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    for (const secret of Object.values(original.tokens)) expect(JSON.stringify(written)).not.toContain(secret);
    const direct = await snapshotWorld(mockClient(original), { progress: false });
    expect({ ...written, takenAt: 'then' }).toEqual({ ...direct, takenAt: 'then' });

    const bin = startBin(['--port', '0', '--world', file, '--tokens', 'seeded']);
    try {
      const url = /listening on (\S+)/.exec(await bin.ready)![1]!;
      for (const path of ['/api/v1/server/members?pageSize=100', '/api/v1/server/info', '/api/v1/server/logs?page=2']) {
        const [served, from] = await Promise.all([
          rawAnswer(original, path, { baseUrl: url }),
          rawAnswer(original, path, { baseUrl: http.url }),
        ]);
        expect(served.status, path).toBe(200);
        expect(served.json, path).toEqual(from.json);
      }
    } finally {
      bin.child.kill();
    }
  }, 30_000);

  it('without the token or base URL in the environment, says which in one line and exits 2', async () => {
    const noToken = await startBin(['snapshot', '--out', join(dir, 'x.json')], { ...cleanEnv, COMMUNITY_SERVER_BASE_URL: http.url }).exit;
    expect(noToken.code).toBe(2);
    expect(noToken.stderr.split('\n')[0]).toBe(
      'community-server-mock snapshot: set COMMUNITY_SERVER_TOKEN to the API token of the server to copy',
    );
    const noUrl = await startBin(['snapshot', '--out', join(dir, 'x.json')], { ...cleanEnv, COMMUNITY_SERVER_TOKEN: original.tokens.main })
      .exit;
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr.split('\n')[0]).toMatch(/^community-server-mock snapshot: set COMMUNITY_SERVER_BASE_URL to /);
    const noOut = await startBin(['snapshot'], cleanEnv).exit;
    expect(noOut.code).toBe(2);
    expect(noOut.stderr.split('\n')[0]).toBe('community-server-mock snapshot: --out FILE is required (where to write the snapshot)');
  });

  it('a server that refuses the token: the reason in one line, exit 1, no file', async () => {
    const file = join(dir, 'refused.json');
    const run = await startBin(['snapshot', '--out', file], {
      ...cleanEnv,
      COMMUNITY_SERVER_TOKEN: original.tokens.revoked,
      COMMUNITY_SERVER_BASE_URL: http.url,
    }).exit;
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toBe('community-server-mock snapshot: AuthenticationError: invalid or expired token\n');
    expect(run.stderr).not.toContain(original.tokens.revoked);
    expect(() => readFileSync(file)).toThrow();
  });
});

describe('a live list that shifts while snapshotWorld reads it', () => {
  it('keeps a row seen on two pages once, so the snapshot is a world createMockApi takes', async () => {
    const source = createMockApi({ seed: 3, counts: { members: 150 } });
    let shifted = false;
    // After the first page of members is answered, a new member joins: newest first, every later
    // page starts one row further back, and the last row of page 1 is read again on page 2.
    const shifting: typeof fetch = async (input, init) => {
      const response = await source.fetch(input, init);
      if (!shifted && String(input instanceof Request ? input.url : input).includes('/server/members')) {
        shifted = true;
        const newest = Math.max(...source.store.main.members.all().map((member) => member.createdAt));
        source.store.main.members.create({ createdAt: newest + 1 });
      }
      return response;
    };
    const world = await snapshotWorld(mockClient(source, { fetch: shifting }), { progress: false, concurrency: 1 });
    const ids = world.members.map((member) => member.id);
    expect(shifted).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(150);
    expect(() => createMockApi({ world })).not.toThrow();
  });
});
