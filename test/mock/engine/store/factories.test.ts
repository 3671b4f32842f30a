/**
 * Factories (issue 12): every table of `mock.store` has `create(partial?)`. The given fields are
 * kept; the rest are valid by the client's own schema and point at rows that exist; the row is
 * inserted, so the SDK gets it through the mock; the same seed gives the same rows, and making
 * them never changes the seeded world. `insert` and `update` refuse a row that breaks the
 * resource's schema, naming the table, the field and the problem, and leave the table as it was.
 */
import type { CommunityServerClient } from 'community-server-sdk';
import { createMockApi, InvalidRowError, type MockApi, type Store } from 'community-server-sdk/mock';
import * as schemas from 'community-server-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { mockClient } from '../../../helpers';
import { idsIn } from '../world/open-json';

type Row = Record<string, unknown>;
interface Table {
  create(partial?: Row): Row;
  get(key: unknown): Row | undefined;
}

/** Every row of a list, walked through the SDK's paging. */
async function everyItem(list: AsyncIterable<unknown>): Promise<Row[]> {
  const items: Row[] = [];
  for await (const item of list) items.push(item as Row);
  return items;
}

const firstDepartmentId = (store: Store) => store.main.departments.all()[0]!.id;
const inFirstDepartment = (store: Store) => store.main.departmentData.get(firstDepartmentId(store))!;
const memberIds = (store: Store) => new Set(store.main.members.all().map((member) => member.id));

interface Case {
  /** The table's path in the store. */
  name: string;
  table: (store: Store) => Table;
  /** Fields given to `create()`, kept as they are. */
  partial: (store: Store) => Row;
  /** The client's schema of the resource (`null`: the mock's own record, checked by `served`). */
  schema: { safeParse(value: unknown): { success: boolean } } | null;
  /** The row as the SDK gets it from the mock. */
  served: (client: CommunityServerClient, row: Row, store: Store, mock: MockApi) => Promise<unknown>;
  /** The references the row makes, each to a row that exists. */
  references: (row: Row, store: Store) => void;
}

