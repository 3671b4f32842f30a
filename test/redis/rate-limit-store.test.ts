/**
 * `redisRateLimitStore` against a real `redis-server` (Debian's; skipped with the reason where it
 * is missing, failing in CI): clients of one token — in one process and in several, on ioredis
 * and on node-redis — walk lists of the HTTP mock under its rate limit with no 429 and never more
 * requests in one of the mock's windows than it allows; and the faults: Redis unreachable at
 * start, killed mid-walk and restarted, hung.
 */
import { CommunityServerClient, InvalidArgumentError } from 'community-server-sdk';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { redisRateLimitStore } from 'community-server-sdk/redis';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countingMock, perWindow, runFleet, type Arrival } from '../../bench/fleet';
import { race, unevenness } from '../../bench/loops';
import { useRedis, type Library } from './fixture';
import { freePort } from './server';

const { closing: connections, skipWithoutRedis, connect, hungRedis } = useRedis();
afterEach(() => {
  vi.restoreAllMocks();
});

/** The mock over HTTP, counting arrivals; closed after the test. */
async function httpMock(
  rateLimit: { limit: number; windowMs: number },
  members: number,
): Promise<{ http: MockHttpServer; arrivals: Arrival[]; token: string; members: number }> {
  const { mock, arrivals } = countingMock(rateLimit, members);
  const http = await startMockHttpServer({ mock });
  connections.push({ close: () => http.close() });
  return { http, arrivals, token: mock.tokens.main, members: mock.store.main.members.size };
}

/** A client of the HTTP mock `served` (of `httpMock`) sharing its budget in Redis under `prefix`, over a `library` connection. */
const storeClient = async (served: { http: MockHttpServer; token: string }, redisUrl: string, library: Library, prefix: string) =>
  new CommunityServerClient({
    token: served.token,
    baseUrl: served.http.url,
    rateLimit: redisRateLimitStore(await connect(library, redisUrl), { prefix }),
  });

const walk = async (client: CommunityServerClient, pageSize: number) => {
  let items = 0;
  for await (const _ of client.members.list({ pageSize })) items++;
  return items;
};

describe('one budget across clients', () => {
  for (const mix of [
    ['ioredis', 'ioredis', 'ioredis'],
    ['redis', 'redis', 'redis'],
    ['ioredis', 'redis', 'ioredis', 'redis'],
  ] as Library[][]) {
    it(`${mix.length} clients (${mix.join(', ')}) on one token walk without a 429 and within every window`, async (context) => {
      const redis = skipWithoutRedis(context);
      const rateLimit = { limit: 10, windowMs: 500 };
      const served = await httpMock(rateLimit, 60);
      const { arrivals, token, members } = served;
      const prefix = `test:${mix.join('-')}:`;
      const clients = await Promise.all(mix.map(async (library) => storeClient(served, redis.url, library, prefix)));
      const items = await Promise.all(clients.map((client) => walk(client, 5)));
      expect(items).toEqual(mix.map(() => members));
      expect(arrivals.filter((a) => a.status === 429)).toEqual([]);
      expect(arrivals).toHaveLength((mix.length * members) / 5);
      expect(Math.max(...perWindow(arrivals, rateLimit.windowMs))).toBeLessThanOrEqual(rateLimit.limit);
      // The window lives in Redis under the prefix, named by a hash: the token is nowhere in it.
      const check = await connect('ioredis', redis.url);
      const keys = await (check as Redis).keys(`${prefix}*`);
      expect(keys).toHaveLength(1);
      const stored = JSON.stringify([keys, await (check as Redis).hgetall(keys[0]!)]);
      expect(stored).not.toContain(token);
      expect(stored).not.toContain(token.slice(4, 16));
    }, 30_000);
  }

  it('a bounded form of the fleet benchmark: 2 processes on ioredis and 2 on node-redis, 0 × 429', async (context) => {
    const redis = skipWithoutRedis(context);
    const rateLimit = { limit: 10, windowMs: 500 };
    for (const library of ['ioredis', 'redis'] as const) {
      const result = await runFleet({ processes: 2, pages: 15, rateLimit, redisUrl: redis.url, library, tsconfig: 'tsconfig.test.json' });
      expect(result.items).toEqual([result.expectedItems, result.expectedItems]);
      expect(result.tooMany).toBe(0);
      expect(result.busiestWindow).toBeLessThanOrEqual(rateLimit.limit);
      // 30 pages at 10 per 500 ms: the floor is 1 s. Alone it takes ~1.05×; the bound leaves
      // room for a machine busy with the rest of the suite, yet fails a fleet that idles a
      // window away (each window lost costs 0.5×).
      expect(result.wallMs / result.floorMs).toBeLessThan(3);
    }
  }, 60_000);
});

