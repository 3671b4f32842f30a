/**
 * The seeded world: deterministic, valid against the SDK's schemas, with real references,
 * realistic optional fields, plausible timestamps and enough rows to page through.
 */
import { faker } from '@faker-js/faker/locale/en';
import { createMockApi, WORLD_END, WORLD_START, type ServerStore, type Store } from 'community-server-sdk/mock';
import * as schemas from 'community-server-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { idsIn } from './open-json';

/** Every table of a server, with the schema its rows must pass. */
function tables(server: ServerStore) {
  const out: [string, readonly object[], { safeParse(value: unknown): { success: boolean; error?: unknown } }][] = [
    ['members', server.members.all(), schemas.MemberSchema],
    ['roles', server.roles.all(), schemas.RoleSchema],
    ['applications', server.applications.all(), schemas.ApplicationSchema],
    ['applicationResponses', server.applicationResponses.all(), schemas.ApplicationResponseSchema],
    ['auditLogs', server.auditLogs.all(), schemas.AuditLogEventSchema],
    ['logs', server.logs.all(), schemas.LogSchema],
    ['joinRequests', server.joinRequests.all(), schemas.JoinRequestSchema],
    ['loas', server.loas.all(), schemas.LoaSchema],
    ['shifts', server.shifts.all(), schemas.ShiftSchema],
    ['departments', server.departments.all(), schemas.DepartmentSchema],
  ];
  for (const [id, d] of server.departmentData) {
    out.push(
      [`${id}.ranks`, d.ranks.all(), schemas.DepartmentRankSchema],
      [`${id}.members`, d.members.all(), schemas.DepartmentMemberSchema],
      [`${id}.shifts`, d.shifts.all(), schemas.ShiftSchema],
      [`${id}.loas`, d.loas.all(), schemas.LoaSchema],
      [`${id}.joinRequests`, d.joinRequests.all(), schemas.JoinRequestSchema],
      [`${id}.auditLogs`, d.auditLogs.all(), schemas.AuditLogEventSchema],
    );
  }
  if (server.cad) {
    out.push(
      ['calls', server.cad.calls.all(), schemas.CadCallSchema],
      ['notes', server.cad.notes.all(), schemas.CadCallNoteSchema],
      ['records', server.cad.records.all(), schemas.CadRecordSchema],
      ['courtHearings', server.cad.courtHearings.all(), schemas.CadCourtHearingSchema],
      ['units', server.cad.units.all(), schemas.CadUnitSchema],
      ['unitGroups', server.cad.unitGroups.all(), schemas.CadUnitGroupSchema],
    );
  }
  return out;
}

const snapshot = (store: Store) =>
  JSON.stringify({
    servers: [store.main, store.noCad].map((server) => [
      server.info,
      server.links.all(),
      ...tables(server).map(([name, rows]) => [name, rows]),
    ]),
    tokens: store.tokens.all(),
  });

describe('determinism', () => {
  it('the same seed gives byte-identical data and tokens; another seed does not', () => {
    const a = createMockApi({ seed: 42 });
    const b = createMockApi({ seed: 42 });
    const c = createMockApi({ seed: 43 });
    expect(snapshot(a.store)).toBe(snapshot(b.store));
    expect(a.tokens).toEqual(b.tokens);
    expect(snapshot(a.store)).not.toBe(snapshot(c.store));
    expect(a.tokens.main).not.toBe(c.tokens.main);
  });

  it('reset() gives back exactly the seeded state', () => {
    const mock = createMockApi({ seed: 5 });
    const before = snapshot(mock.store);
    mock.store.main.logs.delete(mock.store.main.logs.all()[0]!.id);
    mock.store.main.members.all()[0]!.roles = ['mutated in place'];
    mock.reset();
    expect(snapshot(mock.store)).toBe(before);
  });

  it('growing one group leaves the others as they were', () => {
    const small = createMockApi({ seed: 3 });
    const more = createMockApi({ seed: 3, counts: { logs: 900 } });
    expect(JSON.stringify(more.store.main.members.all())).toBe(JSON.stringify(small.store.main.members.all()));
    expect(more.store.main.logs.size).toBe(900);
  });

  it('does not disturb a caller’s own faker', () => {
    faker.seed(99);
    const expected = [faker.string.uuid(), faker.string.uuid()];
    faker.seed(99);
    const first = faker.string.uuid();
    createMockApi({ seed: 1 });
    expect([first, faker.string.uuid()]).toEqual(expected);
  });
});

