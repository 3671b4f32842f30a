/**
 * `PagePromise.watch()` against fetch doubles: the baseline, what a poll costs, de-duplication
 * across pages, the cursor, failures and backoff, and ending at once.
 */
import {
  AuthenticationError,
  CommunityServerClient,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  Watch,
  type ClientOptions,
  type WatchCursor,
} from 'community-server-sdk';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cadUnit, log } from '../../fixtures';
import { BASE_URL, TOKEN, clientWith, errorBody, json, type Handler } from '../../helpers';
import { listServer, type Row } from './list-server';

const logRow = (row: Row) => ({ ...log, ...row });
const logs = (from: number, to: number, time = (i: number) => 1000 + i) =>
  Array.from({ length: to - from + 1 }, (_, k) => ({ id: `log_${String(from + k).padStart(4, '0')}`, createdAt: time(from + k) }));

function setup(rows: Row[] = logs(1, 5), options: ClientOptions = {}) {
  const server = listServer(logRow, rows);
  const { client } = clientWith(server.handler, { maxRetries: 0, rateLimit: 'off', ...options });
  return { server, client };
}

/** The next `n` items of a watch, failing the test if they do not come within a few seconds. */
async function take<T>(feed: AsyncIterator<T>, n: number): Promise<T[]> {
  const items: T[] = [];
  while (items.length < n) {
    const result = await Promise.race([
      feed.next(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`only ${items.length} of ${n} items came`)), 5_000)),
    ]);
    if (result.done) throw new Error(`the watch ended after ${items.length} of ${n} items`);
    items.push(result.value);
  }
  return items;
}

const ids = (items: { id: unknown }[]) => items.map((item) => item.id);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  vi.restoreAllMocks(); // first: a setTimeout spied on under fake timers restores the fake one
  vi.useRealTimers();
});

describe('the baseline and what a poll costs', () => {
  it('does not yield the first page, spends no request on it, then yields new items oldest first', async () => {
    const { server, client } = setup();
    const list = client.logs.list();
    await list;
    const feed = list.watch({ intervalMs: 1 });
    expect(feed).toBeInstanceOf(Watch);
    server.state.rows.push(...logs(6, 8));
    expect(ids(await take(feed, 3))).toEqual(['log_0006', 'log_0007', 'log_0008']);
    // The list call's page plus one poll: the baseline cost nothing more.
    expect(server.queries()).toEqual(['', 'orderBy=createdAt&sort=desc&page=1']);
    feed.close();
  });

  it('a poll with nothing new costs exactly one request', async () => {
    const { server, client } = setup(logs(1, 40));
    const feed = client.logs.list().watch({ intervalMs: 1 });
    const pending = feed.next();
    await vi.waitFor(() => expect(server.served.length).toBeGreaterThanOrEqual(12), { timeout: 3_000 });
    feed.close();
    expect(await pending).toEqual({ done: true, value: undefined });
    const polls = server.queries().slice(1);
    expect(new Set(polls)).toEqual(new Set(['orderBy=createdAt&sort=desc&page=1']));
  });

  it('when the caller asked for another order, spends one request on a baseline in the watch order', async () => {
    const { server, client } = setup(logs(1, 30));
    const feed = client.logs.list({ sort: 'asc', pageSize: 5 }).watch({ intervalMs: 1 });
    const next = feed.next();
    await vi.waitFor(() => expect(server.served.length).toBeGreaterThanOrEqual(3));
    server.state.rows.push(...logs(31, 32));
    expect((await next).value).toMatchObject({ id: 'log_0031' });
    expect(ids(await take(feed, 1))).toEqual(['log_0032']);
    expect(server.queries().slice(0, 2)).toEqual(['sort=asc&pageSize=5', 'sort=desc&pageSize=5&orderBy=createdAt&page=1']);
    feed.close();
  });

  it('reads further pages only while a whole page is new', async () => {
    const { server, client } = setup(logs(1, 3));
    const list = client.logs.list({ pageSize: 10 });
    await list;
    const feed = list.watch({ intervalMs: 1 });
    server.state.rows.push(...logs(4, 28));
    expect(ids(await take(feed, 25))).toEqual(logs(4, 28).map((row) => row.id));
    expect(server.queries().slice(1)).toEqual([1, 2, 3].map((page) => `pageSize=10&orderBy=createdAt&sort=desc&page=${page}`));
    feed.close();
  });

  it('an empty list is a baseline too: everything added later is yielded', async () => {
    const { server, client } = setup([]);
    const feed = client.logs.list().watch({ intervalMs: 1 });
    await wait(5);
    server.state.rows.push(...logs(1, 2));
    expect(ids(await take(feed, 2))).toEqual(['log_0001', 'log_0002']);
    expect(feed.cursor).toEqual({ v: 1, list: 'GET /api/v1/server/logs', after: { time: 1002, ids: ['log_0002'] } });
    feed.close();
  });
});

