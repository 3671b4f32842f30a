/**
 * `redisFleet` against a real `redis-server` (Debian's; skipped with the reason where it is
 * missing, failing in CI), watches in one process, each on a connection of its own as separate
 * processes would be: they poll a list like one watch, every item reaches every watch once
 * (`'every'`) or one watch (`'once'`), a watch that leaves hands the polling over from the same
 * cursor, a named consumer resumes, one that fell behind the stream's trim catches up, and the
 * faults: Redis killed and restarted, on ioredis and node-redis. Processes killed with SIGKILL
 * are test/redis/fleet-processes.test.ts's.
 */
import { CommunityServerClient, InvalidArgumentError, NotFoundError, type Log, type Watch } from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { redisFleet, type RedisClient, type RedisFleetOptions } from 'community-server-sdk/redis';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { useRedis, type Library } from './fixture';

const { closing, skipWithoutRedis, connect, pausable } = useRedis();
/** What to undo after the test, last first. */
const cleanups = { push: (cleanup: () => unknown) => closing.push({ close: cleanup }) };

/** The mock, in process, and the list requests each client sent (`logs` polls, by client). */
function served(seed = 1) {
  const mock = createMockApi({ seed });
  const polls: { client: number; at: number; query: string }[] = [];
  const fetchOf =
    (client: number): typeof globalThis.fetch =>
    async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === '/api/v1/server/logs') polls.push({ client, at: Date.now(), query: url.search });
      return mock.fetch(input, init);
    };
  return { mock, polls, fetchOf };
}

interface Member {
  client: CommunityServerClient;
  redis: RedisClient;
  warnings: string[];
}

/** `n` clients of the mock, each with a Redis connection of its own (as `n` processes have). */
async function members(
  n: number,
  { fetchOf, mock }: ReturnType<typeof served>,
  redisUrl: string,
  libraries: Library[] = ['ioredis'],
): Promise<Member[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const warnings: string[] = [];
      const logger = { error: () => {}, warn: (line: string) => warnings.push(line), info: () => {}, debug: () => {} };
      const client = new CommunityServerClient({
        token: mock.tokens.main,
        baseUrl: 'https://api.test',
        fetch: fetchOf(i),
        rateLimit: 'off',
        logger,
      });
      return { client, redis: await connect(libraries[i % libraries.length]!, redisUrl), warnings };
    }),
  );
}

/** Watches `logs` on a fleet of its own connection; closed after the test. */
function watchLogs(
  member: Member,
  prefix: string,
  options: { delivery?: 'every' | 'once'; consumer?: string; intervalMs?: number; fleet?: RedisFleetOptions } = {},
) {
  const { fleet, intervalMs = 100, ...rest } = options;
  const feed = member.client.logs
    .list({ pageSize: 10 })
    .watch({ fleet: redisFleet(member.redis, { prefix, ...fleet }), intervalMs, ...rest });
  cleanups.push(() => feed.return());
  return feed;
}

/** Collects what `feed` yields (ids), until it ends; the loop's promise is `done`. */
function collect(feed: Watch<Log>) {
  const ids: string[] = [];
  const done = (async () => {
    for await (const log of feed) ids.push(log.id);
  })();
  done.catch(() => undefined);
  return { ids, done };
}

/** New logs, all in this second (equal times are the hard case), newest last. */
const addLogs = (mock: MockApi, n: number) =>
  Array.from({ length: n }, () => mock.store.main.logs.create({ createdAt: Math.floor(Date.now() / 1000) }).id);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The next item `feed` yields, failing after 10 s. */
async function nextOf<T>(feed: Watch<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no item within 10 s')), 10_000)));
  try {
    const next = await Promise.race([feed.next(), late]);
    if (next.done) throw new Error('the watch ended');
    return next.value;
  } finally {
    clearTimeout(timer);
  }
}

