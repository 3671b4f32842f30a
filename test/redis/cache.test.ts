/**
 * `redisCacheStore` against a real `redis-server` (issue 24, item 3), on ioredis and node-redis:
 * clients share entries; 4 processes asking for one member at once make 1 request; two tokens
 * never see each other's entries and nothing of a token is in Redis; `invalidate` reaches every
 * client's view; Redis unreachable, killed and restarted, or hung: no crash, no hang, a warning,
 * recovery.
 */
import { CommunityServerClient, InvalidArgumentError, type CacheStore, type Token } from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { redisCacheStore, redisFleet, type RedisClient } from 'community-server-sdk/redis';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { startWorker } from '../../bench/fleet';
import { useRedis, type Library } from './fixture';
import { heldAnswers, mockClient, yieldedAfterInvalidation } from '../helpers';
import { freePort } from './server';

const { closing, skipWithoutRedis, connect, hungRedis } = useRedis();
const libraries: Library[] = ['ioredis', 'redis'];

/** The mock over HTTP, closed after the test. */
async function httpMock(): Promise<{ mock: MockApi; http: MockHttpServer }> {
  const mock = createMockApi();
  const http = await startMockHttpServer({ mock });
  closing.push({ close: () => http.close() });
  return { mock, http };
}

const gets = (mock: MockApi) => mock.requests.filter((request) => request.endpoint === 'members.get').length;

/** Every key under `prefix` and its value, as text: what a look into Redis shows. */
async function dump(url: string, prefix: string): Promise<string> {
  const redis = new Redis(url);
  closing.push({ close: () => redis.disconnect() });
  const keys = await redis.keys(`${prefix}*`);
  const values = await Promise.all(
    keys.map(async (key) => ((await redis.type(key)) === 'hash' ? JSON.stringify(await redis.hgetall(key)) : await redis.get(key))),
  );
  return JSON.stringify([keys, values]);
}

/** Asserts `text` holds neither `token` nor any 8 characters of it in a row. */
function expectNothingOf(token: string, text: string): void {
  for (let i = 0; i + 8 <= token.length; i++) expect(text, `characters ${i}..${i + 8} of the token`).not.toContain(token.slice(i, i + 8));
}

describe('a cache shared in Redis', () => {
  for (const library of libraries) {
    it(`${library}: clients share entries; invalidate reaches every client's view`, async (context) => {
      const redis = skipWithoutRedis(context);
      const { mock, http } = await httpMock();
      const prefix = `test:share-${library}:`;
      const store = () => connect(library, redis.url).then((connection) => redisCacheStore(connection, { prefix }));
      const [a, b] = await Promise.all([store(), store()]);
      const client = (store: CacheStore) =>
        new CommunityServerClient({ token: mock.tokens.main, baseUrl: http.url, cache: { ttlMs: 60_000, store } });
      const [one, two] = [client(a), client(b)];
      const id = mock.store.main.members.all()[0]!.id;
      const first = await one.members.get(id);
      await waitFor(async () => (await dump(redis.url, prefix)).includes(':e:members.get:'));
      expect(await two.members.get(id)).toEqual(first);
      expect(gets(mock)).toBe(1);
      expect(two.cache.stats()).toEqual({ hits: 1, misses: 0, coalesced: 0 });
      const hit = await two.members.get(id).withResponse();
      expect(hit.response.headers.get('x-cache')).toBe('hit');
      mock.store.main.members.update(id, { username: 'renamed' });
      await one.cache.invalidate('members');
      expect((await two.members.get(id)).username).toBe('renamed');
      expect(gets(mock)).toBe(2);
    });
  }

  it('entries expire after ttlMs (PX), and a claim ends on its own', async (context) => {
    const redis = skipWithoutRedis(context);
    const { mock, http } = await httpMock();
    const prefix = 'test:ttl:';
    const store = redisCacheStore(await connect('ioredis', redis.url), { prefix, lockMs: 1_000 });
    const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: http.url, cache: { ttlMs: 2_000, store } });
    await client.members.list();
    const check = new Redis(redis.url);
    closing.push({ close: () => check.disconnect() });
    await waitFor(async () => (await check.keys(`${prefix}*:e:*`)).length === 1);
    const [entry] = await check.keys(`${prefix}*:e:*`);
    const ttl = await check.pttl(entry!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(2_000);
    expect(await check.keys(`${prefix}*:c:*`)).toEqual([]); // the set ended the claim
  });
});

/** `store`, with a look at its writes: `settled()` waits for every `set` begun so far. */
function watchedSets(store: CacheStore) {
  const pending: Promise<unknown>[] = [];
  const watched: CacheStore = {
    ...store,
    set: (...args) => {
      const done = Promise.resolve(store.set(...args));
      pending.push(done.catch(() => undefined));
      return done;
    },
  };
  return { store: watched, settled: () => Promise.all(pending) };
}