describe('de-duplication', () => {
  it('items sharing a timestamp, before and after the position, are each yielded once', async () => {
    const { server, client } = setup(logs(1, 3, () => 500));
    const list = client.logs.list();
    await list;
    const feed = list.watch({ intervalMs: 1 });
    server.state.rows.push(...logs(4, 5, () => 500)); // same second as the baseline's newest
    const first = await take(feed, 2);
    server.state.rows.push(...logs(6, 6, () => 500), ...logs(7, 7, () => 501));
    const second = await take(feed, 2);
    expect(ids([...first, ...second])).toEqual(['log_0004', 'log_0005', 'log_0006', 'log_0007']);
    expect(feed.cursor).toEqual({ v: 1, list: 'GET /api/v1/server/logs', after: { time: 501, ids: ['log_0007'] } });
    feed.close();
  });

  it('a whole page sharing the baseline timestamp extends the baseline, not the yield', async () => {
    const { server, client } = setup([...logs(1, 3, () => 100), ...logs(4, 15, () => 200)]);
    const list = client.logs.list({ pageSize: 5 });
    await list;
    const feed = list.watch({ intervalMs: 1 });
    server.state.rows.push(...logs(16, 16, () => 200));
    expect(ids(await take(feed, 1))).toEqual(['log_0016']);
    feed.close();
  });

  it('items inserted between the pages of one poll are not repeated', async () => {
    const { server, client } = setup(logs(1, 2));
    const list = client.logs.list({ pageSize: 3 });
    await list;
    const feed = list.watch({ intervalMs: 1 });
    server.state.rows.push(...logs(3, 9));
    server.state.beforeAnswer = (url) => {
      // Before page 2 of the first poll: two more arrive at the top, pushing page 1's items down.
      if (url.searchParams.get('page') === '2' && server.state.rows.length === 9) server.state.rows.push(...logs(10, 11));
    };
    expect(ids(await take(feed, 9))).toEqual(logs(3, 11).map((row) => row.id));
    await wait(10);
    feed.close();
    expect((await feed.next()).done).toBe(true);
  });

  it('items deleted between the pages of one poll: the total falls, the poll reads again and loses nothing', async () => {
    const { server, client } = setup(logs(1, 2));
    const list = client.logs.list({ pageSize: 3 });
    await list;
    const feed = list.watch({ intervalMs: 1 });
    server.state.rows.push(...logs(3, 9));
    let deleted = false;
    server.state.beforeAnswer = (url) => {
      // Before page 2: two of page 1's items go, so log_0006 would move up onto page 1 and be skipped.
      if (url.searchParams.get('page') === '2' && !deleted) {
        deleted = true;
        server.state.rows = server.state.rows.filter((row) => row.id !== 'log_0009' && row.id !== 'log_0008');
      }
    };
    const seen = ids(await take(feed, 7)); // 9 and 8 were read on page 1, before they went
    expect(seen).toEqual(['log_0003', 'log_0004', 'log_0005', 'log_0006', 'log_0007', 'log_0008', 'log_0009']);
    const polls = server
      .queries()
      .slice(1, 4)
      .map((query) => new URLSearchParams(query).get('page'));
    expect(polls).toEqual(['1', '2', '1']); // read again from page 1
    feed.close();
  });

  it('an item deleted before any poll saw it is not yielded, and the position still holds', async () => {
    const { server, client } = setup(logs(1, 2));
    const list = client.logs.list();
    await list;
    const feed = list.watch({ intervalMs: 20 });
    server.state.rows.push(...logs(3, 4));
    server.state.rows = server.state.rows.filter((row) => row.id !== 'log_0004');
    expect(ids(await take(feed, 1))).toEqual(['log_0003']);
    server.state.rows = server.state.rows.filter((row) => row.id !== 'log_0003'); // the position's own item goes
    server.state.rows.push(...logs(5, 5));
    expect(ids(await take(feed, 1))).toEqual(['log_0005']);
    feed.close();
  });
});