describe('the rows', () => {
  const mock = createMockApi();
  const { main, noCad } = mock.store;

  it('every row of both servers passes its SDK schema', () => {
    const rows = [main, noCad].flatMap((server) =>
      tables(server).flatMap(([name, rows, schema]) => rows.map((row) => ({ name, result: schema.safeParse(row) }))),
    );
    expect(rows.length).toBeGreaterThan(3000);
    expect(rows.filter(({ result }) => !result.success).map(({ name, result }) => `${name}: ${JSON.stringify(result.error)}`)).toEqual([]);
  });

  it('optional fields are sometimes present, sometimes null, sometimes absent', () => {
    const fields: [string, readonly object[], string][] = [
      ['applications', main.applications.all(), 'color'],
      ['applications', main.applications.all(), 'cooldown'],
      ['logs', main.logs.all(), 'description'],
      ['logs', main.logs.all(), 'gameId'],
      ['applicationResponses', main.applicationResponses.all(), 'gameId'],
      ['records', main.cad!.records.all(), 'agency'],
      ['calls', main.cad!.calls.all(), 'address'],
      ['auditLogs', main.auditLogs.all(), 'applicationId'],
    ];
    for (const [name, rows, field] of fields) {
      const values = rows.map((row) => (field in row ? (row as Record<string, unknown>)[field] : 'absent'));
      const present = values.filter((v) => v !== null && v !== 'absent').length;
      const nulls = values.filter((v) => v === null).length;
      const absent = values.filter((v) => v === 'absent').length;
      expect([name, field, present > 0, nulls > 0, absent > 0]).toEqual([name, field, true, true, true]);
      expect(present, `${name}.${field} mostly present`).toBeGreaterThan(nulls);
    }
  });

  it('references point at rows that exist', () => {
    const memberIds = new Set(main.members.all().map((m) => m.id));
    const cad = main.cad!;
    const unitIds = new Set(cad.units.all().map((u) => u.id));
    /** Each reference of each row: its kind, and whether it points at a row. */
    const references: [kind: string, found: boolean][] = [
      ...main.applicationResponses.all().flatMap((r): [string, boolean][] => [
        ['applicationResponse.applicationId', main.applications.get(r.applicationId) !== undefined],
        ['applicationResponse.userId', memberIds.has(r.userId)],
      ]),
      ...cad.notes.all().map((n): [string, boolean] => ['note.callId', cad.calls.get(n.callId) !== undefined]),
      ...cad.courtHearings.all().map((h): [string, boolean] => ['courtHearing.recordId', cad.records.get(h.recordId) !== undefined]),
      ...cad.unitGroups.all().flatMap((g) => idsIn(g.units).map((u): [string, boolean] => ['unitGroup.units', unitIds.has(u as number)])),
      ...cad.calls.all().flatMap((c) => idsIn(c.units).map((u): [string, boolean] => ['call.units', unitIds.has(u as number)])),
      ...main.loas.all().map((l): [string, boolean] => ['loa.memberId', memberIds.has(l.memberId)]),
      ...main.shifts.all().map((sh): [string, boolean] => ['shift.memberId', memberIds.has(sh.memberId)]),
      ...main.logs.all().map((l): [string, boolean] => ['log.createdBy', memberIds.has(l.createdBy)]),
      ...main.joinRequests.all().map((j): [string, boolean] => ['joinRequest.userId', memberIds.has(j.userId)]),
      ...main.links.all().map((link): [string, boolean] => ['link.memberId', memberIds.has(link.memberId)]),
      ...[...main.departmentData].flatMap(([departmentId, d]): [string, boolean][] => {
        const roster = new Set(d.members.all().map((m) => m.id));
        return [
          ['department', main.departments.get(departmentId) !== undefined],
          ...d.members.all().flatMap((m): [string, boolean][] => [
            ['departmentMember.id', memberIds.has(m.id)],
            [
              'departmentMember.rankId',
              d.ranks.get(m.rankId)?.position === m.rankPosition && d.ranks.get(m.rankId)?.departmentId === departmentId,
            ],
          ]),
          ...d.loas.all().map((l): [string, boolean] => ['departmentLoa.memberId', roster.has(l.memberId)]),
          ...d.shifts.all().map((sh): [string, boolean] => ['departmentShift.memberId', roster.has(sh.memberId)]),
        ];
      }),
    ];
    // Every kind of reference occurs (so each is checked), and none points nowhere.
    expect(new Set(references.map(([kind]) => kind)).size).toBe(16);
    expect(references.filter(([, found]) => !found)).toEqual([]);
  });

  it('timestamps are Unix seconds inside the world’s fixed range', () => {
    const isTime = (key: string) => key === 'createdAt' || key === 'timestamp' || /At$/.test(key);
    let checked = 0;
    for (const server of [main, noCad]) {
      for (const [name, rows] of tables(server)) {
        for (const row of rows) {
          for (const [key, value] of Object.entries(row)) {
            if (!isTime(key) || value === null || value === undefined) continue;
            checked++;
            expect(Number.isInteger(value), `${name}.${key}`).toBe(true);
            expect(value as number, `${name}.${key}`).toBeGreaterThanOrEqual(WORLD_START);
            expect(value as number, `${name}.${key}`).toBeLessThanOrEqual(WORLD_END);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(4000);
  });

  it('main has every data group, with lists spanning many pages; noCad has no CAD', () => {
    expect(main.members.size).toBeGreaterThanOrEqual(200);
    expect(main.logs.size).toBeGreaterThanOrEqual(200);
    expect(main.applications.size).toBeGreaterThanOrEqual(20);
    expect(main.applicationResponses.size).toBeGreaterThanOrEqual(100);
    const topLevel = tables(main).filter(([name]) => !name.includes('.'));
    expect(topLevel.length).toBe(16);
    expect(topLevel.filter(([, rows]) => rows.length < 5).map(([name]) => name)).toEqual([]);
    expect(main.departments.size).toBeGreaterThanOrEqual(3);
    for (const d of main.departmentData.values()) {
      expect(d.ranks.size).toBeGreaterThanOrEqual(5);
      expect(d.members.size).toBeGreaterThanOrEqual(10);
      expect(d.loas.size + d.shifts.size + d.joinRequests.size + d.auditLogs.size).toBeGreaterThan(20);
    }
    expect(main.cad!.notes.size).toBeGreaterThan(main.cad!.calls.size);
    expect(main.links.size).toBeGreaterThan(main.members.size / 2);
    expect(noCad.cad).toBeNull();
    expect(noCad.members.size).toBeGreaterThan(10);
  });

  it('counts size the main server for load tests', () => {
    expect(createMockApi({ counts: { members: 1234 } }).store.main.members.size).toBe(1234);
  });
});