describe('an answer fetched before an invalidation is never stored after it, in any process', () => {
  /** Clients of one mock, each with its own connection and in-process state, sharing a cache in Redis. */
  async function shards(library: Library, url: string, lockMs = 5_000) {
    const mock = createMockApi();
    const prefix = `test:fence-${library}-${Math.random().toString(36).slice(2)}:`;
    const shard = async (fetch: typeof globalThis.fetch = mock.fetch) => {
      const { store, settled } = watchedSets(redisCacheStore(await connect(library, url), { prefix, lockMs }));
      return { client: mockClient(mock, { fetch, cache: { ttlMs: 60_000, store } }), settled };
    };
    const ids = async (client: CommunityServerClient) => ((await client.tokens.list()) as Token[]).map((token) => token.id);
    return { mock, shard, ids };
  }

  for (const library of libraries) {
    it(`${library}: a slow 'reload' in one process, a write and invalidate('tokens') in another: the old list is not stored`, async (context) => {
      const redis = skipWithoutRedis(context);
      const { mock, shard, ids } = await shards(library, redis.url);
      const { fetch, held } = heldAnswers(mock, '/api/v1/tokens');
      const [slow, writer] = [await shard(fetch), await shard()];
      const before = await ids(writer.client);
      const reload = slow.client.tokens.list({ cache: 'reload' });
      await waitFor(async () => held.count === 1); // answered before the write
      const created = await writer.client.tokens.create({ name: 'ci bot' });
      await writer.client.cache.invalidate('tokens');
      held.release();
      expect(((await reload) as Token[]).map((token) => token.id)).toEqual(before);
      await slow.settled();
      expect(await ids(writer.client)).toContain(created.id);
      expect(await ids(slow.client)).toContain(created.id);
    });

    it(`${library}: a request sent after its claim wait ran out, and one whose claim ran out before its answer: neither is stored`, async (context) => {
      const redis = skipWithoutRedis(context);
      const { mock, shard, ids } = await shards(library, redis.url, 300);
      const holding = heldAnswers(mock, '/api/v1/tokens');
      const waiting = heldAnswers(mock, '/api/v1/tokens');
      const [holder, waiter, writer] = [await shard(holding.fetch), await shard(waiting.fetch), await shard()];
      const claimed = holder.client.tokens.list(); // claims the key, then its answer is slow
      await waitFor(async () => holding.held.count === 1);
      const late = waiter.client.tokens.list(); // waits for the claim, then sends its own
      await waitFor(async () => waiting.held.count === 1);
      const created = await writer.client.tokens.create({ name: 'ci bot' });
      await writer.client.cache.invalidate('tokens');
      waiting.held.release();
      expect((await late) as Token[]).not.toContainEqual(expect.objectContaining({ id: created.id }));
      await waiter.settled();
      expect(await ids(writer.client)).toContain(created.id);
      holding.held.release();
      expect((await claimed) as Token[]).not.toContainEqual(expect.objectContaining({ id: created.id }));
      await holder.settled();
      expect(await ids(writer.client)).toContain(created.id);
      expect(await ids(holder.client)).toContain(created.id);
    });
  }
});

describe("a fleet's items are not kept as their get's answer", () => {
  it('an item read by a poll before an invalidation, yielded after it through the fleet, is fetched again', async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    const fleet = redisFleet(await connect('ioredis', redis.url), { prefix: 'test:fleet-items:' });
    const feed = client.members.list().watch({ fleet, intervalMs: 20 });
    closing.push({ close: () => feed.return() });
    const { first, firstYielded, second, yielded } = await yieldedAfterInvalidation(mock, client, feed);
    expect(firstYielded).toMatchObject({ id: first.id });
    expect(yielded).toMatchObject({ id: second.id, username: second.username }); // as the poll read it
    expect((await client.members.get(second.id)).username).toBe('renamed');
  });
});

