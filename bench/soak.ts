/**
 * Soak of `watch()`: the mock's activity (`mock.activity.step`) adds events while watches follow
 * every list they land in (moderation logs, the audit log, application responses per
 * application, join requests, LOAs, shifts, members, CAD calls, and each department's audit
 * log, join requests, LOAs, shifts and members), through a fetch that adds random latency and
 * fails 10 % of requests (503, network error, 429). Every 1,000 events every watch is closed
 * and resumed from its cursor, JSON round trip, on a new client. At the end each event's row
 * must have been yielded by its watch exactly once.
 *
 *   npm run soak                     (10,000 events)
 *   SOAK_EVENTS=1000 npm run soak    (a short run)
 *   SOAK_RESTART_EVERY=250           (restarts more often)
 *   SOAK_JSON=1                      (prints the result as JSON, for the test)
 */
import { CommunityServerClient, type PagePromise, type Watch, type WatchCursor } from 'community-server-sdk';
import { createMockApi, type ActivityEvent, type MockApi } from 'community-server-sdk/mock';

export interface SoakOptions {
  events: number;
  /** Events between two restarts of every watch from its cursor. */
  restartEvery: number;
  /** Share of requests answered with a fault (503, network error, 429 in turn). */
  faultRate: number;
  /** Each answer is held back 0..latencyMs. */
  latencyMs: number;
  /** Events added per batch; a batch every `batchMs`. */
  batch: number;
  batchMs: number;
  /** Poll interval of every watch. */
  intervalMs: number;
  seed: number;
}

export interface SoakResult {
  events: number;
  watches: number;
  restarts: number;
  lost: number;
  duplicated: number;
  requests: number;
  faults: number;
  requestsPerEvent: number;
  /** The most ids any cursor held (the items sharing its newest timestamp). */
  largestCursorIds: number;
  /** The first lost items, as `list id`, to start a diagnosis from. */
  lostItems: string[];
  peakHeapMb: number;
  seconds: number;
}

export const FULL: SoakOptions = {
  events: 10_000,
  restartEvery: 1_000,
  faultRate: 0.1,
  latencyMs: 3,
  batch: 25,
  batchMs: 10,
  intervalMs: 15,
  seed: 11,
};

/** A watched list: how to call it on a client, and which events' rows enter it. */
interface Followed {
  key: string;
  call(client: CommunityServerClient): PagePromise<Record<string, unknown>>;
  idField: string;
}

/** The watched list an event's row entered, by the event; `undefined` for lists not followed here (call notes). */
function keyOf(event: ActivityEvent): string | undefined {
  if (event.kind === 'cadCallNotes') return undefined;
  if (event.kind === 'applicationResponses') return `applicationResponses:${event.row.applicationId}`;
  return event.departmentId === undefined ? event.kind : `${event.kind}:${event.departmentId}`;
}

function followed(mock: MockApi): Followed[] {
  const lists: Followed[] = [];
  const add = (key: string, idField: string, call: Followed['call']) => lists.push({ key, idField, call });
  add('logs', 'id', (c) => c.logs.list({ pageSize: 50 }));
  add('auditLogs', 'id', (c) => c.auditLogs.list({ pageSize: 50 }));
  add('joinRequests', 'userId', (c) => c.joinRequests.list({ pageSize: 50 }));
  add('loas', 'id', (c) => c.loas.list({ pageSize: 50 }));
  add('shifts', 'id', (c) => c.shifts.list({ pageSize: 50 }));
  add('members', 'id', (c) => c.members.list({ pageSize: 50 }));
  add('cadCalls', 'id', (c) => c.cad.calls.list({ pageSize: 50 }));
  for (const application of mock.store.main.applications.all()) {
    add(`applicationResponses:${application.id}`, 'id', (c) => c.applications.responses(application.id, { pageSize: 50 }));
  }
  for (const { id } of mock.store.main.departments.all()) {
    add(`departmentAuditLogs:${id}`, 'id', (c) => c.departments.auditLogs(id, { pageSize: 50 }));
    add(`departmentJoinRequests:${id}`, 'userId', (c) => c.departments.joinRequests.list(id, { pageSize: 50 }));
    add(`departmentLoas:${id}`, 'id', (c) => c.departments.loas.list(id, { pageSize: 50 }));
    add(`departmentShifts:${id}`, 'id', (c) => c.departments.shifts.list(id, { pageSize: 50 }));
    add(`departmentMembers:${id}`, 'id', (c) => c.departments.members.list(id, { pageSize: 50 }));
  }
  return lists;
}