describe('the cursor', () => {
  it('says exactly what was yielded; a new watch from it, on a new client, repeats nothing and misses nothing', async () => {
    const { server, client } = setup(logs(1, 2, () => 700));
    const list = client.logs.list();
    expect(list.watch().cursor).toBeUndefined(); // before the first page is read
    await list;
    const feed = list.watch({ intervalMs: 1 });
    server.state.rows.push(...logs(3, 6, () => 700));
    const before = await take(feed, 2);
    const saved = JSON.stringify(feed.cursor);
    feed.close();
    server.state.rows.push(...logs(7, 8, (i) => 700 + i));
    const restarted = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch: fetchOf(server.handler), maxRetries: 0 });
    const resumed = restarted.logs.list().watch({ intervalMs: 1, cursor: JSON.parse(saved) as WatchCursor });
    const after = await take(resumed, 4);
    expect([...ids(before), ...ids(after)]).toEqual(logs(3, 8).map((row) => row.id));
    resumed.close();
  });

  it('a cursor from another list, or malformed, is InvalidArgumentError before any request of the watch', async () => {
    const { server, client } = setup();
    const list = client.logs.list();
    await list;
    const other = { v: 1, list: 'GET /api/v1/server/loas', after: { time: 1, ids: [] } } as const;
    const bad: [unknown, RegExp][] = [
      [other, /cursor belongs to "GET \/api\/v1\/server\/loas", not to this list/],
      ['log_0001', /cursor must be an object, got "log_0001"/],
      [{ ...other, list: 'GET /api/v1/server/logs', v: 2 }, /version 2, expected 1/],
      [{ v: 1, list: 'GET /api/v1/server/logs' }, /needs "after"/],
      [{ v: 1, list: 'GET /api/v1/server/logs', after: { time: 'yesterday', ids: [] } }, /"after.time": a number or null/],
      [{ v: 1, list: 'GET /api/v1/server/logs', after: { time: 1, ids: 'log_0001' } }, /"after.ids": an array of at most 100000 ids/],
      [{ v: 1, list: 'GET /api/v1/server/logs', seen: [] }, /unexpected field "seen"/],
    ];
    for (const [cursor, message] of bad) {
      expect(() => list.watch({ cursor: cursor as WatchCursor })).toThrow(InvalidArgumentError);
      expect(() => list.watch({ cursor: cursor as WatchCursor })).toThrow(message);
    }
    expect(() => client.logs.byUser('bob').watch({ cursor: { ...other, list: 'GET /api/v1/server/logs/user/alice' } })).toThrow(
      /belongs to/,
    );
    await wait(20);
    expect(server.served).toHaveLength(2); // the two list calls' own pages, nothing else
  });
});

