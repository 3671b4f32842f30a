/**
 * `mock.activity`: a seeded stream of events that changes the world by itself. What is checked
 * goes through the public entry points: every event's row is read back through the SDK (its
 * `get` and page 1 of its list, newest first), with every reference it makes, so what a bot
 * following activity would see is what the event reported. The bin's flag is tried on the built
 * package (`npm test` builds first), as test/mock/doors/doors.test.ts does.
 */
import { CommunityServerClient, InvalidArgumentError } from 'community-server-sdk';
import {
  createMockApi,
  WORLD_END,
  type ActivityEntry,
  type ActivityEvent,
  type ActivityKind,
  type MockApi,
  type MockOptions,
} from 'community-server-sdk/mock';
import * as schemas from 'community-server-sdk/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from '../../helpers';
import { connectMock } from 'community-server-sdk/mock/remote';
import { startBin } from '../doors/cli/bin';

/** A fixed instant after the seeded world: 2026-11-20 12:00 UTC. */
const NOON = Date.UTC(2026, 10, 20, 12, 0, 0);

/** A mock whose clock only moves when the test moves it. */
function clocked(options: MockOptions = {}, start = NOON) {
  const clock = { now: start };
  const mock = createMockApi({ ...options, now: () => clock.now });
  return { mock, clock };
}

/** How many rows every list of the `main` server holds: each event adds exactly one. */
function rowsIn(mock: MockApi): number {
  const { main } = mock.store;
  const inside = [...main.departmentData.values()].reduce(
    (sum, d) => sum + d.members.size + d.shifts.size + d.loas.size + d.joinRequests.size + d.auditLogs.size,
    0,
  );
  const cad = main.cad ? main.cad.calls.size + main.cad.notes.size : 0;
  return (
    main.members.size +
    main.logs.size +
    main.auditLogs.size +
    main.applicationResponses.size +
    main.joinRequests.size +
    main.loas.size +
    main.shifts.size +
    inside +
    cad
  );
}

/**
 * An LOA of the server at the latest time a row holds (the year 5138): the next the activity
 * requests there would start or end past it, which no table takes.
 */
const endOfTime = (mock: MockApi) => mock.store.main.loas.create({ createdAt: 1e11 });

/** Everything of the `main` server a watcher could read, as JSON. */
const worldOf = (mock: MockApi) =>
  JSON.stringify(mock.store.main, (_key, value) =>
    value instanceof Map ? [...value] : value && typeof value.all === 'function' ? value.all() : value,
  );

const SCHEMAS: Record<ActivityKind, { parse(value: unknown): unknown }> = {
  logs: schemas.LogSchema,
  auditLogs: schemas.AuditLogEventSchema,
  applicationResponses: schemas.ApplicationResponseSchema,
  joinRequests: schemas.JoinRequestSchema,
  loas: schemas.LoaSchema,
  shifts: schemas.ShiftSchema,
  members: schemas.MemberSchema,
  cadCalls: schemas.CadCallSchema,
  cadCallNotes: schemas.CadCallNoteSchema,
  departmentAuditLogs: schemas.AuditLogEventSchema,
  departmentJoinRequests: schemas.JoinRequestSchema,
  departmentLoas: schemas.LoaSchema,
  departmentShifts: schemas.ShiftSchema,
  departmentMembers: schemas.DepartmentMemberSchema,
};

type Client = ReturnType<typeof mockClient>;
const newest = { pageSize: 100, sort: 'desc' } as const;

/**
 * What the SDK serves for an entry: the row by its `get`, page 1 of its list newest first, and
 * the rows it refers to (each call rejects with NotFoundError if the reference is dangling).
 */