/** A small seeded generator (mulberry32), so a run's faults and latencies repeat. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The newest time of any row the activity adds to: its events are never older than their list's newest row. */
function newestTime(mock: MockApi): number {
  const { main } = mock.store;
  const tables: { all(): object[] }[] = [
    main.logs,
    main.auditLogs,
    main.applicationResponses,
    main.joinRequests,
    main.loas,
    main.shifts,
    main.members,
    main.cad!.calls,
    main.cad!.notes,
  ];
  for (const inside of main.departmentData.values()) {
    tables.push(inside.auditLogs, inside.joinRequests, inside.loas, inside.shifts, inside.members);
  }
  const times = tables.flatMap((table) =>
    (table.all() as Record<string, unknown>[]).map((row) => Number(row.createdAt ?? row.timestamp ?? 0)),
  );
  return Math.max(...times);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function soak(options: SoakOptions): Promise<SoakResult> {
  const started = performance.now();
  const phase = (name: string) =>
    process.env.SOAK_TRACE && console.error(`${name} at ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // The mock's clock moves one second per 20 events, from after the seeded world: equal
  // timestamps are common, as on a busy server, yet each second holds few rows.
  let clock = 0;
  const mock = createMockApi({ seed: options.seed, now: () => clock });
  clock = newestTime(mock) * 1000 + 1000;

  const draw = random(options.seed);
  let faultsOn = false;
  const tally = { requests: 0, faults: 0 };
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    tally.requests++;
    await pause(Math.floor(draw() * (options.latencyMs + 1)));
    if (faultsOn && draw() < options.faultRate) {
      const kind = tally.faults++ % 3;
      if (kind === 1) throw new TypeError('fetch failed (injected)');
      const status = kind === 0 ? 503 : 429;
      const body = JSON.stringify({ error: { code: status === 503 ? 'unavailable' : 'rate_limited', message: 'injected' } });
      return new Response(body, {
        status,
        headers: { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '0' } : {}) },
      });
    }
    return mock.fetch(input, init);
  }) as typeof globalThis.fetch;
  const newClient = () =>
    new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://soak.test', fetch, maxRetries: 0, rateLimit: 'off' });

  const lists = followed(mock);
  const expected = new Map<string, string[]>(lists.map((list) => [list.key, []]));
  const yielded = new Map<string, Map<string, number>>(lists.map((list) => [list.key, new Map()]));
  let largestCursorIds = 0;

  /** One list's follower: a watch of `page`'s list and the loop that records what it yields. */
  const follow = (list: Followed, page: PagePromise<Record<string, unknown>>, cursor?: WatchCursor) => {
    const feed: Watch<Record<string, unknown>> = page.watch({ intervalMs: options.intervalMs, ...(cursor ? { cursor } : {}) });
    const counts = yielded.get(list.key)!;
    const done = (async () => {
      for await (const item of feed) {
        const id = String(item[list.idField]);
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
    })();
    return { feed, done };
  };

  // Baselines first, without faults: the seeded world is not "new".
  let followers = await Promise.all(
    lists.map(async (list) => {
      const page = list.call(newClient());
      await page;
      return follow(list, page);
    }),
  );
  // A watch of a list not listed newest first reads a baseline of its own, and starts once that
  // read is done (its cursor is then defined): a row added before would count as baseline.
  while (followers.some(({ feed }) => feed.cursor === undefined)) await pause(5);
  faultsOn = true;
  phase('baselines');

  let peakHeap = 0;
  const heapTimer = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 50);
  let events = 0;
  let restarts = 0;
  let sinceRestart = 0;
  while (events < options.events) {
    const n = Math.min(options.batch, options.events - events);
    let counted = 0;
    for (const event of mock.activity.step(n)) {
      const key = keyOf(event);
      if (key === undefined || !expected.has(key)) continue;
      const idField = lists.find((list) => list.key === key)!.idField;
      expected.get(key)!.push(String((event.row as Record<string, unknown>)[idField]));
      counted++;
      if (counted % 20 === 0) clock += 1000;
    }
    events += counted;
    sinceRestart += counted;
    if (sinceRestart >= options.restartEvery) {
      sinceRestart = 0;
      restarts++;
      followers = await Promise.all(
        followers.map(async ({ feed, done }, index) => {
          const saved = JSON.stringify(feed.cursor);
          feed.close();
          await done;
          const cursor = JSON.parse(saved) as WatchCursor;
          if ('after' in cursor) largestCursorIds = Math.max(largestCursorIds, cursor.after.ids.length);
          return follow(lists[index]!, lists[index]!.call(newClient()), cursor);
        }),
      );
    }
    await pause(options.batchMs);
  }

  phase('events');
  // Drain: wait until every expected row came (or the watches have had ample time).
  const missing = () => [...expected].reduce((sum, [key, ids]) => sum + ids.filter((id) => !yielded.get(key)!.has(id)).length, 0);
  const deadline = Date.now() + 60_000;
  while (missing() > 0 && Date.now() < deadline) await pause(50);
  phase('drained');
  await pause(options.intervalMs * 10); // a few more polls: any duplicate would show now
  for (const { feed } of followers) feed.close();
  await Promise.all(followers.map(({ done }) => done));
  clearInterval(heapTimer);

  let duplicated = 0;
  for (const counts of yielded.values()) for (const count of counts.values()) duplicated += count - 1;
  const extra = [...yielded].reduce(
    (sum, [key, counts]) => sum + [...counts.keys()].filter((id) => !expected.get(key)!.includes(id)).length,
    0,
  );
  return {
    events,
    watches: lists.length,
    restarts,
    lost: missing(),
    duplicated: duplicated + extra,
    requests: tally.requests,
    faults: tally.faults,
    requestsPerEvent: Number((tally.requests / events).toFixed(2)),
    largestCursorIds,
    lostItems: [...expected]
      .flatMap(([key, ids]) => ids.filter((id) => !yielded.get(key)!.has(id)).map((id) => `${key} ${id}`))
      .slice(0, 10),
    peakHeapMb: Number((peakHeap / 2 ** 20).toFixed(1)),
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const events = Number(process.env.SOAK_EVENTS ?? FULL.events);
  const restartEvery = Number(process.env.SOAK_RESTART_EVERY ?? FULL.restartEvery);
  const result = await soak({ ...FULL, events, restartEvery });
  if (process.env.SOAK_JSON) console.log(JSON.stringify(result));
  else {
    for (const [name, value] of Object.entries(result)) console.log(`${name.padEnd(18)}${value}`);
    console.log(result.lost === 0 && result.duplicated === 0 ? 'OK: nothing lost, nothing duplicated' : 'FAILED');
  }
  process.exit(result.lost === 0 && result.duplicated === 0 ? 0 : 1);
}