describe('a hostile cursor is refused before any request of the watch', () => {
  const day = 86_400;
  const nowSeconds = Math.floor(Date.now() / 1000);
  const logs = (after: unknown) => ({ v: 1, list: 'GET /api/v1/server/logs', after }) as unknown as WatchCursor;

  it.each([
    ['a time a year and more ahead, in seconds', { time: nowSeconds + 400 * day, ids: [] }, /more than a year ahead of this clock/],
    ['a time a year and more ahead, in milliseconds', { time: Date.now() + 400 * day * 1000, ids: [] }, /more than a year ahead/],
    ['a time past any date', { time: 9e15, ids: [] }, /more than a year ahead/],
    ['a time of 0, before which everything is new', { time: 0, ids: [] }, /"after.time" 0: a time must be after 1970/],
    ['a negative time', { time: -5, ids: [] }, /"after.time" -5/],
    ['more ids than a watch keeps', { time: nowSeconds, ids: Array.from({ length: 100_001 }, (_, i) => `id-${i}`) }, /at most 100000 ids/],
    ['an id of 2,000 characters', { time: nowSeconds, ids: ['x'.repeat(2_000)] }, /strings of up to 1024 characters/],
    ['an id that is not finite', { time: nowSeconds, ids: [Number.NaN] }, /finite numbers/],
  ])('%s', async (_, after, message) => {
    const { server, client } = setup();
    const list = client.logs.list();
    await list;
    expect(() => list.watch({ cursor: logs(after) })).toThrow(InvalidArgumentError);
    expect(() => list.watch({ cursor: logs(after) })).toThrow(message);
    await wait(20);
    expect(server.served).toHaveLength(1); // the list's own page, nothing of a watch
  });

  it('a diffed list refuses more ids than a watch keeps', async () => {
    const { client } = setup();
    const list = client.departments.list();
    await list.catch(() => undefined);
    const seen = Array.from({ length: 100_001 }, (_, i) => i);
    expect(() => list.watch({ cursor: { v: 1, list: 'GET /api/v1/server/departments', seen } })).toThrow(
      /"seen": an array of at most 100000 ids/,
    );
  });

  it('a time within the year ahead (a service clock ahead, a mock clock moved on) is taken, and the watch goes on from it', async () => {
    const { client } = setup();
    const list = client.logs.list();
    await list;
    const ahead = logs({ time: nowSeconds + 30 * day, ids: [] });
    const feed = list.watch({ cursor: ahead, intervalMs: 10 });
    expect(feed.cursor).toEqual(ahead);
    feed.close();
  });
});

describe('options and arguments', () => {
  it.each([
    [{ intervalMs: 0 }, /intervalMs must be a number of milliseconds/],
    [{ intervalMs: -5 }, /intervalMs/],
    [{ intervalMs: Number.NaN }, /intervalMs .* got NaN/],
    [{ intervalMs: Number.POSITIVE_INFINITY }, /intervalMs .* got Infinity/],
    [{ intervalMs: '5000' }, /intervalMs .* got "5000"/],
    [{ interval: 5000 }, /unknown watch option "interval" \(known: intervalMs, cursor, signal, fleet, delivery, consumer\)/],
    [{ signal: 'stop' }, /signal must be an AbortSignal/],
    ['fast', /watch options must be an object/],
  ])('%o is InvalidArgumentError naming it, before any request of the watch', async (options, message) => {
    const { server, client } = setup();
    const list = client.logs.list();
    await list;
    expect(() => list.watch(options as never)).toThrow(InvalidArgumentError);
    expect(() => list.watch(options as never)).toThrow(message);
    await wait(5);
    expect(server.served).toHaveLength(1);
  });

  it('bad list arguments throw at watch(), with nothing sent and no unhandled rejection', async () => {
    const { server, client } = setup();
    expect(() => client.logs.list({ pageSize: 0 }).watch()).toThrow(/pageSize must be a whole number/);
    expect(() => client.logs.byUser('..').watch()).toThrow(InvalidArgumentError);
    await wait(5);
    expect(server.served).toHaveLength(0);
  });
});