const CASES: Case[] = [
  {
    name: 'main.members',
    table: (s) => s.main.members,
    partial: (s) => ({ roles: [s.main.roles.all()[0]!.id] }),
    schema: schemas.MemberSchema,
    served: (client, row) => client.members.get(row.id as string),
    references: (row, s) => expect(row.serverId).toBe(s.main.info.id),
  },
  {
    name: 'main.links',
    table: (s) => s.main.links as unknown as Table,
    partial: () => ({ chatId: '424242424242424242' }),
    schema: null,
    served: async (client, row) => ({ ...row, ...(await client.members.chatId(row.memberId as string)) }),
    references: (row, s) => expect(memberIds(s)).toContain(row.memberId),
  },
  {
    name: 'main.roles',
    table: (s) => s.main.roles,
    partial: () => ({ name: 'Dispatcher' }),
    schema: schemas.RoleSchema,
    served: (client, row) => client.roles.get(row.id as string),
    references: (row, s) => expect(row.serverId).toBe(s.main.info.id),
  },
  {
    name: 'main.applications',
    table: (s) => s.main.applications,
    partial: () => ({ title: 'Aviation Application' }),
    schema: schemas.ApplicationSchema,
    served: (client, row) => client.applications.get(row.id as string),
    references: (row, s) => {
      const roleIds = s.main.roles.all().map((role) => role.id);
      for (const roleId of [...idsIn(row.approvalRoles), ...idsIn(row.reviewerRoles)]) expect(roleIds).toContain(roleId);
    },
  },
  {
    name: 'main.applicationResponses',
    table: (s) => s.main.applicationResponses,
    partial: () => ({ status: 0 }),
    schema: schemas.ApplicationResponseSchema,
    served: async (client, row) =>
      (await everyItem(client.applications.responses(row.applicationId as string, { pageSize: 100 }))).find((item) => item.id === row.id),
    references: (row, s) => {
      expect(s.main.applications.get(row.applicationId)).toBeDefined();
      expect(memberIds(s)).toContain(row.userId);
    },
  },
  {
    name: 'main.auditLogs',
    table: (s) => s.main.auditLogs,
    partial: () => ({ description: 'Settings changed' }),
    schema: schemas.AuditLogEventSchema,
    served: async (client, row) => (await everyItem(client.auditLogs.list({ pageSize: 100 }))).find((item) => item.id === row.id),
    references: (row, s) => expect(memberIds(s)).toContain(row.userId),
  },
  {
    name: 'main.logs',
    table: (s) => s.main.logs,
    partial: () => ({ text: 'Exploiting', hidden: false }),
    schema: schemas.LogSchema,
    served: (client, row) => client.logs.get(row.id as string),
    references: (row, s) => {
      expect(memberIds(s)).toContain(row.createdBy);
      expect(s.main.logs.all().some((log) => log.id !== row.id && log.username === row.username)).toBe(true);
    },
  },
  {
    name: 'main.joinRequests',
    table: (s) => s.main.joinRequests,
    partial: () => ({ joinCode: 'summer' }),
    schema: schemas.JoinRequestSchema,
    served: (client, row) => client.joinRequests.get(row.userId as string),
    references: (row, s) => expect(memberIds(s)).toContain(row.userId),
  },
  {
    name: 'main.loas',
    table: (s) => s.main.loas,
    partial: () => ({ reason: 'Exams' }),
    schema: schemas.LoaSchema,
    served: (client, row) => client.loas.get(row.id as string),
    references: (row, s) => expect(memberIds(s)).toContain(row.memberId),
  },
  {
    name: 'main.shifts',
    table: (s) => s.main.shifts,
    partial: () => ({ type: 'Patrol' }),
    schema: schemas.ShiftSchema,
    served: (client, row) => client.shifts.get(row.id as string),
    references: (row, s) => expect(memberIds(s)).toContain(row.memberId),
  },
  {
    name: 'main.departments',
    table: (s) => s.main.departments,
    partial: () => ({ name: 'Aviation', icon: 'plane' }),
    schema: schemas.DepartmentSchema,
    served: (client, row) => client.departments.get(row.id as string),
    references: (row, s) => expect(s.main.departmentData.get(row.id as string)?.members.size).toBe(0),
  },
  {
    name: 'a department’s ranks',
    table: (s) => inFirstDepartment(s).ranks,
    partial: () => ({ name: 'Commander' }),
    schema: schemas.DepartmentRankSchema,
    served: (client, row, s) => client.departments.ranks.get(firstDepartmentId(s), row.id as string),
    references: (row, s) => expect(row.departmentId).toBe(firstDepartmentId(s)),
  },
  {
    name: 'a department’s members',
    table: (s) => inFirstDepartment(s).members,
    partial: () => ({ supportFlags: 1 }),
    schema: schemas.DepartmentMemberSchema,
    served: (client, row, s) => client.departments.members.get(firstDepartmentId(s), row.id as string),
    references: (row, s) => {
      expect(memberIds(s)).toContain(row.id);
      expect(inFirstDepartment(s).ranks.get(row.rankId)?.position).toBe(row.rankPosition);
    },
  },
  {
    name: 'a department’s shifts',
    table: (s) => inFirstDepartment(s).shifts,
    partial: () => ({ wave: 2 }),
    schema: schemas.ShiftSchema,
    served: (client, row, s) => client.departments.shifts.get(firstDepartmentId(s), row.id as string),
    references: (row, s) => expect(inFirstDepartment(s).members.get(row.memberId)).toBeDefined(),
  },
  {
    name: 'a department’s LOAs',
    table: (s) => inFirstDepartment(s).loas,
    partial: () => ({ status: 0 }),
    schema: schemas.LoaSchema,
    served: (client, row, s) => client.departments.loas.get(firstDepartmentId(s), row.id as string),
    references: (row, s) => expect(inFirstDepartment(s).members.get(row.memberId)).toBeDefined(),
  },
  {
    name: 'a department’s join requests',
    table: (s) => inFirstDepartment(s).joinRequests,
    partial: () => ({ joinCode: 'ABC123' }),
    schema: schemas.JoinRequestSchema,
    served: (client, row, s) => client.departments.joinRequests.get(firstDepartmentId(s), row.userId as string),
    references: (row, s) => {
      expect(memberIds(s)).toContain(row.userId);
      expect(inFirstDepartment(s).members.get(row.userId)).toBeUndefined();
    },
  },
  {
    name: 'a department’s audit log',
    table: (s) => inFirstDepartment(s).auditLogs,
    partial: () => ({ description: 'Promoted' }),
    schema: schemas.AuditLogEventSchema,
    served: async (client, row, s) =>
      (await everyItem(client.departments.auditLogs(firstDepartmentId(s), { pageSize: 100 }))).find((item) => item.id === row.id),
    references: (row, s) => expect(inFirstDepartment(s).members.get(row.userId)).toBeDefined(),
  },
  {
    name: 'main.cad.calls',
    table: (s) => s.main.cad!.calls,
    partial: () => ({ title: 'Shots fired' }),
    schema: schemas.CadCallSchema,
    served: (client, row) => client.cad.calls.get(row.id as string),
    references: (row, s) => {
      expect(memberIds(s)).toContain(row.createdByUserId);
      for (const unitId of idsIn(row.units)) expect(s.main.cad!.units.get(unitId as number)).toBeDefined();
      for (const recordId of row.records as string[]) expect(s.main.cad!.records.get(recordId)).toBeDefined();
    },
  },
  {
    name: 'main.cad.notes',
    table: (s) => s.main.cad!.notes,
    partial: () => ({ data: { text: 'Suspect fled north' } }),
    schema: schemas.CadCallNoteSchema,
    served: (client, row) => client.cad.calls.note(row.callId as string, row.id as string),
    references: (row, s) => {
      const call = s.main.cad!.calls.get(row.callId)!;
      expect(call).toBeDefined();
      if (row.createdByUnit !== null) expect(call.units).toContain(row.createdByUnit);
    },
  },
  {
    name: 'main.cad.records',
    table: (s) => s.main.cad!.records,
    partial: () => ({ label: 'Warrant' }),
    schema: schemas.CadRecordSchema,
    served: (client, row) => client.cad.records.get(row.id as string),
    references: (row, s) => expect(memberIds(s)).toContain(row.createdByUserId),
  },
  {
    name: 'main.cad.courtHearings',
    table: (s) => s.main.cad!.courtHearings,
    partial: () => ({ status: 0 }),
    schema: schemas.CadCourtHearingSchema,
    served: (client, row) => client.cad.courtHearings.get(row.id as string),
    references: (row, s) => expect(s.main.cad!.records.get(row.recordId)).toBeDefined(),
  },
  {
    name: 'main.cad.units',
    table: (s) => s.main.cad!.units,
    partial: () => ({ panic: true }),
    schema: schemas.CadUnitSchema,
    served: (client, row) => client.cad.units.get(row.id as number),
    references: (row, s) => {
      expect(memberIds(s)).toContain(row.userId);
      expect(s.main.cad!.units.all().filter((unit) => unit.id === row.id)).toHaveLength(1);
    },
  },
  {
    name: 'main.cad.unitGroups',
    table: (s) => s.main.cad!.unitGroups,
    partial: () => ({ premade: true }),
    schema: schemas.CadUnitGroupSchema,
    served: (client, row) => client.cad.unitGroups.get(row.id as number),
    references: (row, s) => {
      for (const unitId of idsIn(row.units)) expect(s.main.cad!.units.get(unitId as number)).toBeDefined();
    },
  },
  {
    name: 'tokens',
    table: (s) => s.tokens as unknown as Table,
    partial: () => ({ permissions: ['read'] }),
    schema: null,
    // A created token works: the SDK authenticates with it, and the API shows it without its secret.
    served: (_client, row, _s, mock) => mockClient(mock, { token: row.secret as string }).tokens.current(),
    references: (row, s) => expect(row.serverId).toBe(s.main.info.id),
  },
];

