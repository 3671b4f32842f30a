/**
 * Issue 19, references: a row written into `mock.store` that points at a row that does not exist
 * (a member, a role, a call, a department, another server…) is an `InvalidRowError` naming the
 * field, unless the test asks for the dangling reference; a snapshot world is checked for the
 * links that make a row part of its owner.
 */
import { InvalidArgumentError } from 'community-server-sdk';
import { createMockApi, InvalidRowError, snapshotWorld, type MockApi, type WorldSnapshot } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { mockClient } from '../../../helpers';

const NOBODY = 'no-such-row';

/** The first department of `main` and what is inside it. */
const firstDepartment = (mock: MockApi) => {
  const department = mock.store.main.departments.all()[0]!;
  return { department, inside: mock.store.main.departmentData.get(department.id)! };
};

/** A write with one dangling reference, and the refusal it gets. */
const DANGLING: [string, (mock: MockApi) => unknown, string | RegExp][] = [
  [
    'an LOA’s memberId',
    (m) => m.store.main.loas.create({ memberId: NOBODY }),
    `main.loas.create: memberId: no member "${NOBODY}" in main.members`,
  ],
  [
    'a log’s createdBy',
    (m) => m.store.main.logs.create({ createdBy: NOBODY }),
    `main.logs.create: createdBy: no member "${NOBODY}" in main.members`,
  ],
  ['a shift’s memberId', (m) => m.store.main.shifts.create({ memberId: NOBODY }), `main.shifts.create: memberId: no member "${NOBODY}"`],
  ['a link’s memberId', (m) => m.store.main.links.create({ memberId: NOBODY }), `main.links.create: memberId: no member "${NOBODY}"`],
  [
    'a member’s roles, naming the index',
    (m) => m.store.main.members.create({ roles: [m.store.main.roles.all()[0]!.id, 'r1'] }),
    'main.members.create: roles[1]: no role "r1" in main.roles',
  ],
  [
    'a member’s roles in the older encoding (a JSON string of the list)',
    (m) => m.store.main.members.create({ roles: JSON.stringify([m.store.main.roles.all()[0]!.id, 'r1']) }),
    'main.members.create: roles[1]: no role "r1" in main.roles',
  ],
  [
    'an application’s reviewerRoles',
    (m) => m.store.main.applications.create({ reviewerRoles: ['r9'] }),
    'main.applications.create: reviewerRoles[0]: no role "r9" in main.roles',
  ],
  [
    'an application response’s applicationId',
    (m) => m.store.main.applicationResponses.create({ applicationId: NOBODY }),
    `main.applicationResponses.create: applicationId: no application "${NOBODY}" in main.applications`,
  ],
  [
    'a call note’s callId',
    (m) => m.store.main.cad!.notes.create({ callId: NOBODY }),
    `main.cad.notes.create: callId: no call "${NOBODY}" in main.cad.calls`,
  ],
  [
    'a court hearing’s recordId',
    (m) => m.store.main.cad!.courtHearings.create({ recordId: NOBODY }),
    `main.cad.courtHearings.create: recordId: no record "${NOBODY}" in main.cad.records`,
  ],
  [
    'a call’s units',
    (m) => m.store.main.cad!.calls.create({ units: [m.store.main.cad!.units.all()[0]!.id, 999_999] }),
    'main.cad.calls.create: units[1]: no unit 999999 in main.cad.units',
  ],
  [
    'a call’s records',
    (m) => m.store.main.cad!.calls.create({ records: [NOBODY] }),
    `main.cad.calls.create: records[0]: no record "${NOBODY}"`,
  ],
  [
    'a unit group’s units',
    (m) => m.store.main.cad!.unitGroups.create({ units: [999_999] }),
    'main.cad.unitGroups.create: units[0]: no unit 999999',
  ],
  [
    'a department rank’s departmentId',
    (m) => firstDepartment(m).inside.ranks.create({ departmentId: m.store.main.departments.all()[1]!.id }),
    /\.ranks\.create: departmentId: no department ".+" in main\.departmentData\.[^ ]+ \(whose id is ".+"\)$/,
  ],
  [
    'a department member’s rankId',
    (m) => firstDepartment(m).inside.members.create({ rankId: NOBODY }),
    `.members.create: rankId: no rank "${NOBODY}"`,
  ],
  [
    'a department LOA’s memberId (a server member off its roster)',
    (m) => {
      const { inside } = firstDepartment(m);
      const outsider = m.store.main.members.all().find((member) => !inside.members.get(member.id))!;
      return inside.loas.create({ memberId: outsider.id });
    },
    /\.loas\.create: memberId: no department member ".+" in main\.departmentData\.[^.]+\.members$/,
  ],
];