describe('failures', () => {
  const faults: [string, () => Response | Promise<Response>][] = [
    ['503', () => json(errorBody('unavailable', 'down'), 503)],
    ['500', () => json(errorBody('internal', 'boom'), 500)],
    ['408', () => json(errorBody('timeout', 'slow'), 408)],
    ['429', () => json(errorBody('rate_limited', 'slow down'), 429)],
    ['a network error', () => Promise.reject(new TypeError('fetch failed'))],
  ];
  it.each(faults)('%s does not end the watch: it backs off and polls again', async (_, fault) => {
    const { server, client } = setup();
    const list = client.logs.list();
    await list;
    const feed = list.watch({ intervalMs: 1 });
    server.state.beforeAnswer = (_url, n) => (n <= 4 ? fault() : undefined);
    server.state.rows.push(...logs(6, 6));
    expect(ids(await take(feed, 1))).toEqual(['log_0006']);
    expect(server.served.length).toBeGreaterThanOrEqual(5);
    feed.close();
  });

  it('a timeout does not end the watch', async () => {
    const { server, client } = setup(logs(1, 5), { timeout: 30 });
    const list = client.logs.list();
    await list;
    const feed = list.watch({ intervalMs: 1 });
    server.state.beforeAnswer = (_url, n) => (n === 2 ? new Promise<Response>(() => {}) : undefined);
    server.state.rows.push(...logs(6, 6));
    expect(ids(await take(feed, 1))).toEqual(['log_0006']);
    feed.close();
  });

  it.each([
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
  ])('%i ends the watch by throwing its error', async (status, ErrorClass) => {
    const { server, client } = setup();
    const list = client.logs.list();
    await list;
    const feed = list.watch({ intervalMs: 1 });
    server.state.beforeAnswer = () => json(errorBody('no', 'refused'), status);
    await expect(feed.next()).rejects.toBeInstanceOf(ErrorClass);
    expect((await feed.next()).done).toBe(true);
    expect(server.served).toHaveLength(2); // no retry of a final answer
  });

  it('an item without its time field ends the watch with an error naming the field', async () => {
    const { server, client } = setup(logs(1, 1), { validation: 'off' });
    const list = client.logs.list();
    await list;
    const feed = list.watch({ intervalMs: 1 });
    server.state.rows.push({ id: 'log_x', createdAt: undefined });
    await expect(feed.next()).rejects.toThrow(/log_x.* has no createdAt/);
  });

  it('backs off exponentially with jitter, capped, from the start again after a success, and obeys Retry-After', async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(1); // the top of each jitter range
    const { delays, server, feed } = await watchRecordingWaits();
    // Requests 2-9 fail (503), 10 succeeds, 11 is a 429 asking for 90 s, 12 succeeds, 13 fails.
    server.state.beforeAnswer = (_url, n) =>
      (n >= 2 && n <= 9) || n === 13
        ? json(errorBody('unavailable', 'down'), 503)
        : n === 11
          ? json(errorBody('rate_limited', 'slow'), 429, { 'retry-after': '90' })
          : undefined;
    server.state.rows.push(...logs(2, 2));
    const pending = feed.next();
    await vi.advanceTimersByTimeAsync(400_000);
    expect((await pending).value).toMatchObject({ id: 'log_0002' });
    const ended = feed.next();
    await vi.advanceTimersByTimeAsync(200_000);
    feed.close();
    await ended;
    const waits = delays.filter((ms) => ms !== CLIENT_TIMEOUT && ms > 0);
    // interval; backoffs 1 s, 2 s, … capped at 60 s; interval; the 429's 90 s; interval; a
    // failure after a success backs off from 1 s again; interval.
    expect(waits.slice(0, 14)).toEqual([
      5_000, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 5_000, 90_000, 5_000, 1_000, 5_000,
    ]);
  });

  it('with Math.random at 0, a backoff is half its step (equal jitter)', async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { delays, server, feed } = await watchRecordingWaits();
    server.state.beforeAnswer = (_url, n) => (n >= 2 && n <= 3 ? json(errorBody('unavailable', 'down'), 503) : undefined);
    const pending = feed.next();
    await vi.advanceTimersByTimeAsync(9_000);
    feed.close();
    await pending;
    expect(delays.filter((ms) => ms !== CLIENT_TIMEOUT && ms > 0).slice(0, 3)).toEqual([5_000, 500, 1_000]);
  });

  it("spends the client's rate-limit budget: a spent window holds the next poll until it resets", async () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
    const reset = String(1_800_000_000 + 30);
    const server = listServer(logRow, logs(1, 1));
    const inner = server.handler;
    const { client } = clientWith(
      async (request, n) => {
        const response = await inner(request, n);
        response.headers.set('x-ratelimit-remaining', '0');
        response.headers.set('x-ratelimit-reset', reset);
        return response;
      },
      { maxRetries: 0, rateLimit: 'wait', timeout: 120_000 },
    );
    const list = client.logs.list();
    await vi.advanceTimersByTimeAsync(0);
    const feed = list.watch({ intervalMs: 1_000 });
    const pending = feed.next();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(server.served).toHaveLength(1); // the window is spent until its reset, 30 s away
    await vi.advanceTimersByTimeAsync(11_000);
    expect(server.served.length).toBeGreaterThanOrEqual(2);
    feed.close();
    await pending;
  });
});

