/**
 * `.watch()` on every one of the list requests, against the mock: a row put into the table the
 * list serves is yielded once, and the rows the list already had are not. The cases are checked
 * against the resource table, so a list added without a case here fails.
 */
import type { PagePromise } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { endpointsOf, type Endpoint } from '../../../src/core/endpoint';
import { resources } from '../../../src/resources/index';
import { mockClient } from '../../helpers';

const mock = createMockApi({ seed: 5 });
const client = mockClient(mock);
const main = mock.store.main;
const cad = main.cad!;
const department = main.departments.all()[0]!;
const inside = main.departmentData.get(department.id)!;

type Row = Record<string, unknown>;
/** The mock's table behind a list (`insert` and `all`), and the list's call for rows like `sample`. */
interface Case {
  table: { all(): object[]; insert(row: never, options: { dangling: true }): unknown };
  call: (sample: Row) => PagePromise<unknown>;
}

const s = (value: unknown) => value as string;
const cases: Record<string, Case> = {
  'applications.list': { table: main.applications, call: () => client.applications.list() },
  'applications.responses': { table: main.applicationResponses, call: (row) => client.applications.responses(s(row.applicationId)) },
  'applications.responsesByUser': { table: main.applicationResponses, call: (row) => client.applications.responsesByUser(s(row.userId)) },
  'auditLogs.list': { table: main.auditLogs, call: () => client.auditLogs.list() },
  'cad.calls.list': { table: cad.calls, call: () => client.cad.calls.list() },
  'cad.calls.notes': { table: cad.notes, call: (row) => client.cad.calls.notes(s(row.callId)) },
  'cad.courtHearings.list': { table: cad.courtHearings, call: () => client.cad.courtHearings.list() },
  'cad.records.list': { table: cad.records, call: () => client.cad.records.list() },
  'cad.unitGroups.list': { table: cad.unitGroups, call: () => client.cad.unitGroups.list({ pageSize: 100 }) },
  'cad.units.list': { table: cad.units, call: () => client.cad.units.list({ pageSize: 100 }) },
  'departments.list': { table: main.departments, call: () => client.departments.list({ pageSize: 100 }) },
  'departments.auditLogs': { table: inside.auditLogs, call: () => client.departments.auditLogs(department.id) },
  'departments.joinRequests.list': { table: inside.joinRequests, call: () => client.departments.joinRequests.list(department.id) },
  'departments.loas.list': { table: inside.loas, call: () => client.departments.loas.list(department.id) },
  'departments.loas.byMember': { table: inside.loas, call: (row) => client.departments.loas.byMember(department.id, s(row.memberId)) },
  'departments.members.list': { table: inside.members, call: () => client.departments.members.list(department.id) },
  'departments.ranks.list': { table: inside.ranks, call: () => client.departments.ranks.list(department.id, { pageSize: 100 }) },
  'departments.shifts.list': { table: inside.shifts, call: () => client.departments.shifts.list(department.id) },
  'departments.shifts.byMember': {
    table: inside.shifts,
    call: (row) => client.departments.shifts.byMember(department.id, s(row.memberId)),
  },
  'joinRequests.list': { table: main.joinRequests, call: () => client.joinRequests.list() },
  'loas.list': { table: main.loas, call: () => client.loas.list() },
  'loas.byMember': { table: main.loas, call: (row) => client.loas.byMember(s(row.memberId)) },
  'logs.list': { table: main.logs, call: () => client.logs.list() },
  'logs.byStaff': { table: main.logs, call: (row) => client.logs.byStaff(s(row.createdBy)) },
  'logs.byUser': { table: main.logs, call: (row) => client.logs.byUser(s(row.username)) },
  'members.list': { table: main.members, call: () => client.members.list() },
  'roles.list': { table: main.roles, call: () => client.roles.list() },
  'shifts.list': { table: main.shifts, call: () => client.shifts.list() },
  'shifts.byMember': { table: main.shifts, call: (row) => client.shifts.byMember(s(row.memberId)) },
};

const lists = endpointsOf(resources).filter(({ endpoint }) => endpoint.kind === 'page');

it('every list request has a case here, and there are 29', () => {
  expect(lists.map(({ name }) => name).sort()).toEqual(Object.keys(cases).sort());
  expect(lists).toHaveLength(29);
});

/** A copy of `sample` that is new to its list: a fresh id and, where the list has one, the newest time. */
function newRow(endpoint: Endpoint, sample: Row, rows: Row[], n: number): Row {
  const { id, time } = endpoint.watch!;
  const fresh = typeof sample[id] === 'number' ? Math.max(...rows.map((row) => row[id] as number)) + n : `watch-${n}-${String(sample[id])}`;
  const row: Row = { ...sample, [id]: fresh };
  if (time) row[time] = Math.max(...rows.map((r) => (r[time] as number | undefined) ?? 0)) + n;
  return row;
}

/** The next item, or `'nothing'` if none comes within `ms`. */
const nextWithin = (feed: AsyncIterator<unknown>, ms: number) =>
  Promise.race([feed.next().then((result) => result.value), new Promise((resolve) => setTimeout(() => resolve('nothing'), ms))]);

describe.each(lists)('$name', ({ name, endpoint }) => {
  it('yields a row put into its table once, and none of the rows it had', async () => {
    const { table, call } = cases[name]!;
    const rows = table.all() as Row[];
    const sample = rows[0]!;
    const list = call(sample);
    const first = await list;
    expect(first.data.length).toBeGreaterThan(0);
    const feed = list.watch({ intervalMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5)); // a baseline read, for lists the first page cannot serve
    const added = [newRow(endpoint, sample, rows, 1), newRow(endpoint, sample, rows, 2)];
    // A copy of a row under a fresh key: on a department's roster the key is a member id, and no
    // member has the fresh one; the watch is under test here, not the references.
    for (const row of added) table.insert(row as never, { dangling: true });
    const key = endpoint.watch!.id;
    const got = [await nextWithin(feed, 3_000), await nextWithin(feed, 3_000)] as Row[];
    expect(got.map((row) => row[key])).toEqual(added.map((row) => row[key]));
    expect(await nextWithin(feed, 30)).toBe('nothing');
    feed.close();
  });
});