describe('first come, first served across clients', () => {
  it("a fleet's first burst, larger than the limit, meets no 429: one request learns the budget, the rest wait", async (context) => {
    const redis = skipWithoutRedis(context);
    const rateLimit = { limit: 5, windowMs: 500 };
    const served = await httpMock(rateLimit, 10);
    const { arrivals } = served;
    const prefix = 'test:first-burst:';
    const clients = await Promise.all(
      (['ioredis', 'redis', 'ioredis'] as Library[]).map(async (library) => storeClient(served, redis.url, library, prefix)),
    );
    await Promise.all(clients.flatMap((client) => Array.from({ length: 6 }, (_, i) => client.roles.list({ page: i + 1 }))));
    expect(arrivals).toHaveLength(18);
    expect(arrivals.filter((a) => a.status === 429)).toEqual([]);
  }, 30_000);

  it('loops spread over clients, more of them than a window allows, are served alike: the most served ≤ 1.5× the least, no 429', async (context) => {
    const redis = skipWithoutRedis(context);
    // Fewer requests per window than loops: every window, who goes is the queue's call.
    const rateLimit = { limit: 4, windowMs: 500 };
    const mock = await httpMock(rateLimit, 10);
    const { arrivals } = mock;
    const prefix = 'test:fair:';
    // 3 clients (as 3 processes would), 7 loops in all: 3, 2 and 2.
    const fleet: [Library, number][] = [
      ['ioredis', 3],
      ['redis', 2],
      ['ioredis', 2],
    ];
    // Every client connected first, so all loops race over the same 3 s: a client that started
    // its race after the others had it to itself at the end (5,4 / 5,4 beside 4,3,3).
    const clients = await Promise.all(fleet.map(async ([library]) => storeClient(mock, redis.url, library, prefix)));
    const served = await Promise.all(
      // A page per loop: identical GETs at once are sent once.
      clients.map((client, index) => race(fleet[index]![1], 3_000, (loop) => client.roles.list({ page: loop + 1 }))),
    );
    expect(unevenness(served.flat()), `served: ${served.map((s) => s.join(',')).join(' / ')}`).toBeLessThanOrEqual(1.5);
    expect(arrivals.filter((a) => a.status === 429)).toEqual([]);
    expect(Math.max(...perWindow(arrivals, rateLimit.windowMs))).toBeLessThanOrEqual(rateLimit.limit);
  }, 30_000);

  it('a waiting request that gives up loses its place within a second: those behind it go', async (context) => {
    const redis = skipWithoutRedis(context);
    const store = redisRateLimitStore(await connect('ioredis', redis.url), { prefix: 'test:gave-up:' });
    expect(await store.spend('window', 'probe')).toBe(0); // no window known: the probe goes alone
    await store.record('window', { remaining: 0, resetInMs: 300 }, 'probe');
    expect(await store.spend('window', 'gives-up')).toBeGreaterThan(0); // queued first, then never asks again
    const behind = await store.spend('window', 'patient');
    expect(behind).toBeGreaterThan(0);
    // After the reset, the head of the queue is the one that gave up; the next one waits only until its place is dropped.
    const started = Date.now();
    let wait = behind;
    while (wait > 0 && Date.now() - started < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = await store.spend('window', 'patient');
    }
    expect(wait).toBe(0);
    expect(Date.now() - started).toBeLessThan(2_500); // the reset (~300 ms), then at most the one-second grace
  }, 20_000);

  it('a service without rate-limit headers holds the fleet for its first answer only', async (context) => {
    const redis = skipWithoutRedis(context);
    let inFlight = 0;
    let most = 0;
    const fetch = async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      return new Response(JSON.stringify({ status: 'ok' }), { headers: { 'content-type': 'application/json' } });
    };
    const store = redisRateLimitStore(await connect('ioredis', redis.url), { prefix: 'test:unlimited:' });
    const client = new CommunityServerClient({ token: 'cs_test_5f2b9c1e7a', baseUrl: 'https://api.test', fetch, rateLimit: store });
    await client.tokens.current(); // the first answer: no headers, so the service does not limit
    most = 0;
    await Promise.all(Array.from({ length: 8 }, () => client.tokens.current({ cache: 'no-store' }))); // each its own request
    expect(most).toBe(8);
  }, 20_000);
});