describe("a hit from Redis gives what the reader's own validation gives", () => {
  it("what an 'off' shard stored, and a well-formed entry planted in Redis, are misses for an 'error' shard", async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = createMockApi();
    const prefix = 'test:validation:';
    const store = async () => redisCacheStore(await connect('ioredis', redis.url), { prefix });
    const yesterday = async (input: RequestInfo | URL, init?: RequestInit) => {
      const body = (await (await mock.fetch(input, init)).json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...body, createdAt: 'yesterday' }), { headers: { 'content-type': 'application/json' } });
    };
    const loose = mockClient(mock, { validation: 'off', fetch: yesterday, cache: { ttlMs: 60_000, store: await store() } });
    const strict = mockClient(mock, { cache: { ttlMs: 60_000, store: await store() } });
    const id = mock.store.main.members.all()[0]!.id;
    expect((await loose.members.get(id)).createdAt).toBe('yesterday');
    const raw = new Redis(redis.url);
    closing.push({ close: () => raw.disconnect() });
    const entryKey = async () => (await raw.keys(`${prefix}*:e:members.get:*`))[0];
    await waitFor(async () => (await entryKey()) !== undefined);
    expect(typeof (await strict.members.get(id)).createdAt).toBe('number');
    expect(strict.cache.stats()).toEqual({ hits: 0, misses: 1, coalesced: 0 });
    // A well-formed entry, under the current stamp, holding no member.
    await waitFor(async () => !(await raw.get((await entryKey())!))!.includes('yesterday'));
    const key = (await entryKey())!;
    const stored = (await raw.get(key))!;
    await raw.set(key, `${stored.slice(0, stored.indexOf('\n') + 1)}{"v":1,"s":200,"t":${Date.now()},"d":null}`, 'PX', 60_000);
    expect(await strict.members.get(id)).toMatchObject({ id });
    expect(strict.cache.stats()).toEqual({ hits: 0, misses: 2, coalesced: 0 });
  });
});

describe('health is never cached in Redis', () => {
  it('probes of two clients each reach the service, and nothing of them is in Redis', async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = createMockApi();
    const prefix = 'test:health:';
    const client = async () =>
      mockClient(mock, { cache: { ttlMs: 60_000, store: redisCacheStore(await connect('redis', redis.url), { prefix }) } });
    const [one, two] = [await client(), await client()];
    for (const each of [one, two, one, two]) {
      await each.health.ready();
      await each.health.live();
    }
    expect(mock.requests).toHaveLength(8);
    expect(await dump(redis.url, prefix)).not.toContain('health');
  });
});

describe('4 processes asking for one member at once make 1 request', () => {
  for (const library of libraries) {
    it(`${library}: one sends, the others wait for its answer in Redis`, async (context) => {
      const redis = skipWithoutRedis(context);
      const { mock, http } = await httpMock();
      const memberId = mock.store.main.members.all()[0]!.id;
      mock.faults.add({ endpoint: 'members.get', latencyMs: 200 }); // the others arrive while it is out
      const argument = {
        baseUrl: http.url,
        token: mock.tokens.main,
        redisUrl: redis.url,
        library,
        prefix: `test:fleet-${library}:`,
        memberId,
      };
      const workers = [1, 2, 3, 4].map(() =>
        startWorker<{ member: { id: string }; stats: { hits: number; misses: number } }>(
          argument,
          'tsconfig.test.json',
          'test/redis/cache-worker.ts',
        ),
      );
      await Promise.all(workers.map((worker) => worker.ready));
      for (const worker of workers) worker.go();
      const results = await Promise.all(workers.map((worker) => worker.done));
      expect(results.map((result) => result.member.id)).toEqual([memberId, memberId, memberId, memberId]);
      expect(gets(mock)).toBe(1);
      expect(results.map((result) => result.stats.misses).sort()).toEqual([0, 0, 0, 1]);
      expect(results.map((result) => result.stats.hits).sort()).toEqual([0, 1, 1, 1]);
    }, 60_000);
  }
});

describe('two tokens on one store', () => {
  it('never see each other’s entries, and nothing of either token is in Redis, key or value', async (context) => {
    const redis = skipWithoutRedis(context);
    const { mock, http } = await httpMock();
    const prefix = 'test:tokens:';
    const store = redisCacheStore(await connect('redis', redis.url), { prefix });
    const client = (token: string) => new CommunityServerClient({ token, baseUrl: http.url, cache: { ttlMs: 60_000, store } });
    const [main, readOnly] = [client(mock.tokens.main), client(mock.tokens.readOnly)];
    const id = mock.store.main.members.all()[0]!.id;
    for (const each of [main, readOnly, main, readOnly]) await each.members.get(id);
    await main.members.list();
    await readOnly.cache.invalidate('members.get');
    expect(mock.requests.filter((request) => request.endpoint === 'members.get').map((request) => request.token)).toEqual([
      'main',
      'readOnly',
    ]);
    const stored = await dump(redis.url, prefix);
    expect(stored).toContain('members.get');
    expectNothingOf(mock.tokens.main, stored);
    expectNothingOf(mock.tokens.readOnly, stored);
    // readOnly's invalidate left main's entries.
    await main.members.get(id);
    expect(gets(mock)).toBe(2);
  });
});