async function served(client: Client, entry: ActivityEntry): Promise<{ got: unknown; page: unknown[]; references: unknown[] }> {
  const read = async (get: Promise<unknown>, list: Promise<{ data: unknown[] }>, references: Promise<unknown>[]) => ({
    got: await get,
    page: (await list).data,
    references: await Promise.all(references),
  });
  const member = (id: string) => client.members.get(id);
  switch (entry.kind) {
    case 'logs': {
      const { row } = entry;
      const byUser = client.logs.byUser(row.username, newest).then((page) => page.data.map((log) => log.id));
      return read(client.logs.get(row.id), client.logs.list({ ...newest, orderBy: 'createdAt' }), [member(row.createdBy), byUser]);
    }
    case 'auditLogs': {
      const { row } = entry;
      const application = typeof row.applicationId === 'string' ? [client.applications.get(row.applicationId)] : [];
      const page = client.auditLogs.list({ ...newest, orderBy: 'timestamp' });
      return read(
        page.then((p) => p.data.find((event) => event.id === row.id)),
        page,
        [member(row.userId), ...application],
      );
    }
    case 'applicationResponses': {
      const { row } = entry;
      const list = client.applications.responses(row.applicationId, { ...newest, orderBy: 'createdAt' });
      return read(
        list.then((p) => p.data.find((response) => response.id === row.id)),
        list,
        [client.applications.get(row.applicationId), member(row.userId)],
      );
    }
    case 'joinRequests':
      return read(client.joinRequests.get(entry.row.userId), client.joinRequests.list({ ...newest, orderBy: 'createdAt' }), [
        member(entry.row.userId),
      ]);
    case 'loas':
      return read(client.loas.get(entry.row.id), client.loas.list({ ...newest, orderBy: 'createdAt' }), [member(entry.row.memberId)]);
    case 'shifts':
      return read(client.shifts.get(entry.row.id), client.shifts.list({ ...newest, orderBy: 'createdAt' }), [member(entry.row.memberId)]);
    case 'members':
      return read(
        member(entry.row.id),
        client.members.list({ ...newest, orderBy: 'createdAt' }),
        (entry.row.roles as string[]).map((roleId) => client.roles.get(roleId)),
      );
    case 'cadCalls': {
      const { row } = entry;
      const units = (row.units as number[]).map((unitId) => client.cad.units.get(unitId));
      return read(client.cad.calls.get(row.id), client.cad.calls.list({ ...newest, orderBy: 'createdAt' }), [
        member(row.createdByUserId),
        ...units,
      ]);
    }
    case 'cadCallNotes': {
      const { row } = entry;
      const unit = typeof row.createdByUnit === 'number' ? [client.cad.units.get(row.createdByUnit)] : [];
      const list = client.cad.calls.notes(row.callId, { ...newest, orderBy: 'createdAt' });
      return read(client.cad.calls.note(row.callId, row.id), list, [
        client.cad.calls.get(row.callId),
        member(row.createdByUserId),
        ...unit,
      ]);
    }
    case 'departmentAuditLogs': {
      const { row, departmentId } = entry;
      const page = client.departments.auditLogs(departmentId, { ...newest, orderBy: 'timestamp' });
      return read(
        page.then((p) => p.data.find((event) => event.id === row.id)),
        page,
        [member(row.userId)],
      );
    }
    case 'departmentJoinRequests': {
      const { row, departmentId } = entry;
      const list = client.departments.joinRequests.list(departmentId, { ...newest, orderBy: 'createdAt' });
      return read(client.departments.joinRequests.get(departmentId, row.userId), list, [
        member(row.userId),
        client.departments.get(departmentId),
      ]);
    }
    case 'departmentLoas': {
      const { row, departmentId } = entry;
      const list = client.departments.loas.list(departmentId, { ...newest, orderBy: 'createdAt' });
      return read(client.departments.loas.get(departmentId, row.id), list, [
        member(row.memberId),
        client.departments.members.get(departmentId, row.memberId),
      ]);
    }
    case 'departmentShifts': {
      const { row, departmentId } = entry;
      const list = client.departments.shifts.list(departmentId, { ...newest, orderBy: 'createdAt' });
      return read(client.departments.shifts.get(departmentId, row.id), list, [
        member(row.memberId),
        client.departments.members.get(departmentId, row.memberId),
      ]);
    }
    case 'departmentMembers': {
      const { row, departmentId } = entry;
      const list = client.departments.members.list(departmentId, { ...newest, orderBy: 'createdAt' });
      return read(client.departments.members.get(departmentId, row.id), list, [
        member(row.id),
        client.departments.ranks.get(departmentId, row.rankId),
      ]);
    }
  }
}

/** The time field of a row of `kind`. */
const timeOf = (entry: ActivityEntry): number =>
  entry.kind.endsWith('uditLogs') ? (entry.row as { timestamp: number }).timestamp : (entry.row as { createdAt: number }).createdAt;