describe('faults: the client goes on, on its own budget, and warns once', () => {
  const warnings = () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    return () => warn.mock.calls.map((call) => String(call[0])).filter((text) => text.includes('rate-limit store'));
  };

  it('Redis unreachable at start: the walk completes without a 429, one warning, no token in it', async (context) => {
    skipWithoutRedis(context);
    const warned = warnings();
    const rateLimit = { limit: 5, windowMs: 300 };
    const { http, arrivals, token, members } = await httpMock(rateLimit, 40);
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    const ioredis = new Redis(nobody, { lazyConnect: true });
    ioredis.on('error', () => {});
    connections.push({ close: () => ioredis.disconnect() });
    const client = new CommunityServerClient({ token, baseUrl: http.url, rateLimit: redisRateLimitStore(ioredis) });
    const start = performance.now();
    expect(await walk(client, 5)).toBe(members);
    // 8 pages at 5 per 300 ms: one 300 ms wait on the local budget, one 500 ms store timeout.
    expect(performance.now() - start).toBeLessThan(2_500);
    expect(arrivals.filter((a) => a.status === 429)).toEqual([]);
    expect(warned()).toHaveLength(1);
    expect(warned()[0]).not.toContain(token);
  }, 20_000);

  for (const library of ['ioredis', 'redis'] as const) {
    it(`Redis killed mid-walk (${library}): the walk goes on, warns once, and rejoins the shared budget once Redis is back on its port`, async (context) => {
      const redis = skipWithoutRedis(context);
      const warned = warnings();
      const rateLimit = { limit: 5, windowMs: 250 };
      const served = await httpMock(rateLimit, 400);
      const { arrivals, members } = served;
      const prefix = `test:kill:${library}:`;
      const client = await storeClient(served, redis.url, library, prefix);
      const until = async (n: number) => {
        while (arrivals.length < n) await new Promise((resolve) => setTimeout(resolve, 5));
      };
      const walking = walk(client, 5); // 80 pages: ~4 s at 5 per 250 ms
      await until(5);
      await redis.kill();
      await until(12);
      await redis.restart();
      const restartedAt = arrivals.length;
      expect(await walking).toBe(members);
      expect(arrivals.length - restartedAt).toBeGreaterThan(40); // enough walk left to rejoin in
      // Steady state spends no 429 (the fleet tests above); the hand-over to the local budget
      // and back may cost one under a loaded machine (seen once in a full run), retried like any.
      expect(arrivals.filter((a) => a.status === 429).length, '429s').toBeLessThanOrEqual(1);
      expect(warned(), 'warnings').toHaveLength(1);
      // The restarted Redis started empty: a window under the prefix means the client came back.
      // A client checks for Redis only as it sends, so it keeps sending (at most ~2 s) until then.
      // The window's hash lives an hour; its leases key only while a request is out, so it is
      // not counted. The deadline is generous: a loaded CI machine once needed more than 2 s.
      // (node-redis before 5.11 could take a connection reset during its handshake for a ready
      // one and never come back: node-redis#3108. The README asks for 6.2 or later.)
      const check = (await connect('ioredis', redis.url)) as Redis;
      const windows = async () => (await check.keys(`${prefix}*`)).filter((key) => !key.endsWith(':leases'));
      let found = await windows();
      for (let i = 0; i < 150 && found.length === 0; i++) {
        await client.roles.list();
        await new Promise((resolve) => setTimeout(resolve, 200));
        found = await windows();
      }
      expect(found, 'the window in the restarted Redis').toHaveLength(1);
    }, 90_000);
  }

  it('a hung Redis (accepts, never answers) holds no request longer than the store timeout', async (context) => {
    skipWithoutRedis(context);
    const warned = warnings();
    const ioredis = await hungRedis();
    const { http, token } = await httpMock({ limit: 100, windowMs: 1000 }, 20);
    const client = new CommunityServerClient({ token, baseUrl: http.url, rateLimit: redisRateLimitStore(ioredis) });
    const timed = async () => {
      const start = performance.now();
      await client.members.list({ pageSize: 5 });
      return performance.now() - start;
    };
    expect(await timed()).toBeLessThan(1_000); // the first waits out the 500 ms timeout
    const later = [await timed(), await timed(), await timed()];
    expect(Math.max(...later)).toBeLessThan(200); // the rest go on at once on the local budget
    expect(warned()).toHaveLength(1);
  }, 20_000);
});

