/**
 * The response cache (issue 24, item 2), off by default: hits, `reload`, `no-store`,
 * `invalidate`, TTL and LRU bounds, entries keyed by the token's identity, errors never cached,
 * a failing store, and `watch()` items standing for their `get`.
 */
import { CommunityServerClient, InvalidArgumentError, ServiceUnavailableError, type CacheStore, type Token } from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runBot } from '../../bench/cache';
import { MOCK_ORIGIN, heldAnswers, mockClient, yieldedAfterInvalidation } from '../helpers';

afterEach(() => {
  vi.useRealTimers();
});

const gets = (mock: MockApi, endpoint = 'members.get') => mock.requests.filter((request) => request.endpoint === endpoint).length;

/**
 * A store of the test's own, in a Map it can look into; `fail` makes every method throw. Its
 * epoch counts invalidations, and `set` stores only under the current one (the fence), or
 * when given none: a test then sees what a client that does not fence would leave.
 */
function mapStore() {
  const entries = new Map<string, string>();
  const state = { fail: false, invalidations: 0 };
  const check = () => {
    if (state.fail) throw new Error('store down');
  };
  const store: CacheStore = {
    get: (key) => (check(), entries.get(key)),
    set: (key, value, _ttlMs, epoch) => {
      check();
      if (epoch === undefined || epoch === String(state.invalidations)) entries.set(key, value);
    },
    invalidate: (prefix) => {
      check();
      state.invalidations++;
      for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
    },
    epoch: () => (check(), String(state.invalidations)),
  };
  return { store, entries, state };
}