const setup = (seed = 4) => {
  const mock = createMockApi({ seed });
  return { mock, client: mockClient(mock) };
};

describe('create(partial?) on every table', () => {
  it.each(CASES)(
    '$name: partial kept, the rest valid, references exist, served by the SDK',
    async ({ table, partial, schema, served, references }) => {
      const { mock, client } = setup();
      const given = partial(mock.store);
      const before = (table(mock.store) as unknown as { size: number }).size;
      const row = table(mock.store).create(given);
      expect(row).toMatchObject(given);
      expect((table(mock.store) as unknown as { size: number }).size).toBe(before + 1);
      if (schema) expect(schema.safeParse(row).success).toBe(true);
      references(row, mock.store);
      expect(await served(client, row, mock.store, mock)).toMatchObject(given);
    },
  );

  it('every table of mock.store has a case here', () => {
    const { mock } = setup();
    const { main } = mock.store;
    const department = inFirstDepartment(mock.store);
    const tables = [
      ...Object.keys(main)
        .filter((key) => typeof (main as unknown as Record<string, Partial<Table>>)[key]?.create === 'function')
        .map((key) => `main.${key}`),
      ...Object.keys(department).map((key) => `department.${key}`),
      ...Object.keys(main.cad!).map((key) => `main.cad.${key}`),
      'tokens',
    ];
    const departmentNames: Record<string, string> = {
      ranks: 'ranks',
      members: 'members',
      shifts: 'shifts',
      loas: 'LOAs',
      joinRequests: 'join requests',
      auditLogs: 'audit log',
    };
    const covered = CASES.map((c) =>
      c.name.replace(
        /^a department’s (.+)$/,
        (_, what: string) => `department.${Object.keys(departmentNames).find((key) => departmentNames[key] === what)}`,
      ),
    );
    expect(covered.sort()).toEqual(tables.sort());
  });
});