describe('a reference to a row that does not exist is refused, naming the field', () => {
  it.each(DANGLING)('%s', (_, write, says) => {
    const mock = createMockApi({ seed: 1 });
    expect(() => write(mock)).toThrow(InvalidRowError);
    expect(() => write(mock)).toThrow(says);
  });

  it('on insert and update too; nothing is written', () => {
    const mock = createMockApi({ seed: 1 });
    const logs = mock.store.main.logs;
    const [log] = logs.all();
    const size = logs.size;
    expect(() => logs.insert({ ...log!, id: 'log-new', createdBy: NOBODY })).toThrow(`main.logs.insert: createdBy: no member "${NOBODY}"`);
    expect(() => logs.update(log!.id, { createdBy: NOBODY })).toThrow(`main.logs.update: createdBy: no member "${NOBODY}"`);
    expect(logs.size).toBe(size);
    expect(logs.get(log!.id)).toBe(log);
  });

  it('a reference to a row deleted since is refused; one that exists is taken and served', async () => {
    const mock = createMockApi({ seed: 1 });
    const [member, other] = mock.store.main.members.all();
    mock.store.main.members.delete(other!.id);
    expect(() => mock.store.main.loas.create({ memberId: other!.id })).toThrow(`memberId: no member "${other!.id}"`);
    const loa = mock.store.main.loas.create({ memberId: member!.id });
    expect((await mockClient(mock).loas.get(loa.id)).memberId).toBe(member!.id);
  });
});

describe('another server’s serverId is refused', () => {
  it('the noCad server’s id, or any id that is not this server’s', () => {
    const mock = createMockApi({ seed: 1 });
    const { main, noCad } = mock.store;
    const says = `serverId: no server "${noCad.info.id}" in main (whose id is "${main.info.id}")`;
    expect(() => main.roles.create({ serverId: noCad.info.id })).toThrow(`main.roles.create: ${says}`);
    expect(() => main.cad!.units.create({ serverId: noCad.info.id })).toThrow(`main.cad.units.create: ${says}`);
    expect(() => firstDepartment(mock).inside.shifts.create({ serverId: NOBODY })).toThrow(`serverId: no server "${NOBODY}" in main`);
    const [role] = noCad.roles.all();
    expect(() => noCad.roles.update(role!.id, { serverId: main.info.id })).toThrow(
      `noCad.roles.update: serverId: no server "${main.info.id}" in noCad`,
    );
    expect(main.roles.create({ serverId: main.info.id }).serverId).toBe(main.info.id);
  });

  it('a token belongs to either server of the store, and no other', () => {
    const mock = createMockApi({ seed: 1 });
    expect(() => mock.store.tokens.create({ serverId: NOBODY })).toThrow(
      `tokens.create: serverId: no server "${NOBODY}" in the store (main, noCad)`,
    );
    expect(mock.store.tokens.create({ serverId: mock.store.noCad.info.id }).serverId).toBe(mock.store.noCad.info.id);
  });
});