describe('a client that dies with requests out', () => {
  it('holds back the shared budget only until its leases run out: a later walk gets the whole window', async (context) => {
    const redis = skipWithoutRedis(context);
    const rateLimit = { limit: 5, windowMs: 400 };
    const served = await httpMock(rateLimit, 75);
    const { http, arrivals, token } = served;
    const prefix = 'test:crash:';
    // A client that spends and never records, as one killed mid-request (kill -9) leaves Redis.
    const store = redisRateLimitStore(await connect('ioredis', redis.url), { prefix, leaseMs: 300 });
    const dying = new CommunityServerClient({
      token,
      baseUrl: http.url,
      rateLimit: { spend: (key, ticket) => store.spend(key, ticket), record: async () => {} },
    });
    await Promise.all([1, 2, 3, 4].map(() => dying.roles.list()));
    await new Promise((resolve) => setTimeout(resolve, 450)); // past the leases and the mock's window
    const crashed = arrivals.length;
    const client = await storeClient(served, redis.url, 'redis', prefix);
    expect(await walk(client, 5)).toBe(75);
    const walked = arrivals.slice(crashed);
    expect(walked.filter((a) => a.status === 429)).toEqual([]);
    // With the 4 dead requests still counted, each window would let 1 of its 5 through.
    expect(Math.max(...perWindow(walked, rateLimit.windowMs))).toBe(rateLimit.limit);
    // Nothing of the dead client is left in Redis: its leases expired, their set with them.
    const check = (await connect('ioredis', redis.url)) as Redis;
    expect(await check.keys(`${prefix}*:leases`)).toEqual([]);
  }, 20_000);

  it('answers recorded out of order lose no slot of the window', async (context) => {
    const redis = skipWithoutRedis(context);
    const store = redisRateLimitStore(await connect('ioredis', redis.url), { prefix: 'test:out-of-order:' });
    expect(await store.spend('window', 'probe')).toBe(0);
    await store.record('window', { remaining: 4, resetInMs: 5_000 }, 'probe'); // a window of 5, the probe counted
    expect(await store.spend('window', 'first')).toBe(0); // reaches the service first: remaining 3
    expect(await store.spend('window', 'second')).toBe(0); // then this one: remaining 2
    // The second's answer is recorded first: 2 left, less 'first' still out (it may not have landed).
    await store.record('window', { remaining: 2, resetInMs: 5_000 }, 'second');
    // The first's answer shows it landed before: it was counted in the 2, so its slot comes back.
    await store.record('window', { remaining: 3, resetInMs: 5_000 }, 'first');
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await store.spend('window', `later ${i}`));
    expect(answers.slice(0, 2)).toEqual([0, 0]); // the window's last two
    expect(answers[2]).toBeGreaterThan(0);
  });

  it('a request asleep until the reset holds no slot that comes back meanwhile: the next one takes it', async (context) => {
    const redis = skipWithoutRedis(context);
    const store = redisRateLimitStore(await connect('ioredis', redis.url), { prefix: 'test:sleeper:' });
    expect(await store.spend('window', 'probe')).toBe(0);
    await store.record('window', { remaining: 4, resetInMs: 5_000 }, 'probe'); // a window of 5
    for (const ticket of ['a', 'b', 'c']) expect(await store.spend('window', ticket)).toBe(0);
    await store.record('window', { remaining: 2, resetInMs: 5_000 }, 'b'); // a and c still out: nothing left to spend
    expect(await store.spend('window', 'sleeper')).toBeGreaterThan(1_000); // told to wait for the reset, first in the queue
    await store.record('window', { remaining: 3, resetInMs: 5_000 }, 'a'); // a landed before b: its slot comes back
    expect(await store.spend('window', 'next')).toBe(0); // not held behind the sleeper for the rest of the window
    expect(await store.spend('window', 'one more')).toBeGreaterThan(0);
  });

  it("a record with no request of its own out (a check whether Redis is back) frees no other client's lease", async (context) => {
    const redis = skipWithoutRedis(context);
    const options = { prefix: 'test:check-back:' };
    const sender = redisRateLimitStore(await connect('ioredis', redis.url), options);
    const checker = redisRateLimitStore(await connect('redis', redis.url), options);
    expect(await sender.spend('window', 'sent')).toBe(0); // out, unanswered
    await checker.record('window', { remaining: 5, resetInMs: 5_000 });
    // The window allows 5, one of them is still out: 4 more may go, then it waits.
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await checker.spend('window', `request ${i}`));
    expect(answers.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(answers[4]).toBeGreaterThan(0);
  });

  it("issue 30, attack: a check whether Redis is back that knows no window ends no other client's probe: the rest still wait for its answer", async (context) => {
    const redis = skipWithoutRedis(context);
    const options = { prefix: 'test:check-back-probe:' };
    const prober = redisRateLimitStore(await connect('ioredis', redis.url), options);
    const checker = redisRateLimitStore(await connect('redis', redis.url), options);
    expect(await prober.spend('window', 'probe')).toBe(0); // a new window's first request, out to learn the budget
    expect(await checker.spend('window', 'next')).toBeGreaterThan(0); // the rest wait for its answer
    await checker.record('window', undefined); // a client back from its own budget, which knows no window
    expect(await checker.spend('window', 'next'), 'a second probe while the first is out').toBeGreaterThan(0);
    await prober.record('window', { remaining: 1, resetInMs: 5_000 }, 'probe');
    expect(await checker.spend('window', 'next')).toBe(0);
  });
});