describe('factories are seeded', () => {
  const makeSome = (mock: MockApi) => [
    mock.store.main.members.create(),
    mock.store.main.logs.create(),
    mock.store.main.logs.create(),
    mock.store.main.cad!.notes.create(),
    inFirstDepartment(mock.store).loas.create(),
    mock.store.tokens.create(),
  ];

  it('the same seed gives the same rows; another seed other rows', () => {
    expect(makeSome(setup(11).mock)).toEqual(makeSome(setup(11).mock));
    expect(makeSome(setup(11).mock)).not.toEqual(makeSome(setup(12).mock));
  });

  it('creating rows leaves the seeded world as it was, and reset() restarts every stream', () => {
    const { mock } = setup(11);
    const seeded = JSON.stringify(mock.store.main.logs.all());
    const first = makeSome(mock);
    expect(JSON.stringify(mock.store.main.logs.all().filter((log) => !first.includes(log)))).toBe(seeded);
    mock.reset();
    expect(JSON.stringify(mock.store.main.logs.all())).toBe(seeded);
    expect(makeSome(mock)).toEqual(first);
  });

  it('a table’s stream is its own: creating members first does not change the next role', () => {
    const plain = setup(11).mock;
    const busy = setup(11).mock;
    for (let i = 0; i < 5; i++) busy.store.main.members.create();
    expect(busy.store.main.roles.create()).toEqual(plain.store.main.roles.create());
  });
});