describe('mock.activity.step()', () => {
  it('makes n events; the same seed and clock give the same events, whatever the batches', () => {
    const a = clocked({ seed: 4 }).mock;
    const b = clocked({ seed: 4 }).mock;
    const events = a.activity.step(60);
    expect(events).toHaveLength(60);
    expect([...b.activity.step(25), ...b.activity.step(0), ...b.activity.step(35)]).toEqual(events);
    expect(worldOf(b)).toBe(worldOf(a));
    expect(clocked({ seed: 5 }).mock.activity.step(60)).not.toEqual(events);
  });

  it('draws on its own stream: requests in between change nothing', async () => {
    const quiet = clocked({ seed: 2 }).mock;
    const busy = clocked({ seed: 2 }).mock;
    const client = mockClient(busy);
    const expected = quiet.activity.step(30);
    const got: ActivityEvent[] = [];
    for (let i = 0; i < 3; i++) {
      await client.tokens.create({ name: `t${i}` }); // draws a secret and an id from the request-time stream
      await client.members.list();
      got.push(...busy.activity.step(10));
    }
    expect(got).toEqual(expected);
  });

  it('adds one row per event, to the list its kind names, and a realistic mix of kinds', () => {
    const { mock } = clocked({ seed: 1 });
    const before = rowsIn(mock);
    const events = mock.activity.step(1_000);
    expect(rowsIn(mock)).toBe(before + 1_000);
    const kinds = new Map<string, number>();
    for (const event of events) kinds.set(event.kind, (kinds.get(event.kind) ?? 0) + 1);
    // Every list a bot follows gets new rows; none drowns the others.
    expect([...kinds.keys()].sort()).toEqual(Object.keys(SCHEMAS).sort());
    for (const [kind, count] of kinds) expect(count, kind).toBeLessThan(250);
    const changes = events.filter((event) => event.updated).map((event) => `${event.kind} ${event.updated!.kind}`);
    expect(new Set(changes)).toEqual(
      new Set([
        'auditLogs applicationResponses',
        'auditLogs loas',
        'auditLogs shifts',
        'departmentAuditLogs departmentLoas',
        'departmentAuditLogs departmentShifts',
        'cadCallNotes cadCalls',
      ]),
    );
  });

  it('every row passes its schema and is served, with every reference it makes, through the SDK', async () => {
    // A clock that moves 400 ms per event: some events share a second, some do not.
    const { mock, clock } = clocked({ seed: 3 });
    const client = mockClient(mock);
    const seen = new Set<string>();
    // Checks that apply to some events only: counted, so the run must have made each at least once.
    let logs = 0;
    let updates = 0;
    for (let i = 0; i < 300; i++) {
      clock.now += 400;
      const [event] = mock.activity.step();
      expect(SCHEMAS[event!.kind].parse(event!.row)).toEqual(event!.row);
      const { got, page, references } = await served(client, event!);
      expect(got, event!.kind).toEqual(event!.row);
      expect(page, `${event!.kind} page 1`).toContainEqual(event!.row);
      expect(references.every((reference) => reference !== undefined)).toBe(true);
      if (event!.kind === 'logs') {
        expect(references[1]).toContain(event!.row.id); // logs.byUser(username) lists it
        logs++;
      }
      expect(timeOf(event!)).toBe(Math.floor(clock.now / 1000));
      if (event!.updated) {
        expect(SCHEMAS[event!.updated.kind].parse(event!.updated.row)).toEqual(event!.updated.row);
        expect((await served(client, event!.updated)).got).toEqual(event!.updated.row);
        updates++;
      }
      seen.add(event!.kind);
    }
    expect(seen.size).toBeGreaterThanOrEqual(12);
    expect({ logs, updates }).toEqual({ logs: expect.toSatisfy((n: number) => n > 0), updates: expect.toSatisfy((n: number) => n > 0) });
  });

  it('never dates a row before the newest of its list: a frozen or early clock gives equal timestamps', async () => {
    const { mock } = clocked({ seed: 6 }, WORLD_END * 1000 - 86_400_000); // a day before the seeded world ends
    const client = mockClient(mock);
    const newestLog = (await client.logs.list({ pageSize: 1 })).data[0]!.createdAt;
    const events = mock.activity.step(200);
    const logs = events.filter((event) => event.kind === 'logs');
    expect(logs.length).toBeGreaterThan(5);
    // Logs made at the frozen instant are dated at the newest log (or the members they name),
    // never before: mostly the same second, in order.
    const times = logs.map(timeOf);
    expect(times[0]).toBeGreaterThanOrEqual(newestLog);
    for (const [i, time] of times.slice(1).entries()) expect(time).toBeGreaterThanOrEqual(times[i]!);
    expect(new Set(times).size).toBeLessThan(times.length / 2);
    // …and every one of them is on page 1, newest first, with its equal-timed neighbours.
    const page = (await client.logs.list({ pageSize: 100 })).data;
    for (const log of logs) expect(page).toContainEqual(log.row);
    for (const [i, row] of page.slice(1).entries()) expect(row.createdAt).toBeLessThanOrEqual(page[i]!.createdAt);
  });

  it('changes what happened lately: reviews, ends and closings report the row they updated', async () => {
    const { mock } = clocked({ seed: 1 });
    const client = mockClient(mock);
    const events = mock.activity.step(400);
    const closings = events.filter((event) => event.kind === 'cadCallNotes' && event.updated);
    expect(closings.length).toBeGreaterThan(3);
    for (const closing of closings) {
      const call = closing.updated!.row as { id: string; status: number; closedAt: number };
      expect(call).toMatchObject({ status: 1, closedAt: timeOf(closing) });
      expect(await client.cad.calls.get(call.id)).toMatchObject({ status: 1 });
    }
    const ended = events.filter((event) => event.updated?.kind === 'departmentShifts' || event.updated?.kind === 'shifts');
    expect(ended.length).toBeGreaterThan(0);
    for (const event of ended) expect((event.updated!.row as { endedAt: number }).endedAt).toBeLessThanOrEqual(timeOf(event));
    // A submission is followed at once by the audit event recording it.
    const i = events.findIndex((event) => event.kind === 'applicationResponses');
    expect(events[i + 1]).toMatchObject({
      kind: 'auditLogs',
      row: {
        applicationId: events[i]!.row.applicationId,
        userId: (events[i]!.row as { userId: string }).userId,
        description: 'Application response submitted',
      },
    });
  });
});