describe('arguments', () => {
  it('refuses what is not an ioredis or node-redis client, a prefix that is not a string, and a leaseMs that is not whole ms ≥ 1', async () => {
    expect(() => redisRateLimitStore({} as never)).toThrow(InvalidArgumentError);
    expect(() => redisRateLimitStore(null as never)).toThrow(/needs an ioredis or node-redis client/);
    const ioredis = new Redis({ lazyConnect: true });
    expect(() => redisRateLimitStore(ioredis, { prefix: 5 as never })).toThrow(/prefix must be a string/);
    for (const leaseMs of [0, -1, 1.5, Number.NaN, Infinity, '1000' as never]) {
      expect(() => redisRateLimitStore(ioredis, { leaseMs }), String(leaseMs)).toThrow(InvalidArgumentError);
    }
    ioredis.disconnect();
  });

  it("issue 30, attack: options that are not an object, or name an option it does not have (ioredis's keyPrefix), are refused: the store would count under the default prefix, a budget of its own", () => {
    const ioredis = new Redis({ lazyConnect: true });
    connections.push({ close: () => ioredis.disconnect() });
    expect(() => redisRateLimitStore(ioredis, 'my-bot:budget:' as never)).toThrow(InvalidArgumentError);
    expect(() => redisRateLimitStore(ioredis, 'my-bot:budget:' as never)).toThrow(
      'redisRateLimitStore options must be an object, got a string',
    );
    expect(() => redisRateLimitStore(ioredis, { keyPrefix: 'my-bot:' } as never)).toThrow(
      'unknown redisRateLimitStore option "keyPrefix" (known: prefix, leaseMs)',
    );
    expect(() => redisRateLimitStore(ioredis, null as never)).not.toThrow(); // as undefined: the defaults
  });
});

