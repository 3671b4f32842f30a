/**
 * Live lists (`q.x.listLive()`) through query-core's `QueryClient` and `QueryObserver`, against
 * the in-process mock, its world changed by `mock.activity.step()`. Fake timers: "within one
 * interval" is checked by moving the clock one interval, no more. What is proved: the watch
 * starts with the first observer and stops, its request aborted, when the last one leaves; a
 * refetch never starts a second one; each new item is put first, once, newest first, and the
 * data stays bounded; a failing watch becomes the query's error.
 */
import { QueryClient, QueryObserver } from '@tanstack/query-core';
import { CommunityServerClient, NotFoundError, type Log } from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { queries } from 'community-server-sdk/query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MOCK_ORIGIN } from '../helpers';

const INTERVAL = 1_000;
const PAGE = 5;

let mock: MockApi;
let queryClient: QueryClient;
/** The signal of every request the client sent, in order. */
let signals: AbortSignal[];
let q: ReturnType<typeof queries>;

beforeEach(() => {
  vi.useFakeTimers();
  mock = createMockApi({ seed: 3 });
  signals = [];
  const client = new CommunityServerClient({
    token: mock.tokens.main,
    baseUrl: MOCK_ORIGIN,
    maxRetries: 0,
    fetch: (input, init) => {
      signals.push((input as Request).signal ?? init?.signal);
      return mock.fetch(input, init);
    },
  });
  q = queries(client);
  queryClient = new QueryClient();
});

afterEach(() => {
  queryClient.clear();
  vi.useRealTimers();
});

/** Requests of `logs.list` the mock has answered. */
const polls = () => mock.requests.filter((request) => request.endpoint === 'logs.list').length;
/** Moves the clock by `ms`, running what falls due (and the promises it starts). */
const elapse = (ms: number) => vi.advanceTimersByTimeAsync(ms);
const ids = (logs: readonly Log[] | undefined) => (logs ?? []).map((log) => log.id);

/**
 * Steps the mock's activity until `n` new moderation logs exist, a second apart on the mock's clock
 * (its times are Unix seconds, and the timers are fake: without it they would share one), and
 * returns them, oldest first.
 */
function newLogs(n: number): Log[] {
  const made: Log[] = [];
  while (made.length < n) {
    mock.clock.advance(1_000);
    for (const event of mock.activity.step()) if (event.kind === 'logs') made.push(event.row);
  }
  return made;
}