describe('worlds where little can happen', () => {
  /** Empties every list of the main server, as a brand-new server would be. */
  function emptied(mock: MockApi) {
    const { main } = mock.store;
    for (const table of [
      main.members,
      main.links,
      main.roles,
      main.applications,
      main.applicationResponses,
      main.auditLogs,
      main.logs,
      main.joinRequests,
      main.loas,
      main.shifts,
      main.departments,
    ]) {
      for (const row of table.all()) table.delete((row as Record<string, unknown>)[table.spec.key]);
    }
    main.departmentData.clear();
    main.cad = null;
    return mock;
  }

  it('an empty server comes alive: members join first, then everything their presence allows', async () => {
    const mock = emptied(clocked({ seed: 1 }).mock);
    const client = mockClient(mock);
    const events = mock.activity.step(90);
    expect(events).toHaveLength(90);
    expect(events[0]!.kind).toBe('members');
    for (let i = 0; i < 30; i++) {
      const [event] = mock.activity.step();
      expect((await served(client, event!)).got).toEqual(event!.row);
      events.push(event!);
    }
    const kinds = new Set(events.map((event) => event.kind));
    for (const impossible of ['cadCalls', 'cadCallNotes', 'applicationResponses', 'departmentShifts', 'departmentMembers']) {
      expect(kinds).not.toContain(impossible);
    }
    expect(kinds).toContain('logs');
  });

  it('a department without ranks gets no members; a member deleted by a test is never referred to', () => {
    const { mock } = clocked({ seed: 1 });
    const { main } = mock.store;
    for (const data of main.departmentData.values()) for (const rank of data.ranks.all()) data.ranks.delete(rank.id);
    const gone = new Set(
      main.members
        .all()
        .slice(0, 200)
        .map((member) => member.id),
    );
    for (const id of gone) main.members.delete(id);
    expect(gone.size).toBe(200);
    const events = mock.activity.step(500);
    expect(events.some((event) => event.kind === 'departmentMembers')).toBe(false);
    const text = JSON.stringify(events.map((event) => event.row));
    for (const id of gone) expect(text).not.toContain(id);
  });
});