it('the token appears nowhere in a watch, its cursor or its errors', async () => {
  const { server, client } = setup();
  const list = client.logs.list();
  await list;
  const feed = list.watch({ intervalMs: 1 });
  server.state.beforeAnswer = () => json(errorBody('unauthorized', `bad token ${TOKEN}`), 401);
  const error = await feed.next().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AuthenticationError);
  for (const shown of [
    inspect(feed, { depth: 10, showHidden: true }),
    JSON.stringify(feed),
    JSON.stringify(feed.cursor),
    inspect(error, { depth: 10 }),
    JSON.stringify(error),
  ]) {
    expect(shown).not.toContain(TOKEN);
  }
});

describe('ending at once', () => {
  /** A server that never answers: the fetch settles only when aborted, as a real fetch does. */
  const never = (signal: AbortSignal) =>
    new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

  it('close() with a request in flight that never answers: next() is done, the request aborted, no timer left', async () => {
    vi.useFakeTimers();
    let aborted: AbortSignal | undefined;
    const server = listServer(logRow, logs(1, 1));
    const { client } = clientWith(
      (request, n) => {
        if (n === 1) return server.handler(request, n);
        aborted = request.signal;
        return never(request.signal);
      },
      { maxRetries: 0, rateLimit: 'off' },
    );
    const list = client.logs.list();
    await vi.advanceTimersByTimeAsync(0);
    const feed = list.watch({ intervalMs: 10 });
    const pending = feed.next();
    await vi.advanceTimersByTimeAsync(10);
    expect(aborted?.aborted).toBe(false);
    feed.close();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(aborted?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(0); // lets the aborted fetch settle through ky, which then clears its timeout
    expect(vi.getTimerCount()).toBe(0);
  });

  it('signal abort during the wait between polls ends it quietly, with no timer left', async () => {
    vi.useFakeTimers();
    const { client, server } = setup();
    const list = client.logs.list();
    await vi.advanceTimersByTimeAsync(0);
    const controller = new AbortController();
    const feed = list.watch({ intervalMs: 60_000, signal: controller.signal });
    const pending = feed.next();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(vi.getTimerCount()).toBe(1); // the wait for the next poll
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(vi.getTimerCount()).toBe(0);
    expect(server.served).toHaveLength(1);
  });

  it('one signal may end many watches: no listener piles up on it (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const { client } = setup();
    const controller = new AbortController();
    const feeds = Array.from({ length: 25 }, () => client.logs.list().watch({ intervalMs: 1_000, signal: controller.signal }));
    const pending = feeds.map((feed) => feed.next());
    await wait(20);
    controller.abort();
    expect(await Promise.all(pending)).toEqual(feeds.map(() => ({ done: true, value: undefined })));
    await wait(5);
    process.off('warning', onWarning);
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });

  it('an already aborted signal ends it before any request of its own', async () => {
    const { client, server } = setup();
    const list = client.logs.list();
    await list;
    const feed = list.watch({ signal: AbortSignal.abort() });
    expect(await feed.next()).toEqual({ done: true, value: undefined });
    expect(server.served).toHaveLength(1);
  });

  it('break out of for await ends it: the cursor includes the item broken on, nothing stays pending', async () => {
    vi.useFakeTimers();
    const { client, server } = setup();
    const list = client.logs.list();
    await vi.advanceTimersByTimeAsync(0);
    const feed = list.watch({ intervalMs: 1_000 });
    server.state.rows.push(...logs(6, 8));
    const loop = (async () => {
      for await (const item of feed) if (item.id === 'log_0007') break;
    })();
    await vi.advanceTimersByTimeAsync(1_000);
    await loop;
    expect(feed.cursor).toEqual({ v: 1, list: 'GET /api/v1/server/logs', after: { time: 1007, ids: ['log_0007'] } });
    expect(vi.getTimerCount()).toBe(0);
    expect((await feed.next()).done).toBe(true);
    expect(server.served).toHaveLength(2);
  });
});