/** The mock's newest `n` logs, newest first, as the list serves them. */
const newest = (n: number) =>
  mock.store.main.logs
    .all()
    .toSorted((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
    .slice(0, n)
    .map((log) => log.id);

function live() {
  return new QueryObserver(queryClient, q.logs.listLive({ pageSize: PAGE }, { intervalMs: INTERVAL }));
}

describe('a live list through QueryObserver', () => {
  it('starts its watch with the first observer, and shows each new log first, once, within one interval', async () => {
    const observer = live();
    await elapse(5 * INTERVAL);
    expect(polls()).toBe(0); // built, not observed: nothing is sent

    const unsubscribe = observer.subscribe(() => {});
    await elapse(0);
    expect(ids(observer.getCurrentResult().data?.data)).toEqual(newest(PAGE));
    expect(polls()).toBe(1); // the first page, which is also the watch's baseline

    const [older, newer] = newLogs(2);
    await elapse(INTERVAL);
    const shown = ids(observer.getCurrentResult().data?.data);
    expect(shown.slice(0, 2)).toEqual([newer!.id, older!.id]);
    expect(shown).toEqual(newest(PAGE + 2));
    expect(new Set(shown).size).toBe(shown.length);
    expect(observer.getCurrentResult().fetchStatus).toBe('idle'); // the watch is not a fetch

    await elapse(3 * INTERVAL); // quiet: the same items, none twice
    expect(ids(observer.getCurrentResult().data?.data)).toEqual(shown);
    expect(polls()).toBe(1 + 4); // one poll an interval
    unsubscribe();
  });

  it('keeps one watch for all its observers, and stops it, its request aborted, when the last one leaves', async () => {
    const first = live();
    const second = live();
    const offFirst = first.subscribe(() => {});
    const offSecond = second.subscribe(() => {});
    await elapse(0);
    await elapse(3 * INTERVAL);
    expect(polls()).toBe(1 + 3); // one page, then one poll an interval: not two watches

    offFirst();
    await elapse(INTERVAL);
    expect(polls()).toBe(1 + 4); // one observer left: still watching

    // The last observer leaves while a poll is on the wire: the poll's request is aborted.
    mock.faults.add({ endpoint: 'logs.list', latencyMs: 10 * INTERVAL, times: 1 });
    await elapse(INTERVAL);
    const inFlight = signals.at(-1)!;
    expect(inFlight.aborted).toBe(false);
    offSecond();
    expect(inFlight.aborted).toBe(true);
    const sent = signals.length;
    await elapse(20 * INTERVAL);
    expect(signals.length).toBe(sent); // no poll after
  });

  it('starts again with the next observer, from a fresh first page, keeping what it had', async () => {
    const observer = live();
    let unsubscribe = observer.subscribe(() => {});
    await elapse(0);
    const [seen] = newLogs(1);
    await elapse(INTERVAL);
    unsubscribe();

    const whileAway = newLogs(2);
    await elapse(10 * INTERVAL);
    const before = polls();
    unsubscribe = live().subscribe(() => {});
    await elapse(0);
    expect(polls()).toBe(before + 1); // the mount refetched the first page, which started the watch
    const shown = ids(queryClient.getQueryData(q.logs.listLive({ pageSize: PAGE }, { intervalMs: INTERVAL }).queryKey)?.data);
    expect(shown.slice(0, 3)).toEqual([whileAway[1]!.id, whileAway[0]!.id, seen!.id]);

    const [later] = newLogs(1);
    await elapse(INTERVAL);
    expect(polls()).toBe(before + 2);
    expect(ids(queryClient.getQueryData(q.logs.listLive({ pageSize: PAGE }, { intervalMs: INTERVAL }).queryKey)?.data)[0]).toBe(later!.id);
    unsubscribe();
  });

  it('a refetch reads the first page again and starts no second watch', async () => {
    const observer = live();
    const unsubscribe = observer.subscribe(() => {});
    await elapse(0);
    await queryClient.invalidateQueries({ queryKey: q.key('logs') });
    await observer.refetch();
    await elapse(0);
    expect(polls()).toBe(3);
    await elapse(4 * INTERVAL);
    expect(polls()).toBe(3 + 4); // still one poll an interval
    const [made] = newLogs(1);
    await elapse(INTERVAL);
    const shown = ids(observer.getCurrentResult().data?.data);
    expect(shown.filter((id) => id === made!.id)).toHaveLength(1);
    unsubscribe();
  });

  it('keeps the newest 200 items, each once', async () => {
    const observer = new QueryObserver(queryClient, q.logs.listLive({ pageSize: 100 }, { intervalMs: INTERVAL }));
    const unsubscribe = observer.subscribe(() => {});
    await elapse(0);
    newLogs(250);
    await elapse(INTERVAL);
    const shown = ids(observer.getCurrentResult().data?.data);
    expect(shown).toEqual(newest(200));
    unsubscribe();
  });

  it('a fetch with no observer reads the first page and starts no watch', async () => {
    const data = await queryClient.fetchQuery(q.logs.listLive({ pageSize: PAGE }, { intervalMs: INTERVAL }));
    expect(ids(data.data)).toEqual(newest(PAGE));
    await elapse(10 * INTERVAL);
    expect(polls()).toBe(1);
  });

  it('a watch that fails for good (404) ends: its error becomes the query’s, the items kept, and Retry starts a new one', async () => {
    const observer = live();
    const unsubscribe = observer.subscribe(() => {});
    await elapse(0);
    const shown = ids(observer.getCurrentResult().data?.data);
    mock.faults.add({ endpoint: 'logs.list', status: 404, times: 1 });
    await elapse(INTERVAL);
    expect(observer.getCurrentResult().error).toBeInstanceOf(NotFoundError);
    expect(ids(observer.getCurrentResult().data?.data)).toEqual(shown);
    const sent = signals.length;
    await elapse(10 * INTERVAL);
    expect(signals.length).toBe(sent); // the watch is over, and nothing asks again by itself

    await observer.refetch(); // Retry
    expect(observer.getCurrentResult().error).toBeNull();
    const [made] = newLogs(1);
    await elapse(INTERVAL);
    expect(ids(observer.getCurrentResult().data?.data)[0]).toBe(made!.id);
    unsubscribe();
  });

  it('a list the watch cannot follow (items without their id) is an error, not a loop of requests', async () => {
    // A lenient client (validation off) and a service whose polls lose the items' ids.
    let first = true;
    const lenient = new CommunityServerClient({
      token: mock.tokens.main,
      baseUrl: MOCK_ORIGIN,
      maxRetries: 0,
      validation: 'off',
      fetch: async (input, init) => {
        signals.push((input as Request).signal);
        const response = await mock.fetch(input, init);
        if (first) return ((first = false), response);
        const page = (await response.json()) as { data: Record<string, unknown>[] };
        return Response.json({ ...page, data: page.data.map(({ id: _id, ...item }) => item) });
      },
    });
    const observer = new QueryObserver(queryClient, queries(lenient).logs.listLive({ pageSize: PAGE }, { intervalMs: INTERVAL }));
    const unsubscribe = observer.subscribe(() => {});
    await elapse(0);
    newLogs(1);
    await elapse(INTERVAL);
    expect(observer.getCurrentResult().error?.message).toMatch(/has no id/);
    const sent = signals.length;
    await elapse(10 * INTERVAL);
    expect(signals.length).toBe(sent);
    unsubscribe();
  });

  it('a transient failure only delays the watch (it retries on its own)', async () => {
    const observer = live();
    const unsubscribe = observer.subscribe(() => {});
    await elapse(0);
    mock.faults.add({ endpoint: 'logs.list', status: 503, times: 1 });
    const [made] = newLogs(1);
    await elapse(INTERVAL);
    expect(observer.getCurrentResult().error).toBeNull();
    await elapse(INTERVAL);
    expect(ids(observer.getCurrentResult().data?.data)[0]).toBe(made!.id);
    unsubscribe();
  });
});