describe('faults: no crash, no hang, one warning, recovery', () => {
  const recorder = () => {
    const lines: string[] = [];
    const logger = { error: () => {}, warn: (line: string) => lines.push(line), info: (line: string) => lines.push(line), debug: () => {} };
    return { lines, logger, logLevel: 'info' as const };
  };

  it('Redis unreachable at start: calls answer from the service, one warning without the token', async () => {
    const { mock, http } = await httpMock();
    const port = await freePort();
    const connection = await connect('ioredis', `redis://127.0.0.1:${port}`);
    const { lines, ...log } = recorder();
    const client = new CommunityServerClient({
      token: mock.tokens.main,
      baseUrl: http.url,
      cache: { ttlMs: 60_000, store: redisCacheStore(connection) },
      ...log,
    });
    const id = mock.store.main.members.all()[0]!.id;
    const started = performance.now();
    for (let i = 0; i < 5; i++) await client.members.get(id);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(gets(mock)).toBe(5);
    expect(lines.filter((line) => line.includes('the cache store failed'))).toHaveLength(1);
    expectNothingOf(mock.tokens.main, lines.join('\n'));
  });

  for (const library of libraries) {
    it(`Redis killed mid-run and restarted on its port (${library}): no crash, no hang, a warning, and the cache again after`, async (context) => {
      const redis = skipWithoutRedis(context);
      const { mock, http } = await httpMock();
      const { lines, ...log } = recorder();
      const store = redisCacheStore(await connect(library, redis.url), { prefix: `test:restart-${library}:` });
      const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: http.url, cache: { ttlMs: 60_000, store }, ...log });
      const id = mock.store.main.members.all()[0]!.id;
      await client.members.get(id);
      await waitFor(async () => (await client.members.get(id).withResponse()).response.headers.get('x-cache') === 'hit');
      await redis.kill();
      const before = gets(mock);
      const started = performance.now();
      for (let i = 0; i < 5; i++) await client.members.get(id); // from the service, each
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(gets(mock)).toBe(before + 5);
      await redis.restart();
      // Back: an answer is stored again, and the next call hits.
      await waitFor(async () => (await client.members.get(id).withResponse()).response.headers.get('x-cache') === 'hit', 15_000);
      expect(lines.filter((line) => line.includes('the cache store failed'))).toHaveLength(1);
      expect(lines).toContain('community-server-sdk: the cache store answers again');
    }, 40_000);
  }

  it('a hung Redis (accepts, never answers) holds no call much longer than the store timeout', async () => {
    const connection = await hungRedis();
    const { mock, http } = await httpMock();
    const client = new CommunityServerClient({
      token: mock.tokens.main,
      baseUrl: http.url,
      cache: { ttlMs: 60_000, store: redisCacheStore(connection) },
      logLevel: 'off',
    });
    const id = mock.store.main.members.all()[0]!.id;
    const started = performance.now();
    await client.members.get(id);
    await client.members.get(id);
    expect(performance.now() - started).toBeLessThan(4_000);
  });
});

describe('arguments', () => {
  it('refuses what is not a Redis client, a prefix that is not a string, a lockMs that is not whole ms ≥ 1', () => {
    expect(() => redisCacheStore({} as never)).toThrow(InvalidArgumentError);
    const redis = { eval: () => undefined, evalsha: () => undefined } as unknown as RedisClient;
    expect(() => redisCacheStore(redis, { prefix: 1 as never })).toThrow('prefix must be a string');
    expect(() => redisCacheStore(redis, { lockMs: 0 })).toThrow('lockMs must be whole ms >= 1');
    expect(() => redisCacheStore(redis, { lockMs: 1.5 })).toThrow('lockMs must be whole ms >= 1');
  });
});

/** Waits until `condition` holds (checked every 20 ms, up to `ms`). */
async function waitFor(condition: () => Promise<boolean>, ms = 5_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await condition());) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('what redisCacheStore takes', () => {
  it("options that are not an object, or name an option it does not have (ioredis's keyPrefix), are refused: the store would keep its entries under the default prefix, a cache of its own", () => {
    const ioredis = new Redis({ lazyConnect: true });
    try {
      expect(() => redisCacheStore(ioredis, 'my-bot:cache:' as never)).toThrow(InvalidArgumentError);
      expect(() => redisCacheStore(ioredis, 'my-bot:cache:' as never)).toThrow('redisCacheStore options must be an object, got a string');
      expect(() => redisCacheStore(ioredis, { keyPrefix: 'my-bot:' } as never)).toThrow(
        'unknown redisCacheStore option "keyPrefix" (known: prefix, lockMs)',
      );
      expect(() => redisCacheStore(ioredis, null as never)).not.toThrow(); // as undefined: the defaults
    } finally {
      ioredis.disconnect();
    }
  });
});