describe('lists without a time field (diffed by id)', () => {
  const unitRow = (row: Row) => ({ ...cadUnit, ...row });

  it('reads the whole list each poll, yields ids it has not seen, forgets deleted ones', async () => {
    const server = listServer(
      unitRow,
      [1, 2, 3, 4, 5].map((id) => ({ id })),
    );
    const { client } = clientWith(server.handler, { maxRetries: 0, rateLimit: 'off' });
    const list = client.cad.units.list({ pageSize: 2 });
    await list;
    const feed = list.watch({ intervalMs: 1 });
    await vi.waitFor(() => expect(server.served.length).toBeGreaterThanOrEqual(4)); // the baseline is read
    server.state.rows.push({ id: 9 }, { id: 6 });
    expect(ids(await take(feed, 2))).toEqual([6, 9]);
    // Baseline: 3 pages in id order (the caller's page 1 was in the server's default order).
    expect(server.queries().slice(1, 4)).toEqual([1, 2, 3].map((page) => `pageSize=2&orderBy=id&sort=asc&page=${page}`));
    server.state.rows = server.state.rows.filter((row) => row.id !== 9);
    const pending = feed.next(); // polls go on while a next() waits
    const served = server.served.length;
    await vi.waitFor(() => expect(server.served.length).toBeGreaterThan(served + 8));
    server.state.rows.push({ id: 9 }); // gone and back: it entered the list again
    expect((await pending).value).toMatchObject({ id: 9 });
    expect(feed.cursor).toMatchObject({ v: 1, list: 'GET /api/v1/server/cad/units' });
    expect([...(feed.cursor as { seen: readonly number[] }).seen].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 9]);
    feed.close();
  });

  it('resumes from its cursor', async () => {
    const server = listServer(
      unitRow,
      [1, 2].map((id) => ({ id })),
    );
    const { client } = clientWith(server.handler, { maxRetries: 0, rateLimit: 'off' });
    const resumed = client.cad.units.list().watch({ intervalMs: 1, cursor: { v: 1, list: 'GET /api/v1/server/cad/units', seen: [1] } });
    expect(ids(await take(resumed, 1))).toEqual([2]);
    expect(() =>
      client.cad.units.list().watch({ cursor: { v: 1, list: 'GET /api/v1/server/cad/units', after: { time: 1, ids: [] } } as never }),
    ).toThrow(/unexpected field "after"/);
    resumed.close();
  });
});

const CLIENT_TIMEOUT = 77_777;

/** Under fake timers: a watch of logs every 5 s, and the delay of every timer set from then on (the client's timeout is CLIENT_TIMEOUT). */
async function watchRecordingWaits() {
  const delays: number[] = [];
  const realSetTimeout = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation((fn: () => void, ms?: number) => {
    delays.push(ms ?? 0);
    return realSetTimeout(fn, ms);
  });
  const { server, client } = setup(logs(1, 1), { timeout: CLIENT_TIMEOUT });
  const list = client.logs.list();
  await vi.advanceTimersByTimeAsync(0);
  return { delays, server, feed: list.watch({ intervalMs: 5_000 }) };
}

/** A plain fetch over a test handler (for a second client on the same list). */
function fetchOf(handler: Handler): typeof globalThis.fetch {
  let n = 0;
  return async (input: RequestInfo | URL, init?: RequestInit) => handler(input instanceof Request ? input : new Request(input, init), ++n);
}