/** Waits until `done()` holds, checking every 10 ms, failing after `ms` (with `details()`, if given). */
async function until(done: () => boolean, ms: number, what: string, details?: () => unknown): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${details ? `: ${JSON.stringify(details())}` : ''}`);
    await sleep(10);
  }
}

/** Waits until the list's lease is held: a poller was chosen and has its starting point. */
async function polling(redisUrl: string, prefix: string) {
  const check = (await connect('ioredis', redisUrl)) as Redis;
  const deadline = Date.now() + 10_000;
  while ((await check.keys(`${prefix}*:state`)).length === 0) {
    if (Date.now() > deadline) throw new Error('no poller within 10 s');
    await sleep(10);
  }
}

describe('one list, polled once for the fleet', () => {
  it('4 watches on one fleet send ≤ 1.1× the list requests of one watch alone, over the same 2 s', async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = served();
    const fleet = await members(5, mock, redis.url);
    const prefix = 'test:once-for-all:';
    const feeds = fleet.slice(0, 4).map((member) => collect(watchLogs(member, prefix)));
    const local = fleet[4]!.client.logs.list({ pageSize: 10 }).watch({ intervalMs: 100 });
    cleanups.push(() => local.return());
    collect(local);
    await polling(redis.url, prefix);
    const from = Date.now();
    await sleep(2_000);
    const window = mock.polls.filter((poll) => poll.at >= from && poll.at < from + 2_000);
    const fleetPolls = window.filter((poll) => poll.client < 4).length;
    const alonePolls = window.filter((poll) => poll.client === 4).length;
    expect(alonePolls).toBeGreaterThan(10);
    expect(fleetPolls / alonePolls, `${fleetPolls} fleet polls, ${alonePolls} alone`).toBeLessThanOrEqual(1.1);
    expect(feeds.every((feed) => feed.ids.length === 0)).toBe(true);
  }, 30_000);
});

describe("delivery: 'every'", () => {
  it('each watch gets every new item once, in the order a local watch yields them: 35 at once over 4 pages, all in one second, then more', async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = served();
    const fleet = await members(4, mock, redis.url, ['ioredis', 'redis']);
    const prefix = 'test:every:';
    const feeds = fleet.slice(0, 3).map((member) => collect(watchLogs(member, prefix)));
    const local = fleet[3]!.client.logs.list({ pageSize: 10 }).watch({ intervalMs: 100 });
    cleanups.push(() => local.return());
    const alone = collect(local);
    await polling(redis.url, prefix);
    const added = addLogs(mock.mock, 35);
    const counts = () => ({
      got: [...feeds, alone].map((feed) => feed.ids.length),
      warnings: fleet.map((member) => member.warnings),
      polls: mock.polls.length,
    });
    await until(() => [...feeds, alone].every((feed) => feed.ids.length >= 35), 10_000, 'the first 35', counts);
    added.push(...addLogs(mock.mock, 3));
    await until(() => [...feeds, alone].every((feed) => feed.ids.length >= 38), 10_000, 'the next 3');
    await sleep(300);
    expect([...alone.ids].sort()).toEqual([...added].sort());
    for (const feed of feeds) expect(feed.ids).toEqual(alone.ids);
  }, 30_000);
});

describe("delivery: 'once'", () => {
  it('each new item reaches exactly one watch, and every one reaches one', async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = served();
    const fleet = await members(3, mock, redis.url, ['redis', 'ioredis']);
    const prefix = 'test:once:';
    const feeds = fleet.map((member) => collect(watchLogs(member, prefix, { delivery: 'once' })));
    await polling(redis.url, prefix);
    const added = [...addLogs(mock.mock, 25)];
    await sleep(150);
    added.push(...addLogs(mock.mock, 5));
    const all = () => feeds.flatMap((feed) => feed.ids);
    await until(() => all().length >= added.length, 10_000, 'every item');
    await sleep(300);
    expect(all().sort()).toEqual([...added].sort());
    expect(feeds.filter((feed) => feed.ids.length > 0).length, 'watches given items').toBeGreaterThan(1);
  }, 30_000);
});

/** Which client sent the latest list request: the poller. */
const poller = (polls: { client: number }[]) => polls.at(-1)!.client;

describe('the lease', () => {
  it('a poller that leaves hands the polling over at once, from the same cursor: the others miss nothing and repeat nothing', async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = served();
    const fleet = await members(3, mock, redis.url);
    const prefix = 'test:handover:';
    const feeds = fleet.map((member) => watchLogs(member, prefix, { intervalMs: 150 }));
    const got = feeds.map(collect);
    await polling(redis.url, prefix);
    await until(() => mock.polls.length > 0, 5_000, 'a poll');
    const added = addLogs(mock.mock, 4);
    await until(() => got.every((feed) => feed.ids.length === 4), 5_000, 'the first 4');
    const first = poller(mock.polls);
    const leftAt = Date.now();
    await feeds[first]!.return();
    await until(() => mock.polls.some((poll) => poll.at > leftAt && poll.client !== first), 5_000, 'another poller');
    const takeover = mock.polls.find((poll) => poll.at > leftAt && poll.client !== first)!;
    // Given up at once: the others try every half interval, and the new poller polls at once
    // (finding nothing new: it publishes where it starts, which the others read past).
    expect(takeover.at - leftAt).toBeLessThan(150 + 100);
    added.push(...addLogs(mock.mock, 3));
    const stayed = got.filter((_, i) => i !== first);
    await until(() => stayed.every((feed) => feed.ids.length === 7), 5_000, 'the next 3');
    await sleep(400);
    expect([...stayed[0]!.ids].sort()).toEqual([...added].sort());
    expect(stayed[1]!.ids).toEqual(stayed[0]!.ids);
    expect(got[first]!.ids).toHaveLength(4);
    expect(fleet.flatMap((member) => member.warnings)).toEqual([]);
  }, 30_000);
});

describe('a named consumer', () => {
  it("'every': a watch started again with the same consumer resumes after the last item it was given, missing and repeating nothing", async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = served();
    const [stays, restarts] = await members(2, mock, redis.url);
    const prefix = 'test:resume:';
    collect(watchLogs(stays!, prefix));
    const before = watchLogs(restarts!, prefix, { consumer: 'shard-1' });
    await polling(redis.url, prefix);
    const added = addLogs(mock.mock, 5);
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) seen.push((await nextOf(before)).id);
    await before.return(); // the third counts as given: the watch ends after it
    const away = addLogs(mock.mock, 4);
    await sleep(400); // published while no watch of shard-1 runs
    const after = collect(watchLogs(restarts!, prefix, { consumer: 'shard-1' }));
    await until(() => after.ids.length >= 6, 5_000, 'what came since');
    await sleep(300);
    expect([...seen, ...after.ids].sort()).toEqual([...added, ...away].sort());
  }, 30_000);
});

/** What `feed.next()` comes to within `ms`: an item's id, `'done'`, the error it throws, or `'nothing'`. */
async function outcome(feed: Watch<Log>, ms: number): Promise<unknown> {
  const next = feed.next().then(
    (result) => (result.done ? 'done' : result.value.id),
    (error: unknown) => error,
  );
  return Promise.race([next, sleep(ms).then(() => `nothing within ${ms} ms`)]);
}

describe('issue 30 #2: one live process per consumer name', () => {
  for (const delivery of ['every', 'once'] as const) {
    it(`'${delivery}': a name a live watch holds is refused with InvalidArgumentError naming it and the list, within a second; the holder goes on; ended, it frees the name at once`, async (context) => {
      const redis = skipWithoutRedis(context);
      const mock = served();
      const [first, second] = await members(2, mock, redis.url, ['ioredis', 'redis']);
      const prefix = `test:name-in-use-${delivery}:`;
      const holder = watchLogs(first!, prefix, { delivery, consumer: 'shard-0' });
      const held = collect(holder);
      await polling(redis.url, prefix);
      const started = Date.now();
      const refused = await outcome(watchLogs(second!, prefix, { delivery, consumer: 'shard-0' }), 5_000);
      expect(refused).toBeInstanceOf(InvalidArgumentError);
      expect((refused as Error).message).toBe(
        'watch of GET /api/v1/server/logs: consumer "shard-0" is in use by another live process; give each process a name of its own',
      );
      // The holder renews its name every half interval (here 100 ms): seen at the second look.
      expect(Date.now() - started).toBeLessThan(1_000);
      const added = addLogs(mock.mock, 3);
      await until(() => held.ids.length === 3, 5_000, 'the items at the holder');
      expect(held.ids.sort()).toEqual([...added].sort());
      await holder.return();
      const freed = Date.now();
      const after = watchLogs(second!, prefix, { delivery, consumer: 'shard-0' });
      const next = outcome(after, 5_000);
      await sleep(300);
      added.push(...addLogs(mock.mock, 1));
      expect(await next).toBe(added[3]);
      expect(Date.now() - freed, 'not waiting out the liveness of the one that ended (2 s)').toBeLessThan(1_500);
      expect([...first!.warnings, ...second!.warnings]).toEqual([]);
    }, 30_000);
  }

  it("'every': a watch cut off from Redis past its liveness, its name taken meanwhile by a restart, ends with InvalidArgumentError when it gets through, and saves nothing over the new holder's position", async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = served();
    const [cut, restarted] = await members(2, mock, redis.url);
    const way = await pausable(redis.url);
    cut!.redis = await connect('ioredis', way.url);
    const prefix = 'test:name-taken:';
    const stale = watchLogs(cut!, prefix, { consumer: 'shard-0' });
    await polling(redis.url, prefix);
    const added = addLogs(mock.mock, 4);
    const seen = [(await nextOf(stale)).id, (await nextOf(stale)).id]; // the first's place is saved
    way.pause();
    await sleep(2_500); // past its liveness: 3 intervals, 2 s at least
    const restart = watchLogs(restarted!, prefix, { consumer: 'shard-0' });
    const resumed = [(await nextOf(restart)).id, (await nextOf(restart)).id, (await nextOf(restart)).id];
    // After the first's saved place: the second, handed and not yet asked past, comes again.
    expect(resumed[0]).toBe(seen[1]);
    expect([seen[0], ...resumed].sort()).toEqual([...added].sort());
    const check = (await connect('ioredis', redis.url)) as Redis;
    const [positions] = await check.keys(`${prefix}*:positions`);
    const saved = await check.hget(positions!, 'shard-0');
    way.resume(); // what the cut-off watch sent meanwhile arrives now
    const ended = await outcome(stale, 5_000); // and it asks for the next item: saving its place after the second
    expect(ended).toBeInstanceOf(InvalidArgumentError);
    expect((ended as Error).message).toMatch(
      /^watch of GET \/api\/v1\/server\/logs: consumer "shard-0" was taken by another process: this one did not say it was alive for 2000 ms \(paused, or cut off from Redis\)$/,
    );
    expect(await check.hget(positions!, 'shard-0'), "the restart's saved place").toBe(saved);
    added.push(...addLogs(mock.mock, 1));
    expect((await nextOf(restart)).id).toBe(added[4]);
  }, 30_000);
});

describe("issue 30, attack: 'once' and a watch that ends", () => {
  it("an item a watch's last step took after the watch ended (it never reached the loop) goes to another process at once, not after a liveness", async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = served();
    const [poller, leaving] = await members(2, mock, redis.url);
    const way = await pausable(redis.url);
    leaving!.redis = await connect('ioredis', way.url);
    const prefix = 'test:once-late-step:';
    const stays = watchLogs(poller!, prefix, { delivery: 'once' }); // polls; its loop asks for nothing yet
    await polling(redis.url, prefix);
    const leaves = watchLogs(leaving!, prefix, { delivery: 'once' });
    const [first] = addLogs(mock.mock, 1);
    expect((await nextOf(leaves)).id).toBe(first); // its loop has it; the watch goes on
    way.pause();
    const [second] = addLogs(mock.mock, 1);
    await sleep(300); // published
    const next = leaves.next(); // its step asks for the next item: held on the way to Redis
    await sleep(50);
    await leaves.return(); // the watch ends; its leaving step follows the held one
    expect(await next).toEqual({ done: true, value: undefined });
    way.resume(); // Redis hands the second item to the watch that ended, then takes its leaving step
    const resumed = Date.now();
    expect((await nextOf(stays)).id).toBe(second);
    expect(Date.now() - resumed, 'not after the liveness of the one that ended (2 s)').toBeLessThan(1_000);
  }, 30_000);
});

describe('a watch that falls behind the stream', () => {
  it("'every': one that did not ask for items while the stream was trimmed past it gets every item all the same, and a warning", async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = served();
    const [quick, slow] = await members(2, mock, redis.url);
    const prefix = 'test:behind:';
    const fleet = { maxLength: 50 };
    const keeps = collect(watchLogs(quick!, prefix, { fleet }));
    const lags = watchLogs(slow!, prefix, { fleet });
    await polling(redis.url, prefix);
    const added: string[] = [];
    for (let round = 0; round < 5; round++) {
      added.push(...addLogs(mock.mock, 30));
      await until(() => keeps.ids.length === added.length, 10_000, `round ${round}`);
    }
    const stream = await ((await connect('ioredis', redis.url)) as Redis).keys(`${prefix}*:stream`);
    expect(await ((await connect('ioredis', redis.url)) as Redis).xlen(stream[0]!)).toBeLessThan(150); // trimmed
    const late = collect(lags);
    await until(
      () => late.ids.length >= 150,
      10_000,
      'the slow watch to catch up',
      () => ({ late: late.ids.length, warnings: slow!.warnings, polls: mock.polls.length }),
    );
    await sleep(300);
    expect(late.ids).toHaveLength(150);
    expect(quick!.warnings, JSON.stringify(quick!.warnings)).toEqual([]);
    expect([...late.ids].sort()).toEqual([...added].sort());
    expect(slow!.warnings.join('\n')).toMatch(/trimmed from the fleet's stream before this process read them; reading the list/);
  }, 60_000);
});

describe('faults: Redis killed, then restarted without its data', () => {
  const failed = (member: Member) => member.warnings.filter((line) => line.includes("the fleet's Redis failed"));

  for (const library of ['ioredis', 'redis'] as const) {
    it(`${library}, 'every': each watch polls on its own meanwhile and misses nothing, warns once, and the fleet polls once for all again after`, async (context) => {
      const redis = skipWithoutRedis(context);
      const mock = served();
      const fleet = await members(3, mock, redis.url, [library]);
      const prefix = `test:restart-every-${library}:`;
      const feeds = fleet.map((member) => collect(watchLogs(member, prefix)));
      await polling(redis.url, prefix);
      const added = addLogs(mock.mock, 3);
      await until(() => feeds.every((feed) => feed.ids.length >= 3), 5_000, 'the first 3');
      await redis.kill();
      added.push(...addLogs(mock.mock, 3));
      await until(() => feeds.every((feed) => feed.ids.length >= 6), 10_000, 'the 3 added while Redis is down');
      await redis.restart();
      await polling(redis.url, prefix); // a poller took the lease again, and stored where it starts
      added.push(...addLogs(mock.mock, 3));
      await until(() => feeds.every((feed) => new Set(feed.ids).size >= 9), 10_000, 'the 3 added after');
      const from = Date.now();
      await sleep(1_000);
      const polls = mock.polls.filter((poll) => poll.at >= from && poll.at < from + 1_000).length;
      expect(polls, 'list requests in the second after').toBeLessThanOrEqual(13); // one poller at 100 ms, not three
      for (const [i, feed] of feeds.entries()) {
        expect(new Set(feed.ids), `watch ${i}`).toEqual(new Set(added));
        expect(feed.ids.length - added.length, `repeats at watch ${i}`).toBeLessThanOrEqual(3);
        expect(failed(fleet[i]!), `warnings of watch ${i}`).toHaveLength(1);
      }
    }, 60_000);

    it(`${library}, 'once': deliveries wait for Redis, then the items found meanwhile reach the fleet once, and one warning`, async (context) => {
      const redis = skipWithoutRedis(context);
      const mock = served();
      const fleet = await members(3, mock, redis.url, [library]);
      const prefix = `test:restart-once-${library}:`;
      const feeds = fleet.map((member) => collect(watchLogs(member, prefix, { delivery: 'once' })));
      const all = () => feeds.flatMap((feed) => feed.ids);
      await polling(redis.url, prefix);
      const added = addLogs(mock.mock, 3);
      await until(() => all().length >= 3, 5_000, 'the first 3');
      await sleep(300); // each has asked for more and found all handed out: its place is the fleet's
      await redis.kill();
      added.push(...addLogs(mock.mock, 3));
      await sleep(500);
      expect(all()).toHaveLength(3); // nothing is handed out without the fleet
      const closing = Date.now();
      await redis.restart();
      added.push(...addLogs(mock.mock, 3));
      await until(() => new Set(all()).size >= 9, 15_000, 'every item, after the restart');
      expect(new Set(all())).toEqual(new Set(added));
      // The first to poll again starts where every item had been handed out: none comes twice.
      expect(all().length - added.length, 'repeats').toBe(0);
      for (const member of fleet) expect(failed(member)).toHaveLength(1);
      expect(Date.now() - closing).toBeLessThan(15_000);
    }, 60_000);
  }
});

describe('what a fleet watch shares with a local one', () => {
  it('a 404 ends every watch of the fleet with NotFoundError: at once for a list that never existed, in turn for one deleted while watched', async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = served();
    const fleet = await members(3, mock, redis.url);
    const prefix = 'test:gone:';
    const department = mock.mock.store.main.departments.all()[0]!.id;
    const ends = (feed: Watch<unknown>) =>
      feed.next().then(
        () => 'an item',
        (error: unknown) => error,
      );
    const never = fleet.map((member) =>
      member.client.departments.shifts.list('no-such-department').watch({ fleet: redisFleet(member.redis, { prefix }), intervalMs: 100 }),
    );
    for (const error of await Promise.all(never.map(ends))) expect(error).toBeInstanceOf(NotFoundError);
    const feeds = fleet.map((member) =>
      member.client.departments.shifts.list(department).watch({ fleet: redisFleet(member.redis, { prefix }), intervalMs: 100 }),
    );
    for (const feed of feeds) cleanups.push(() => feed.return());
    const outcomes = feeds.map(ends);
    await polling(redis.url, prefix);
    mock.mock.store.main.departments.delete(department);
    const started = Date.now();
    for (const error of await Promise.all(outcomes)) expect(error).toBeInstanceOf(NotFoundError);
    expect(Date.now() - started).toBeLessThan(5_000); // each polls within an interval or so of the one before giving the lease up
  }, 30_000);

  it("'every': the watch's cursor is exactly what it yielded, so a local watch resumed from it yields what came after", async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = served();
    const [member] = await members(1, mock, redis.url);
    const prefix = 'test:cursor:';
    const feed = watchLogs(member!, prefix);
    await polling(redis.url, prefix);
    const added = addLogs(mock.mock, 5);
    const seen = [await nextOf(feed), await nextOf(feed)].map((log) => log.id);
    const cursor = feed.cursor;
    await feed.return();
    const resumed = member!.client.logs.list().watch({ cursor, intervalMs: 100 });
    cleanups.push(() => resumed.return());
    const rest = [];
    for (let i = 0; i < 3; i++) rest.push((await nextOf(resumed)).id);
    expect([...seen, ...rest].sort()).toEqual([...added].sort());
  }, 30_000);

  it('nothing of the token in any Redis key or value: not whole, not any 8 characters of it', async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = served();
    const fleet = await members(2, mock, redis.url, ['ioredis', 'redis']);
    const prefix = 'test:secret:';
    const every = collect(watchLogs(fleet[0]!, prefix, { consumer: 'named' }));
    const once = collect(watchLogs(fleet[1]!, prefix, { delivery: 'once' }));
    await polling(redis.url, prefix);
    addLogs(mock.mock, 4);
    await until(() => every.ids.length === 4 && once.ids.length === 4, 5_000, 'the items');
    const check = (await connect('ioredis', redis.url)) as Redis;
    const dump: string[] = [];
    for (const key of await check.keys(`${prefix}*`)) {
      const type = await check.type(key);
      if (type === 'string') dump.push(key, (await check.get(key))!);
      if (type === 'hash') dump.push(key, JSON.stringify(await check.hgetall(key)));
      if (type === 'stream') {
        dump.push(key, JSON.stringify(await check.xrange(key, '-', '+')), JSON.stringify(await check.xinfo('GROUPS', key)));
      }
    }
    expect(dump.length).toBeGreaterThan(8); // lease, state, stream, alive, positions
    const text = dump.join('\n');
    const token = mock.mock.tokens.main;
    for (let i = 0; i + 8 <= token.length; i++) expect(text).not.toContain(token.slice(i, i + 8));
  }, 30_000);
});

describe('values gone bad in Redis', () => {
  it('an item or a cursor that is not JSON, or a cursor of another list, is warned of and passed over: the watches go on', async (context) => {
    const redis = skipWithoutRedis(context);
    const mock = served();
    const fleet = await members(2, mock, redis.url);
    const prefix = 'test:bad-values:';
    const feeds = fleet.map((member) => watchLogs(member, prefix));
    const got = feeds.map(collect);
    await polling(redis.url, prefix);
    const check = (await connect('ioredis', redis.url)) as Redis;
    const [state] = await check.keys(`${prefix}*:state`);
    const stream = state!.replace(/:state$/, ':stream');
    // An entry whose item is not JSON, in the count; then a starting point of another list.
    const n = Number(await check.hget(state!, 'n')) + 1;
    await check.xadd(stream, '*', 'n', String(n), 'item', '{"id": "broken');
    await check.hset(state!, 'n', String(n));
    await check.xadd(stream, '*', 'n', String(n), 'cursor', JSON.stringify({ v: 1, list: 'GET /api/v1/server/members', seen: [] }));
    const added = addLogs(mock.mock, 2);
    await until(() => got.every((feed) => feed.ids.length >= 2), 5_000, 'the items after the bad ones');
    // The cursor Redis holds goes bad, and its poller leaves: the next one starts from the list as it is.
    await check.hset(state!, 'cursor', 'not json');
    const first = poller(mock.polls);
    await feeds[first]!.return();
    const left = Date.now();
    await until(() => mock.polls.some((poll) => poll.at > left), 5_000, 'another poller');
    await sleep(300);
    added.push(...addLogs(mock.mock, 2));
    const stayed = got[1 - first]!;
    await until(() => stayed.ids.length >= 4, 5_000, 'the items after the takeover');
    expect([...stayed.ids].sort()).toEqual([...added].sort());
    const warned = fleet.flatMap((member) => member.warnings).join('\n');
    expect(warned).toMatch(/passing over an item in the fleet that is not JSON/);
    expect(warned).toMatch(/the fleet holds an unusable cursor \(.*belongs to "GET \/api\/v1\/server\/members"/);
    expect(warned).toMatch(/passing over a cursor in the fleet that is not JSON/);
  }, 30_000);
});

describe('a client that is not Redis', () => {
  it("answers that are not the script's count as Redis failing: one warning, and no busy loop of retries", async () => {
    const mock = createMockApi({ seed: 1 });
    let calls = 0;
    // ioredis-shaped, ready, answering every command with null.
    const double = {
      status: 'ready',
      evalsha: () => (calls++, Promise.resolve(null)),
      eval: () => (calls++, Promise.resolve(null)),
      duplicate: () => ({ on() {}, call: () => Promise.resolve(null), disconnect() {} }),
    };
    const warnings: string[] = [];
    const logger = { error: () => {}, warn: (line: string) => warnings.push(line), info: () => {}, debug: () => {} };
    const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://api.test', fetch: mock.fetch, logger });
    const feeds = (['every', 'once'] as const).map((delivery) =>
      client.logs.list().watch({ fleet: redisFleet(double), delivery, intervalMs: 1_000 }),
    );
    for (const feed of feeds) cleanups.push(() => feed.return());
    for (const feed of feeds) void feed.next().catch(() => undefined);
    await sleep(1_000);
    expect(calls, 'script calls in a second').toBeLessThan(20); // ticks every half second, a join or read after each
    expect(warnings).toHaveLength(2); // one per fleet
    expect(warnings[0]).toMatch(/the fleet's Redis failed \(Redis answered the fleet's \w+ with object, not a list\)/);
  });
});

describe('arguments', () => {
  it('redisFleet refuses what is not an ioredis or node-redis client, a prefix that is not a string, a maxLength that is not whole ≥ 1', () => {
    const ioredis = new Redis({ lazyConnect: true });
    cleanups.push(() => ioredis.disconnect());
    expect(() => redisFleet({} as never)).toThrow(InvalidArgumentError);
    expect(() => redisFleet(null as never)).toThrow(/needs an ioredis or node-redis client/);
    expect(() => redisFleet({ eval() {}, evalsha() {} })).toThrow(/duplicate/);
    expect(() => redisFleet(ioredis, { prefix: 5 as never })).toThrow(/prefix must be a string/);
    for (const maxLength of [0, -1, 1.5, Number.NaN, Infinity, '100'] as number[]) {
      expect(() => redisFleet(ioredis, { maxLength }), String(maxLength)).toThrow(InvalidArgumentError);
    }
  });

  it("issue 30, attack: redisFleet options that are not an object, or name an option it does not have (ioredis's keyPrefix), are refused: the fleet would use the default prefix, apart from the rest", () => {
    const ioredis = new Redis({ lazyConnect: true });
    cleanups.push(() => ioredis.disconnect());
    expect(() => redisFleet(ioredis, 'my-bot:watch:' as never)).toThrow(InvalidArgumentError);
    expect(() => redisFleet(ioredis, 'my-bot:watch:' as never)).toThrow('redisFleet options must be an object, got a string');
    expect(() => redisFleet(ioredis, { keyPrefix: 'my-bot:' } as never)).toThrow(
      'unknown redisFleet option "keyPrefix" (known: prefix, maxLength)',
    );
    expect(() => redisFleet(ioredis, null as never)).not.toThrow(); // as undefined: the defaults
  });

  it('bad fleet options are InvalidArgumentError naming them, before any request of the watch', async () => {
    const mock = createMockApi({ seed: 1 });
    let requests = 0;
    const fetch: typeof globalThis.fetch = (input, init) => (requests++, mock.fetch(input, init));
    const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://api.test', fetch });
    const ioredis = new Redis({ lazyConnect: true });
    cleanups.push(() => ioredis.disconnect());
    const fleet = redisFleet(ioredis);
    const list = client.logs.list();
    await list;
    for (const [options, message] of [
      [{ delivery: 'once' }, /delivery needs a fleet/],
      [{ consumer: 'shard-1' }, /consumer needs a fleet/],
      [{ fleet: {} }, /fleet must be what redisFleet\(\) returns, got an object/],
      [{ fleet: 'redis' }, /fleet must be what redisFleet\(\) returns/],
      [{ fleet, delivery: 'all' }, /delivery must be 'every' or 'once', got "all"/],
      [{ fleet, consumer: '' }, /consumer must be a name of 1 to 200 characters/],
      [{ fleet, consumer: 'shard\n1' }, /none a control character/],
      [{ fleet, consumer: 'x'.repeat(201) }, /consumer must be a name/],
      [{ fleet, consumer: 7 }, /consumer must be a name .* got 7/],
      [
        { fleet, cursor: { v: 1, list: 'GET /api/v1/server/members', seen: [] } },
        /watch cursor belongs to "GET \/api\/v1\/server\/members"/,
      ],
    ] as const) {
      expect(() => list.watch(options as never), JSON.stringify(options)).toThrow(InvalidArgumentError);
      expect(() => list.watch(options as never), JSON.stringify(options)).toThrow(message);
    }
    await sleep(5);
    expect(requests).toBe(1);
    expect(ioredis.status).toBe('wait'); // nor a Redis command
  });
});