/** Waits (up to 5 s) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5_000; !condition();) {
    if (Date.now() > deadline) throw new Error('not within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('hits', () => {
  it('off by default: every call is a request', async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    const id = mock.store.main.members.all()[0]!.id;
    await client.members.get(id);
    await client.members.get(id);
    expect(gets(mock)).toBe(2);
    expect(client.cache.stats()).toEqual({ hits: 0, misses: 2, coalesced: 0 });
  });

  it('a second members.get is answered from the cache: no request, an equal copy of its own, stats count it', async () => {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    const id = mock.store.main.members.all()[0]!.id;
    const first = await client.members.get(id);
    const second = await client.members.get(id);
    const third = await client.members.get(id);
    expect(gets(mock)).toBe(1);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    second.username = 'changed';
    expect(third.username).toBe(first.username);
    expect(client.cache.stats()).toEqual({ hits: 2, misses: 1, coalesced: 0 });
  });

  it("withResponse() of a hit: the stored status, x-cache: hit and age, and none of the service's headers", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    const id = mock.store.main.members.all()[0]!.id;
    const miss = await client.members.get(id).withResponse();
    expect(miss.response.headers.get('x-cache')).toBeNull();
    expect(miss.response.headers.get('content-type')).toMatch(/^application\/json/);
    vi.advanceTimersByTime(3_500);
    const hit = await client.members.get(id).withResponse();
    expect(hit.data).toEqual(miss.data);
    expect(hit.response.status).toBe(200);
    expect(Object.fromEntries(hit.response.headers)).toEqual({ 'content-type': 'application/json', 'x-cache': 'hit', age: '3' });
    expect(hit.response).toBe(hit.response);
  });

  it('pages are cached like any GET, the query in their key, and a for-await walk reads them', async () => {
    const mock = createMockApi({ counts: { members: 25 } });
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    const walk = async () => {
      const ids: string[] = [];
      for await (const member of client.members.list({ pageSize: 10 })) ids.push(member.id);
      return ids;
    };
    const first = await walk();
    expect(await walk()).toEqual(first);
    expect(mock.requests).toHaveLength(3);
    await client.members.list({ pageSize: 5 });
    expect(mock.requests).toHaveLength(4);
  });
});

describe('health is never cached', () => {
  it('with a cache, every probe asks the service each time, calls at once do not share, and a change shows at once', async () => {
    const mock = createMockApi();
    const { store, entries } = mapStore();
    const client = mockClient(mock, { cache: { ttlMs: 60_000, store } });
    await client.members.list(); // the token's identity is known: a store that answers at once is asked in the call
    for (const probe of ['check', 'live', 'metrics', 'ready'] as const) {
      await client.health[probe]();
      const again = await client.health[probe]().withResponse();
      expect(again.response.headers.get('x-cache'), probe).toBeNull();
    }
    await Promise.all([client.health.ready(), client.health.ready()]);
    expect(mock.requests.filter((request) => request.endpoint?.startsWith('health.'))).toHaveLength(10);
    expect([...entries.keys()].filter((key) => key.includes(':health.'))).toEqual([]);
    mock.setHealth({ ready: false });
    await expect(client.health.ready()).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(client.cache.stats()).toEqual({ hits: 0, misses: 12, coalesced: 0 });
  });
});

describe('per call: reload and no-store', () => {
  it("'reload' fetches and stores; 'no-store' fetches and leaves the entry as it was", async () => {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    const id = mock.store.main.members.all()[0]!.id;
    await client.members.get(id);
    mock.store.main.members.update(id, { username: 'renamed' });
    expect((await client.members.get(id)).username).not.toBe('renamed'); // still the entry
    expect((await client.members.get(id, { cache: 'no-store' })).username).toBe('renamed');
    expect((await client.members.get(id)).username).not.toBe('renamed'); // no-store left it
    expect((await client.members.get(id, { cache: 'reload' })).username).toBe('renamed');
    expect((await client.members.get(id)).username).toBe('renamed'); // reload stored it
    expect(gets(mock)).toBe(3);
    expect(client.cache.stats()).toEqual({ hits: 3, misses: 3, coalesced: 0 });
  });

  it('a bad cache mode is refused before sending', async () => {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    // @ts-expect-error: not a mode
    await expect(client.members.get('m1', { cache: 'force-cache' })).rejects.toThrow(
      new InvalidArgumentError(`cache must be 'default', 'reload' or 'no-store', got "force-cache"`),
    );
    expect(mock.requests).toHaveLength(0);
  });
});

describe('bounds: TTL and LRU', () => {
  it('an entry older than ttlMs is fetched again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 1_000 } });
    const id = mock.store.main.members.all()[0]!.id;
    await client.members.get(id);
    vi.advanceTimersByTime(999);
    await client.members.get(id);
    expect(gets(mock)).toBe(1);
    vi.advanceTimersByTime(1);
    await client.members.get(id);
    expect(gets(mock)).toBe(2);
  });

  it('past maxEntries the least recently used entry goes', async () => {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000, maxEntries: 2 } });
    const [a, b, c] = mock.store.main.members.all().map((member) => member.id);
    await client.members.get(a!);
    await client.members.get(b!);
    await client.members.get(a!); // a is now the most recent
    await client.members.get(c!); // b goes
    expect(gets(mock)).toBe(3);
    await client.members.get(a!);
    await client.members.get(c!);
    expect(gets(mock)).toBe(3);
    await client.members.get(b!);
    expect(gets(mock)).toBe(4);
  });
});

describe('invalidate', () => {
  async function primed() {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    const id = mock.store.main.members.all()[0]!.id;
    const warm = async () => {
      await client.members.get(id);
      await client.members.chatId(id).catch(() => undefined);
      await client.members.list();
      await client.roles.list();
    };
    await warm();
    let from = mock.requests.length;
    /** The endpoints requested since the last look. */
    const sent = () => {
      const since = mock.requests.slice(from).map((request) => request.endpoint);
      from = mock.requests.length;
      return since;
    };
    return { client, warm, sent };
  }

  it("'members.get': that method; 'members': every members.* call; '' or nothing: everything", async () => {
    const { client, warm, sent } = await primed();
    await client.cache.invalidate('members.get');
    await warm();
    expect(sent()).toEqual(['members.get']);
    await client.cache.invalidate('members');
    await warm();
    expect(sent()).toEqual(['members.get', 'members.chatId', 'members.list']);
    await client.cache.invalidate();
    await warm();
    expect(sent()).toEqual(['members.get', 'members.chatId', 'members.list', 'roles.list']);
  });

  it("a group's prefix is a whole name: 'members' leaves departments.members, and 'member' names nothing", async () => {
    const { client } = await primed();
    await expect(client.cache.invalidate('member')).rejects.toThrow(InvalidArgumentError);
    await expect(client.cache.invalidate('members.')).rejects.toThrow(InvalidArgumentError);
    // @ts-expect-error: not a string
    await expect(client.cache.invalidate(42)).rejects.toThrow(InvalidArgumentError);
    await expect(client.cache.invalidate('cad.calls')).resolves.toBeUndefined();
    await expect(client.cache.invalidate('tokens.create')).resolves.toBeUndefined(); // a method, never cached: nothing to drop
  });

  it('after tokens.create, invalidate("tokens"): tokens.list shows the new token', async () => {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    const ids = async () => ((await client.tokens.list()) as Token[]).map((token) => token.id);
    const before = await ids();
    const created = await client.tokens.create({ name: 'ci bot' });
    expect(await ids()).toEqual(before); // the entry, as stored
    await client.cache.invalidate('tokens');
    expect(await ids()).toContain(created.id);
  });

  it('a request in flight when invalidate runs stores nothing, and a call after it does not join it', async () => {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    const id = mock.store.main.members.all()[0]!.id;
    mock.faults.add({ endpoint: 'members.get', latencyMs: 50, times: 1 });
    const inFlight = client.members.get(id);
    await new Promise((resolve) => setTimeout(resolve, 10));
    mock.store.main.members.update(id, { username: 'renamed' });
    await client.cache.invalidate('members.get');
    const after = client.members.get(id);
    expect((await after).username).toBe('renamed');
    await inFlight;
    expect((await client.members.get(id)).username).toBe('renamed');
    expect(gets(mock)).toBe(2);
  });
});