describe('mock.activity.start() / stop()', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('createMockApi({ activity }) steps on a timer at once; stop() leaves no timer', () => {
    vi.useFakeTimers();
    const mock = createMockApi({ seed: 1, now: () => NOON, activity: { intervalMs: 100 } });
    const stepped = createMockApi({ seed: 1, now: () => NOON });
    const before = rowsIn(mock);
    expect(mock.activity.running).toBe(true);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_050);
    expect(rowsIn(mock)).toBe(before + 10);
    stepped.activity.step(10);
    expect(worldOf(mock)).toBe(worldOf(stepped)); // the timer takes the same stream as step()
    mock.activity.stop();
    expect(mock.activity.running).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(rowsIn(mock)).toBe(before + 10);
    mock.activity.stop(); // stopping twice is harmless
  });

  it('start() again changes the pace with one timer; reset() stops it and restores the seeded world and stream', () => {
    vi.useFakeTimers();
    const { mock } = clocked({ seed: 8 });
    const pristine = worldOf(mock);
    const first = clocked({ seed: 8 }).mock.activity.step(5);
    mock.activity.start({ intervalMs: 1_000 });
    mock.activity.start({ intervalMs: 10 });
    expect(vi.getTimerCount()).toBe(1);
    const before = rowsIn(mock);
    vi.advanceTimersByTime(100);
    expect(rowsIn(mock)).toBe(before + 10);
    mock.reset();
    expect(mock.activity.running).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    expect(worldOf(mock)).toBe(pristine);
    expect(mock.activity.step(5)).toEqual(first);
  });

  it('never keeps a process alive: its timer is unref’d', () => {
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    const mock = createMockApi({ activity: { intervalMs: 60_000 } });
    const timer = setInterval.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    mock.activity.stop();
  });

  it('issue 23 #4: an event the timer cannot make stops it and says why, and nothing is thrown', () => {
    vi.useFakeTimers();
    const { mock } = clocked({ seed: 1 });
    endOfTime(mock);
    const started = Date.now();
    mock.activity.start({ intervalMs: 10 });
    vi.advanceTimersByTime(60_000); // before: the InvalidRowError escaped from here, as from the bin's event loop
    expect(mock.activity.running).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    expect(mock.activity.failure).toEqual({
      name: 'InvalidRowError',
      message: expect.stringMatching(/^main\.loas\.insert: (startAt|endAt): \d+ is a time in Unix seconds, not milliseconds/),
      at: expect.any(Number),
    });
    expect(mock.activity.failure!.at).toBeGreaterThan(started); // when the event failed, in real (here fake) time
    // The same event by hand throws it to the caller.
    expect(() => mock.activity.step(500)).toThrow(/^main\.loas\.insert: /);
    // start() clears it, as reset() does.
    mock.activity.start({ intervalMs: 10 });
    expect(mock.activity.failure).toBeNull();
    vi.advanceTimersByTime(60_000);
    expect(mock.activity.failure).not.toBeNull();
    mock.reset();
    expect([mock.activity.running, mock.activity.failure]).toEqual([false, null]);
  });

  it('a watcher polling over real time sees the rows arrive', async () => {
    const mock = createMockApi({ seed: 1, activity: { intervalMs: 5 } });
    const client = mockClient(mock);
    const before = (await client.logs.list()).total;
    await vi.waitFor(async () => expect((await client.logs.list()).total).toBeGreaterThan(before), { timeout: 5_000, interval: 20 });
    mock.activity.stop();
  });
});