describe('create() refuses what it cannot make', () => {
  it('a row whose references have nothing to point at names what is missing', () => {
    const mock = createMockApi({ counts: { members: 0 } });
    expect(() => mock.store.main.logs.create()).toThrow(InvalidRowError);
    expect(() => mock.store.main.logs.create()).toThrow(
      'main.logs.create: a row here points at a member of the server, and there is none; create one first',
    );
    mock.store.main.members.create();
    expect(memberIds(mock.store)).toContain(mock.store.main.logs.create().createdBy);
  });

  it('a key that is taken', () => {
    const { mock } = setup();
    const [member] = mock.store.main.members.all();
    expect(() => mock.store.main.members.create({ id: member!.id })).toThrow(
      `main.members.create: id ${JSON.stringify(member!.id)} is already taken`,
    );
    expect(mock.store.main.members.get(member!.id)).toBe(member);
  });
});

describe('insert and update refuse a row that breaks the resource’s schema', () => {
  it('insert: a missing required field, named; the table is unchanged', () => {
    const { mock } = setup();
    const size = mock.store.main.members.size;
    expect(() => mock.store.main.members.insert({ id: 'm-new', serverId: mock.store.main.info.id, roles: [] } as never)).toThrow(
      new InvalidRowError('main.members.insert: createdAt is required'),
    );
    expect(mock.store.main.members.size).toBe(size);
    expect(mock.store.main.members.get('m-new')).toBeUndefined();
  });

  it('insert: a row without the table’s key', () => {
    const { mock } = setup();
    expect(() => mock.store.main.shifts.insert({ memberId: 'm', createdAt: 1 } as never)).toThrow(
      "main.shifts.insert: id is required (the table's key)",
    );
  });

  it('update: a field of the wrong type, named with what it must be; the row is unchanged', async () => {
    const { mock, client } = setup();
    const [log] = mock.store.main.logs.all();
    expect(() => mock.store.main.logs.update(log!.id, { createdAt: 'yesterday' as never })).toThrow(
      'main.logs.update: createdAt must be an integer, got string',
    );
    expect(mock.store.main.logs.get(log!.id)).toBe(log);
    expect((await client.logs.get(log!.id)).createdAt).toBe(log!.createdAt);
  });

  it('the mock’s own records too: account links and tokens', () => {
    const { mock } = setup();
    const [link] = mock.store.main.links.all();
    expect(() => mock.store.main.links.update(link!.memberId, { chatId: 42 as never })).toThrow(
      'main.links.update: chatId must be a string, got number',
    );
    const [token] = mock.store.tokens.all();
    expect(() => mock.store.tokens.update(token!.id, { permissions: ['admin' as never] })).toThrow(
      'tokens.update: permissions.0 must be "read" or "manage_tokens", got "admin"',
    );
    expect(mock.store.tokens.get(token!.id)).toBe(token);
  });

  it('inside a department and in CAD too, by their path in the store', () => {
    const { mock } = setup();
    const department = inFirstDepartment(mock.store);
    const [rank] = department.ranks.all();
    expect(() => department.ranks.update(rank!.id, { position: 'top' as never })).toThrow(
      `main.departmentData.${firstDepartmentId(mock.store)}.ranks.update: position must be an integer, got string`,
    );
    const [unit] = mock.store.main.cad!.units.all();
    expect(() => mock.store.main.cad!.units.update(unit!.id, { panic: 'yes' as never })).toThrow(
      'main.cad.units.update: panic must be a boolean, got string',
    );
  });
});

describe('the README recipe', () => {
  it('rows made for a new member are what the SDK lists for them', async () => {
    const { mock, client } = setup(1);
    const moderator = mock.store.main.members.create({ username: 'ada' });
    const logs = [mock.store.main.logs.create({ createdBy: moderator.id }), mock.store.main.logs.create({ createdBy: moderator.id })];
    const page = await client.logs.byStaff(moderator.id);
    expect(page.data.map((log) => log.id).sort()).toEqual(logs.map((log) => log.id).sort());
  });
});