describe('an answer fetched before an invalidation is never stored after it', () => {
  it('two clients on one store (two processes, say): a slow reload of one, a write and invalidate by the other', async () => {
    const mock = createMockApi();
    const { store } = mapStore();
    const { fetch, held } = heldAnswers(mock, '/api/v1/tokens');
    const slowShard = mockClient(mock, { fetch, cache: { ttlMs: 60_000, store } });
    const otherShard = mockClient(mock, { cache: { ttlMs: 60_000, store } });
    const ids = async (client: CommunityServerClient) => ((await client.tokens.list()) as Token[]).map((token) => token.id);
    const before = await ids(otherShard);
    const reload = slowShard.tokens.list({ cache: 'reload' });
    await until(() => held.count === 1); // answered before the write
    const created = await otherShard.tokens.create({ name: 'ci bot' });
    await otherShard.cache.invalidate('tokens');
    held.release();
    expect(((await reload) as Token[]).map((token) => token.id)).toEqual(before);
    expect(await ids(otherShard)).toContain(created.id);
    expect(await ids(slowShard)).toContain(created.id);
  });

  it('an item a watch yields after an invalidation, read by a poll before it, is not kept as its get', async () => {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    const controller = new AbortController();
    const feed = client.members.list().watch({ intervalMs: 20, signal: controller.signal });
    const { first, firstYielded, second, yielded } = await yieldedAfterInvalidation(mock, client, feed);
    controller.abort();
    expect(firstYielded).toMatchObject({ id: first.id });
    expect(yielded).toMatchObject({ id: second.id, username: second.username }); // as the poll read it
    expect((await client.members.get(second.id)).username).toBe('renamed');
    expect((await client.members.get(first.id)).id).toBe(first.id);
  });

  it('a store that cannot fence (no epoch method) is refused, naming the methods a store needs', () => {
    const unfenced = { get: () => undefined, set: () => {}, invalidate: () => {} };
    const construct = () => new CommunityServerClient({ baseUrl: MOCK_ORIGIN, cache: { ttlMs: 1_000, store: unfenced as never } });
    expect(construct).toThrow(InvalidArgumentError);
    expect(construct).toThrow('cache.store must be a CacheStore (get, set, invalidate and epoch methods)');
  });
});