describe('bad options throw an InvalidArgumentError saying what was wrong', () => {
  it.each([
    [{ intervalMs: 0 }, 'activity.intervalMs must be an integer of milliseconds from 1 to 2147483647, got 0'],
    [{ intervalMs: -5 }, 'got -5'],
    [{ intervalMs: Number.NaN }, 'got NaN'],
    [{ intervalMs: 2.5 }, 'got 2.5'],
    [{ intervalMs: 2 ** 31 }, 'got 2147483648'],
    [{ intervalMs: '100' }, 'got "100"'],
    [{}, 'activity.intervalMs is required'],
    [{ intervalMs: 10, every: 3 }, 'unknown key "every" in activity; accepted: intervalMs'],
    [null, 'activity must be an object, got null'],
    [100, 'activity must be an object, got number'],
  ])('createMockApi({ activity: %j })', (activity, message) => {
    expect(() => createMockApi({ activity: activity as never })).toThrow(InvalidArgumentError);
    expect(() => createMockApi({ activity: activity as never })).toThrow(message);
  });

  it('start() checks the same way, and starts nothing', () => {
    const mock = createMockApi();
    expect(() => mock.activity.start({ intervalMs: 0 })).toThrow(
      /^activity\.start\(options\): options\.intervalMs must be an integer of milliseconds from 1/,
    );
    expect(() => (mock.activity.start as (options?: unknown) => void)()).toThrow(
      'activity.start(options): options must be an object, got undefined',
    );
    expect(mock.activity.running).toBe(false);
  });

  it.each([[-1], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY], [10_001], [1e9], ['3']])('step(%j)', (n) => {
    const mock = createMockApi();
    const before = rowsIn(mock);
    expect(() => mock.activity.step(n as number)).toThrow(InvalidArgumentError);
    expect(() => mock.activity.step(n as number)).toThrow(
      `activity.step(n): n must be an integer from 0 to 10000, got ${typeof n === 'number' ? n : typeof n}`,
    );
    expect(rowsIn(mock)).toBe(before);
  });

  it('a clock that returns no number is named, not turned into rows of NaN', () => {
    const mock = createMockApi({ now: () => Number.NaN });
    expect(() => mock.activity.step()).toThrow(/the mock's clock \(options.now\) must return milliseconds up to \d+, got NaN/);
  });
});

describe('the bin: --activity <ms>', () => {
  const start = startBin;

  it('says activity is on, and the served world changes by itself', async () => {
    const bin = start(['--port', '0', '--seed', '2', '--activity', '10']);
    try {
      const output = await bin.ready;
      expect(output).toContain('activity: on, one event every 10 ms');
      const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
      const client = new CommunityServerClient({ token: createMockApi({ seed: 2 }).tokens.main, baseUrl: url });
      const total = async () => (await client.auditLogs.list()).total + (await client.logs.list()).total;
      const before = await total();
      await vi.waitFor(async () => expect(await total()).toBeGreaterThan(before), { timeout: 5_000, interval: 50 });
    } finally {
      bin.child.kill('SIGINT');
    }
    expect((await bin.exit).code).toBe(0);
  });

  it('without the flag, prints nothing about it', async () => {
    const bin = start(['--port', '0']);
    try {
      const output = await bin.ready;
      expect(output).not.toContain('activity');
      // One answer first: the bin installs its signal handlers right after printing.
      const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
      expect((await fetch(`${url}/livez`)).status).toBe(200);
    } finally {
      bin.child.kill('SIGTERM');
    }
    expect((await bin.exit).code).toBe(0);
  });

  it('issue 23 #4: an event the activity cannot make stops it, and the bin lives on', async () => {
    const admin = 'activity-test-admin-token';
    const bin = start(['--port', '0', '--seed', '2', '--admin-token', admin]);
    try {
      const url = /listening on (http:\/\/\S+)/.exec(await bin.ready)![1]!;
      const remote = connectMock(url, admin);
      await remote.store('main.loas').create({ createdAt: 1e11 });
      await remote.activity.start({ intervalMs: 1 });
      // Before: the InvalidRowError killed the bin. Now the activity stops, and says why over HTTP.
      await vi.waitFor(
        async () =>
          expect(await remote.activity.status()).toEqual({
            running: false,
            failure: { name: 'InvalidRowError', message: expect.any(String), at: expect.any(Number) },
          }),
        { timeout: 15_000, interval: 20 },
      );
      expect((await fetch(`${url}/livez`)).status).toBe(200);
      expect((await remote.activity.step(1)).length).toBe(1); // the mock is whole: by hand, other events still come
    } finally {
      bin.child.kill('SIGINT');
    }
    expect((await bin.exit).code).toBe(0);
  });

  it.each([['0'], ['-3'], ['soon'], ['1.5'], ['2147483648']])('--activity %s is refused, exit 2', async (value) => {
    const { code, stderr } = await start(['--port', '0', `--activity=${value}`]).exit;
    expect(code).toBe(2);
    expect(stderr).toContain(`--activity must be an integer from 1 to 2147483647, got "${value}"`);
  });
});