describe('a dangling reference on purpose: { dangling }', () => {
  it('the fields listed may dangle, the others may not', async () => {
    const mock = createMockApi({ seed: 1 });
    const log = mock.store.main.logs.create({ createdBy: 'left-long-ago' }, { dangling: ['createdBy'] });
    expect((await mockClient(mock).logs.get(log.id)).createdBy).toBe('left-long-ago');
    expect(() => mock.store.main.logs.create({ createdBy: 'left-long-ago', serverId: NOBODY }, { dangling: ['createdBy'] })).toThrow(
      `serverId: no server "${NOBODY}"`,
    );
  });

  it('true lets every reference dangle, on create, insert and update', () => {
    const mock = createMockApi({ seed: 1 });
    const members = mock.store.main.members;
    const [first] = members.all();
    expect(members.create({ roles: ['gone'], serverId: NOBODY }, { dangling: true }).roles).toEqual(['gone']);
    expect(members.insert({ ...first!, id: 'm-new', roles: ['gone'] }, { dangling: true }).roles).toEqual(['gone']);
    expect(members.update(first!.id, { roles: ['gone'] }, { dangling: ['roles'] })!.roles).toEqual(['gone']);
  });

  it('a member’s roles as seeded rows carry them, a JSON string of the list included, are taken back as they are', () => {
    const mock = createMockApi({ seed: 1 });
    const members = mock.store.main.members;
    const encoded = members.all().find((member) => typeof member.roles === 'string' && member.roles !== '[]')!;
    expect(members.insert({ ...encoded, id: 'm-copy' }).roles).toBe(encoded.roles);
  });

  it('an unknown option, or a field that is not a reference, is an InvalidArgumentError; nothing is written', () => {
    const mock = createMockApi({ seed: 1 });
    const logs = mock.store.main.logs;
    const size = logs.size;
    expect(() => logs.create({ createdBy: NOBODY }, { dangle: true } as never)).toThrow(InvalidArgumentError);
    expect(() => logs.create({ createdBy: NOBODY }, { dangle: true } as never)).toThrow(
      'unknown main.logs.create option "dangle" (known: dangling)',
    );
    expect(() => logs.create({}, { dangling: ['text'] })).toThrow(
      'main.logs.create: dangling: "text" is not a reference field of this table (serverId, createdBy)',
    );
    expect(() => logs.create({}, { dangling: 'createdBy' } as never)).toThrow(
      'main.logs.create: dangling must be true or a list of reference fields',
    );
    expect(() => logs.update(logs.all()[0]!.id, {}, null as never)).toThrow(InvalidArgumentError);
    expect(logs.size).toBe(size);
  });
});

describe('only what the caller gives is checked', () => {
  it('update looks at the patch, not at the row’s other references', () => {
    const mock = createMockApi({ seed: 1 });
    const loas = mock.store.main.loas;
    const loa = loas.create({ memberId: 'left-long-ago' }, { dangling: ['memberId'] });
    expect(loas.update(loa.id, { reason: 'Family matters' })!.memberId).toBe('left-long-ago');
    expect(() => loas.update(loa.id, { memberId: NOBODY })).toThrow(`main.loas.update: memberId: no member "${NOBODY}"`);
    expect(loas.get(loa.id)!.reason).toBe('Family matters');
  });

  it('seeded rows may name former members: on a server without members, their other fields still change', () => {
    const mock = createMockApi({ seed: 1, counts: { members: 0 } });
    const [log] = mock.store.main.logs.all();
    expect(mock.store.main.members.get(log!.createdBy)).toBeUndefined();
    expect(mock.store.main.logs.update(log!.id, { text: 'Trolling' })!.createdBy).toBe(log!.createdBy);
  });
});

describe('a world snapshot: every row owned by what holds it', () => {
  const snapshot = async (): Promise<WorldSnapshot> =>
    structuredClone(await snapshotWorld(mockClient(createMockApi({ seed: 1 })), { progress: false }));

  it('refuses a row its owner lacks, naming the path', async () => {
    const world = await snapshot();
    world.cad!.notes[3]!.callId = 'gone';
    expect(() => createMockApi({ world })).toThrow('world.cad.notes[3].callId: no call "gone" in world.cad.calls');

    const responses = await snapshot();
    responses.applicationResponses[2]!.applicationId = 'gone';
    expect(() => createMockApi({ world: responses })).toThrow(
      'world.applicationResponses[2].applicationId: no application "gone" in world.applications',
    );

    const ranks = await snapshot();
    ranks.departments[1]!.members[0]!.rankId = 'gone';
    expect(() => createMockApi({ world: ranks })).toThrow(
      'world.departments[1].members[0].rankId: no rank "gone" in world.departments[1].ranks',
    );

    const servers = await snapshot();
    servers.roles[0]!.serverId = 'other-server';
    expect(() => createMockApi({ world: servers })).toThrow(
      `world.roles[0].serverId: no server "other-server" in world.server (whose id is "${servers.server.id}")`,
    );
  });

  it('takes history that names members who have left, and calls that name records deleted since', async () => {
    const world = await snapshot();
    world.logs[0]!.createdBy = 'left-long-ago';
    world.loas[0]!.memberId = 'left-long-ago';
    world.cad!.calls[0]!.records = ['deleted-record'];
    const mock = createMockApi({ world });
    expect((await mockClient(mock).logs.get(world.logs[0]!.id)).createdBy).toBe('left-long-ago');
  });
});