describe("a hit from a shared store gives what the reader's own validation gives", () => {
  /** `mock.fetch`, its members answering `createdAt: "yesterday"`: a service that broke its schema. */
  const yesterday = (mock: MockApi) => async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = (await (await mock.fetch(input, init)).json()) as Record<string, unknown>;
    return new Response(JSON.stringify({ ...body, createdAt: 'yesterday' }), { headers: { 'content-type': 'application/json' } });
  };

  it("'error' never returns what an 'off' client stored: a miss, fetched and checked; 'warn' returns it, warning", async () => {
    const mock = createMockApi();
    const { store } = mapStore();
    const id = mock.store.main.members.all()[0]!.id;
    const loose = mockClient(mock, { validation: 'off', fetch: yesterday(mock), cache: { ttlMs: 60_000, store } });
    const strict = mockClient(mock, { cache: { ttlMs: 60_000, store } });
    const lines: string[] = [];
    const logger = { error: () => {}, warn: (line: string) => lines.push(line), info: () => {}, debug: () => {} };
    const warning = mockClient(mock, { validation: 'warn', logger, cache: { ttlMs: 60_000, store } });
    await strict.server.info(); // the identity known: the store is asked in the call itself
    await warning.server.info();
    expect((await loose.members.get(id)).createdAt).toBe('yesterday');
    expect((await warning.members.get(id)).createdAt).toBe('yesterday');
    expect(lines.join('\n')).toContain('createdAt');
    expect(warning.cache.stats().hits).toBe(2); // server.info, as strict stored it, and the member
    const member = await strict.members.get(id);
    expect(typeof member.createdAt).toBe('number');
    expect(strict.cache.stats()).toEqual({ hits: 0, misses: 2, coalesced: 0 });
    expect(await strict.members.get(id)).toEqual(member); // its answer replaced the entry
    expect(strict.cache.stats().hits).toBe(1);
  });

  it("an entry planted in the store: a member that is null is a miss under 'error' (under 'off', null); a page that cannot be paged, under both", async () => {
    const mock = createMockApi();
    const { store, entries } = mapStore();
    const id = mock.store.main.members.all()[0]!.id;
    const writer = mockClient(mock, { cache: { ttlMs: 60_000, store } });
    await writer.members.get(id);
    await writer.members.list();
    const plant = (endpoint: string, d: unknown) => {
      const text = JSON.stringify({ v: 1, s: 200, t: Date.now(), d });
      for (const key of entries.keys()) if (key.includes(`:${endpoint}:`)) entries.set(key, text);
    };
    plant('members.get', null);
    plant('members.list', { data: 'abc', page: 1, pageSize: 3, total: 3, totalPages: 1 });
    const strict = mockClient(mock, { cache: { ttlMs: 60_000, store } });
    expect(await strict.members.get(id)).toMatchObject({ id });
    expect((await strict.members.list()).data.length).toBeGreaterThan(3);
    expect(strict.cache.stats()).toEqual({ hits: 0, misses: 2, coalesced: 0 });
    plant('members.get', null);
    plant('members.list', { data: 'abc', page: 1, pageSize: 3, total: 3, totalPages: 1 });
    const loose = mockClient(mock, { validation: 'off', cache: { ttlMs: 60_000, store } });
    expect(await loose.members.get(id)).toBeNull(); // what 'off' gives for that body
    expect((await loose.members.list()).data.length).toBeGreaterThan(3); // never a string walked as a list
    expect(loose.cache.stats()).toEqual({ hits: 1, misses: 1, coalesced: 0 });
  });
});