describe('issue 23 hardening: client — item 11: a request that gives up while queued releases its place at once', () => {
  const windowMs = 600;
  for (const gate of ['in-process', 'ioredis', 'redis'] as const) {
    it(`${gate}: with waiters refused (their timeout) and aborted at the head of the queue, those behind go at the reset`, async (context) => {
      const redis = gate === 'in-process' ? undefined : skipWithoutRedis(context);
      const served = await httpMock({ limit: 2, windowMs }, 10);
      const { arrivals } = served;
      const holding: string[] = [];
      const write = (line: string) => void (line.includes('holding') && holding.push(line));
      const client = new CommunityServerClient({
        token: served.token,
        baseUrl: served.http.url,
        logLevel: 'info',
        logger: { error: () => {}, warn: () => {}, info: write, debug: () => {} },
        rateLimit: redis ? redisRateLimitStore(await connect(gate as Library, redis.url), { prefix: `test:gave-up-${gate}:` }) : 'wait',
      });
      await client.roles.list(); // the window opens: 1 left
      await client.roles.list(); // spent until the reset
      const outcome = (call: Promise<unknown>) =>
        call.then(
          () => 'sent',
          (error: Error) => error.name,
        );
      // First in the queue: two whose timeout the wait outlasts, then two their callers abort, then
      // two that wait; six pages, as identical GETs at once would be sent once.
      const refused = [1, 2].map((page) => outcome(client.roles.list({ page }, { timeout: windowMs / 2 })));
      const aborts = [3, 4].map((page) => ({ page, controller: new AbortController() }));
      const aborted = aborts.map(({ page, controller }) => outcome(client.roles.list({ page }, { signal: controller.signal })));
      const patient = [5, 6].map((page) => outcome(client.roles.list({ page })));
      for (let waited = 0; holding.length < 4 && waited < 5_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(holding).toHaveLength(4); // the aborted and the patient are held for the reset
      for (const { controller } of aborts) controller.abort();
      expect(await Promise.all([...refused, ...aborted, ...patient])).toEqual([
        'RateLimitError',
        'RateLimitError',
        'AbortError',
        'AbortError',
        'sent',
        'sent',
      ]);
      expect(arrivals.filter((a) => a.status === 429)).toEqual([]);
      // The window reopens windowMs after its first request. Before, a place given up held the
      // queue until its grace ran out (a second past the reset): those behind went ≥ 1 s late.
      const reset = arrivals[0]!.at + windowMs;
      const late = arrivals.slice(2).map((arrival) => arrival.at - reset);
      expect(late).toHaveLength(2);
      expect(Math.max(...late), `ms after the reset: ${late.join(', ')}`).toBeLessThan(700);
    }, 20_000);
  }
});