describe('entries are keyed by the token, never holding it', () => {
  it('two tokens on one store never see each other’s entries; the keys hold a hash, not the token', async () => {
    const mock = createMockApi();
    const { store, entries } = mapStore();
    const main = mockClient(mock, { cache: { ttlMs: 60_000, store } });
    const readOnly = mockClient(mock, { token: mock.tokens.readOnly, cache: { ttlMs: 60_000, store } });
    const id = mock.store.main.members.all()[0]!.id;
    await main.members.get(id);
    await readOnly.members.get(id);
    await main.members.get(id);
    await readOnly.members.get(id);
    expect(mock.requests.map((request) => request.token)).toEqual(['main', 'readOnly']);
    expect(entries.size).toBe(2);
    const dump = JSON.stringify([...entries]);
    for (const token of [mock.tokens.main, mock.tokens.readOnly]) {
      for (let i = 0; i + 8 <= token.length; i++) expect(dump).not.toContain(token.slice(i, i + 8));
    }
    expect([...entries.keys()].every((key) => /^[0-9a-f]{32}:members\.get:\/api\/v1\/server\/members\//.test(key))).toBe(true);
    // One token's invalidate leaves the other's entries.
    await main.cache.invalidate();
    expect(entries.size).toBe(1);
  });

  it.each([
    ['a path that holds the token (a careless id) and an answer that echoes it', 'cs_test_5f2b9c1e7a'],
    ['nor a token that a path percent-encodes or JSON escapes (a token with "/", "+" or a quote)', 'cs/test+5f2b"9c1e7a'],
  ])('%s: never cached', async (_, token) => {
    const echo = async (input: RequestInfo | URL) =>
      new Response(JSON.stringify({ id: new Request(input).url.split('/').pop(), serverId: 's', roles: [], createdAt: 1, note: token }), {
        headers: { 'content-type': 'application/json' },
      });
    const { store, entries } = mapStore();
    const client = new CommunityServerClient({ token, baseUrl: MOCK_ORIGIN, fetch: echo, cache: { ttlMs: 60_000, store } });
    await client.members.get(token);
    await client.members.get('m1');
    expect(entries.size).toBe(0);
  });
});

describe('what a store holds is checked', () => {
  it('text that is not an entry (damaged, another format, no result) is a miss: the call goes to the service', async () => {
    const mock = createMockApi();
    const id = mock.store.main.members.all()[0]!.id;
    for (const stored of ['not json', '{"v":2,"s":200,"t":1,"d":{}}', '{"v":1,"s":200,"t":1}', '{"v":1,"s":"200","t":1,"d":{}}', 'null']) {
      const store: CacheStore = { get: () => stored, set: () => {}, invalidate: () => {}, epoch: () => '0' };
      const client = mockClient(mock, { cache: { ttlMs: 60_000, store } });
      await client.members.get(id); // the identity is known from here on
      const before = gets(mock);
      expect(await client.members.get(id), stored).toMatchObject({ id });
      expect(gets(mock), stored).toBe(before + 1);
    }
  });
});

describe('a status no answer of the service has', () => {
  it('an entry with one (99, 1000, 404, 200.5) is a miss, not a hit that throws or shows it', async () => {
    const mock = createMockApi();
    const { store, entries } = mapStore();
    const client = mockClient(mock, { cache: { ttlMs: 60_000, store } });
    const id = mock.store.main.members.all()[0]!.id;
    await client.members.get(id);
    const [key, text] = [...entries][0]!;
    for (const status of [99, 1000, 404, 200.5]) {
      entries.set(key, JSON.stringify({ ...(JSON.parse(text) as object), s: status }));
      const { data, response } = await client.members.get(id).withResponse();
      expect(data.id).toBe(id);
      expect(response.status, String(status)).toBe(200);
      expect(response.headers.get('x-cache'), String(status)).toBeNull();
    }
    expect(gets(mock)).toBe(5);
  });
});

describe('a store that answers later (a promise)', () => {
  it('is asked once a call: a miss, then the set; a hit, and nothing else', async () => {
    const mock = createMockApi();
    const { store: inner, entries } = mapStore();
    const asked: string[] = [];
    const store: CacheStore = {
      get: async (key) => (asked.push('get'), inner.get(key)),
      set: async (key, value, ttlMs, epoch) => (asked.push('set'), inner.set(key, value, ttlMs, epoch)),
      invalidate: async (prefix) => inner.invalidate(prefix),
      epoch: async (scope) => inner.epoch(scope),
    };
    const client = mockClient(mock, { cache: { ttlMs: 60_000, store } });
    const id = mock.store.main.members.all()[0]!.id;
    await client.members.get(id); // the first call waits for the token's identity
    await client.members.get(id);
    expect(entries.size).toBe(1);
    asked.length = 0;
    await client.cache.invalidate();
    await client.members.get(id);
    await client.members.get(id);
    expect(asked).toEqual(['get', 'set', 'get']);
    expect(gets(mock)).toBe(2);
  });
});

describe('errors are not cached', () => {
  it('a 404 is asked again', async () => {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    await expect(client.members.get('nobody')).rejects.toThrow();
    await expect(client.members.get('nobody')).rejects.toThrow();
    expect(gets(mock)).toBe(2);
  });
});

describe('a store that fails', () => {
  it('warns once, answers from the service, and uses the store again once it answers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const mock = createMockApi();
    const { store, state } = mapStore();
    const lines: string[] = [];
    const logger = { error: () => {}, warn: (line: string) => lines.push(line), info: (line: string) => lines.push(line), debug: () => {} };
    const client = mockClient(mock, { cache: { ttlMs: 60_000, store }, logger, logLevel: 'info' });
    const id = mock.store.main.members.all()[0]!.id;
    state.fail = true;
    await client.members.get(id);
    await client.members.get(id);
    vi.advanceTimersByTime(1_000);
    await client.members.get(id);
    expect(gets(mock)).toBe(3);
    expect(lines.filter((line) => line.includes('failed'))).toEqual([
      'community-server-sdk: the cache store failed (store down); answering from the service until it answers again',
    ]);
    state.fail = false;
    vi.advanceTimersByTime(1_000);
    await client.members.get(id);
    await client.members.get(id);
    expect(gets(mock)).toBe(4);
    expect(lines.at(-1)).toBe('community-server-sdk: the cache store answers again');
    expect(lines.join('\n')).not.toContain(mock.tokens.main);
  });

  it('a store that never answers holds a call half a second at most', async () => {
    const mock = createMockApi();
    const hung: CacheStore = {
      get: () => new Promise(() => {}),
      set: () => new Promise(() => {}),
      invalidate: () => new Promise(() => {}),
      epoch: () => new Promise(() => {}),
    };
    const client = mockClient(mock, { cache: { ttlMs: 60_000, store: hung }, logLevel: 'off' });
    const started = performance.now();
    await client.members.list();
    expect(performance.now() - started).toBeLessThan(2_000);
    await expect(client.cache.invalidate()).rejects.toThrow('the cache store failed to invalidate every entry (no answer within 500 ms)');
  });
});

describe('the cache option', () => {
  it('is checked at construction', () => {
    const bad: [unknown, string][] = [
      [{}, 'cache needs ttlMs'],
      [{ ttlMs: 0 }, 'cache.ttlMs must be a number of milliseconds'],
      [{ ttlMs: 1_000, maxEntries: 0 }, 'cache.maxEntries must be a whole number ≥ 1, got 0'],
      [{ ttlMs: 1_000, store: {} }, 'cache.store must be a CacheStore'],
      [{ ttlMs: 1_000, store: mapStore().store, maxEntries: 10 }, 'cache.maxEntries bounds the in-process store'],
      [{ ttlMs: 1_000, lru: true }, 'unknown cache option "lru"'],
      ['5m', 'cache options must be an object'],
    ];
    for (const [cache, message] of bad) {
      const construct = () => new CommunityServerClient({ baseUrl: MOCK_ORIGIN, cache: cache as never });
      expect(construct, message).toThrow(InvalidArgumentError);
      expect(construct).toThrow(message);
    }
  });
});

describe('watch() items replace the cached get of the same item', () => {
  it('a new member a watch yields is what members.get answers from then on, without a request', async () => {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    const controller = new AbortController();
    const feed = client.members.list().watch({ intervalMs: 20, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const joined = mock.store.main.members.create({ createdAt: Math.floor(Date.now() / 1000) + 1 }); // newer than every seeded member
    const { value } = await feed.next();
    controller.abort();
    expect(value).toMatchObject({ id: joined.id });
    const before = gets(mock);
    expect(await client.members.get(joined.id)).toEqual(value);
    expect(gets(mock)).toBe(before);
  });

  it("department members too: the get's path takes the list's departmentId and the item's id", async () => {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    const department = mock.store.main.departments.all()[0]!;
    const controller = new AbortController();
    const feed = client.departments.members.list(department.id).watch({ intervalMs: 20, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const inside = mock.store.main.departmentData.get(department.id)!;
    const joined = inside.members.create({ createdAt: Math.floor(Date.now() / 1000) + 1 });
    const { value } = await feed.next();
    controller.abort();
    expect(value).toMatchObject({ id: joined.id });
    const before = mock.requests.length;
    expect(await client.departments.members.get(department.id, joined.id)).toEqual(value);
    expect(mock.requests).toHaveLength(before);
  });

  it("a watch's polls skip the cache's pages, and a cached first page is not its baseline", async () => {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    await client.logs.list(); // cached
    const now = Math.floor(Date.now() / 1000) + 1; // newer than every seeded log
    const early = mock.store.main.logs.create({ createdAt: now }); // after the cached page, before the watch
    const controller = new AbortController();
    const feed = client.logs.list().watch({ intervalMs: 20, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const late = mock.store.main.logs.create({ createdAt: now + 1 });
    const { value } = await feed.next();
    controller.abort();
    expect(value).toMatchObject({ id: late.id }); // not `early`: the watch started after it
    expect(value).not.toMatchObject({ id: early.id });
  });
});

describe('the benchmark, short form (npm run bench:cache runs the full one)', () => {
  it('a bot answering 2,000 members.get over 100 distinct members, 50 at once, sends one request per member', async () => {
    const run = await runBot({ calls: 2_000, distinct: 100 });
    expect(run.distinct).toBe(100);
    expect(run.requests / run.distinct).toBeLessThanOrEqual(1.05);
    expect(run.requests).toBe(100);
  }, 60_000);
});
