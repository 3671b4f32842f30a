/**
 * The store as a test writes it (issue 10, item 11 and the README's `reset()` note): its classes
 * are real runtime exports of `/mock`, a department inserted into `departments` is servable with
 * all its nested routes (and gone from them once deleted), and `reset()` replaces the store's
 * objects, so a test holds `mock.store`, never a table of it, across a reset.
 */
import { NotFoundError } from 'community-server-sdk';
import {
  CadStore,
  Collection,
  createMockApi,
  DepartmentStore,
  InvalidRowError,
  ServerStore,
  Store,
  WORLD_END,
} from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { describe, expect, it } from 'vitest';
import { mockClient } from '../../../helpers';

/** `POST /__mock/store/tokens` of `http` with `row`, as any HTTP client sends it. */
const postToken = (http: MockHttpServer, row: object) =>
  fetch(`${http.url}/__mock/store/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${http.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(row),
  });

const setup = () => {
  const mock = createMockApi({ seed: 5 });
  const client = mockClient(mock);
  return { mock, client };
};

describe('#11 the store’s classes exist at runtime', () => {
  it('mock.store and its parts are instances of the exported classes', () => {
    const { mock } = setup();
    expect(mock.store).toBeInstanceOf(Store);
    expect(mock.store.main).toBeInstanceOf(ServerStore);
    expect(mock.store.main.cad).toBeInstanceOf(CadStore);
    expect(mock.store.main.departmentData.values().next().value).toBeInstanceOf(DepartmentStore);
    expect(mock.store.main.members).toBeInstanceOf(Collection);
  });
});

describe('#11 a department inserted into departments serves its nested routes', () => {
  const department = (serverId: string) => ({ id: 'dept-new', serverId, name: 'Aviation', icon: 'plane' });

  it('insert: get, and every nested list answers an empty page; rows added inside are served', async () => {
    const { mock, client } = setup();
    const main = mock.store.main;
    main.departments.insert(department(main.info.id));
    expect(await client.departments.get('dept-new')).toMatchObject({ name: 'Aviation' });
    const d = client.departments;
    for (const list of [d.members.list, d.ranks.list, d.shifts.list, d.loas.list, d.joinRequests.list, d.auditLogs]) {
      expect((await list('dept-new')).total).toBe(0);
    }
    const inside = main.departmentData.get('dept-new')!;
    expect(inside).toBeInstanceOf(DepartmentStore);
    const rank = main.departmentData.values().next().value!.ranks.all()[0]!;
    inside.ranks.insert({ ...rank, id: 'rank-1', departmentId: 'dept-new', name: 'Pilot' });
    expect(await client.departments.ranks.get('dept-new', 'rank-1')).toMatchObject({ name: 'Pilot' });
    await expect(client.departments.members.get('dept-new', 'nobody')).rejects.toMatchObject({ code: 'member_not_found' });
  });

  it('replacing a department row keeps what is inside it', async () => {
    const { mock, client } = setup();
    const main = mock.store.main;
    const [first] = main.departments.all();
    const inside = main.departmentData.get(first!.id)!;
    main.departments.insert({ ...first!, name: 'Renamed' });
    expect(main.departmentData.get(first!.id)).toBe(inside);
    expect((await client.departments.members.list(first!.id)).total).toBe(inside.members.size);
  });

  it('delete: the department and its nested routes are 404 department_not_found', async () => {
    const { mock, client } = setup();
    const main = mock.store.main;
    const [first] = main.departments.all();
    expect(main.departments.delete(first!.id)).toBe(true);
    expect(main.departmentData.has(first!.id)).toBe(false);
    const error = await client.departments.members.list(first!.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe('department_not_found');
  });
});

describe('reset() replaces the store’s objects (README: “the store and reset()”)', () => {
  it('a table held across reset() is the old one; mock.store is the new one', async () => {
    const { mock, client } = setup();
    const heldStore = mock.store;
    const heldMembers = mock.store.main.members;
    mock.reset();
    expect(mock.store).not.toBe(heldStore);
    expect(mock.store.main.members).not.toBe(heldMembers);
    heldMembers.insert({ id: 'lost', serverId: heldStore.main.info.id, roles: [], createdAt: WORLD_END });
    await expect(client.members.get('lost')).rejects.toBeInstanceOf(NotFoundError); // written to the old store
    mock.store.main.members.insert({ id: 'kept', serverId: mock.store.main.info.id, roles: [], createdAt: WORLD_END });
    expect(await client.members.get('kept')).toMatchObject({ id: 'kept' });
  });
});

describe('update() that changes the key', () => {
  it('refuses a key another row holds, and leaves the table as it was', () => {
    const mock = createMockApi({ seed: 3 });
    const members = mock.store.main.members;
    const [first, second] = members.all();
    const size = members.size;
    expect(() => members.update(first!.id, { id: second!.id })).toThrow(
      new InvalidRowError(`main.members.update: id ${JSON.stringify(second!.id)} is already taken`),
    );
    expect(members.size).toBe(size);
    expect(members.get(first!.id)).toBe(first);
    expect(members.get(second!.id)).toBe(second);
  });

  it('still moves a row to a free key', () => {
    const members = createMockApi({ seed: 3 }).store.main.members;
    const [first] = members.all();
    members.update(first!.id, { id: 'moved' });
    expect(members.get('moved')).toMatchObject({ serverId: first!.serverId });
    expect(members.get(first!.id)).toBeUndefined();
  });
});

describe('create, insert and update given something other than an object of fields', () => {
  it.each([
    ['a string', 'abc', 'got string'],
    ['null', null, 'got null'],
    ['an array', [1, 2], 'got array'],
    ['a number', 7, 'got number'],
  ])('%s is refused with InvalidRowError naming the operation, and the table is unchanged', (_, value, got) => {
    const mock = createMockApi({ seed: 3 });
    const members = mock.store.main.members;
    const before = members.size;
    const [first] = members.all();
    expect(() => members.create(value as never)).toThrow(
      new InvalidRowError(`main.members.create: the partial row must be an object of fields, ${got}`),
    );
    expect(() => members.insert(value as never)).toThrow(
      new InvalidRowError(`main.members.insert: a row must be an object of fields, ${got}`),
    );
    expect(() => members.update(first!.id, value as never)).toThrow(
      new InvalidRowError(`main.members.update: the patch must be an object of fields, ${got}`),
    );
    expect(members.size).toBe(before);
    expect(members.get(first!.id)).toEqual(first);
  });
});

describe('issue 23 #13: a token’s secret is unique in the store', () => {
  /** `fn`'s refusal: an InvalidRowError whose message names the token that holds the secret, never the secret. */
  const refusal = (fn: () => unknown, secret: string) => {
    let error: unknown;
    try {
      fn();
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(InvalidRowError);
    expect((error as Error).message).not.toContain(secret);
    return (error as Error).message;
  };

  it('create, insert and update refuse another token’s secret, naming the token, never the secret', () => {
    const { mock } = setup();
    const { tokens } = mock.store;
    const secret = mock.tokens.readOnly;
    const holder = tokens.where('secret', secret)[0]!;
    const size = tokens.size;
    const says = `secret: the row whose id is ${JSON.stringify(holder.id)} holds this value (not shown); it is unique`;
    expect(refusal(() => tokens.create({ secret }), secret)).toBe(`tokens.create: ${says}`);
    const [, other] = tokens.all().filter((token) => token.id !== holder.id);
    expect(refusal(() => tokens.insert({ ...other!, secret }), secret)).toBe(`tokens.insert: ${says}`);
    expect(refusal(() => tokens.update(other!.id, { secret }), secret)).toBe(`tokens.update: ${says}`);
    expect(tokens.size).toBe(size);
    expect(tokens.where('secret', secret)).toEqual([holder]);
    // A token keeps its own secret: replacing or updating it is no clash.
    expect(tokens.update(holder.id, { name: 'renamed', secret })!.secret).toBe(secret);
    expect(tokens.insert({ ...holder, name: 'again' }).secret).toBe(secret);
  });

  it('POST /__mock/store/tokens with another token’s secret is a 400 that shows no secret', async () => {
    const { mock } = setup();
    const http = await startMockHttpServer({ mock });
    try {
      const answer = await postToken(http, { secret: mock.tokens.main, name: 'impostor' });
      const text = await answer.text();
      expect(answer.status).toBe(400);
      expect(JSON.parse(text).error.code).toBe('invalid_row');
      expect(text).not.toContain(mock.tokens.main);
      // The main token still names one token, and answers as itself.
      expect(mock.store.tokens.where('secret', mock.tokens.main)).toHaveLength(1);
      expect((await mockClient(mock).tokens.current()).name).toBe('main');
    } finally {
      await http.close();
    }
  });

  it('a reserved secret (the control API’s admin token) is refused as well, across reset()', () => {
    const { mock } = setup();
    const reserve = (mock as unknown as Record<symbol, { engine: { reserveSecret(secret: string): void } }>)[
      Symbol.for('community-server-sdk/mock.engine')
    ]!.engine;
    const admin = 'the-control-api-admin-token';
    reserve.reserveSecret(admin);
    expect(refusal(() => mock.store.tokens.create({ secret: admin }), admin)).toBe(
      'tokens.create: secret: this value is reserved (not shown)',
    );
    mock.reset();
    expect(refusal(() => mock.store.tokens.create({ secret: admin }), admin)).toBe(
      'tokens.create: secret: this value is reserved (not shown)',
    );
    expect(mock.store.tokens.create({ secret: 'another-secret' }).secret).toBe('another-secret');
  });
});

describe('issue 23 hardening 2: a token’s secret is one a client can present', () => {
  // What the SDK takes as a token (visible ASCII, 8 characters at least) and a header carries.
  it.each([
    ['empty', ''],
    ['blank', '        '],
    ['shorter than any token', 'e'],
    ['holding a space', 'two words here'],
    ['not ASCII', 'jeton-é-secret'],
    ['holding a line break', 'line\nbreak-secret'],
    ['longer than a header carries', 'x'.repeat(4097)],
  ])('a secret %s is refused by create, insert and update, and the value is not shown', (_, secret) => {
    const { mock } = setup();
    const { tokens } = mock.store;
    const [first] = tokens.all();
    const size = tokens.size;
    for (const write of [
      () => tokens.create({ secret }),
      () => tokens.insert({ ...first!, id: 'new-token', secret }),
      () => tokens.update(first!.id, { secret }),
    ]) {
      expect(write).toThrow(InvalidRowError);
      expect(write).toThrow('secret: a token is 8 to 4096 visible ASCII characters (not shown)');
      if (secret.length >= 8) expect(write).not.toThrow(secret);
    }
    expect(tokens.size).toBe(size);
    expect(tokens.get(first!.id)).toEqual(first);
  });

  it('a token of 8 and of 4096 characters is kept, and answers as itself', async () => {
    const { mock } = setup();
    for (const secret of ['8-chars!', 'y'.repeat(4096)]) {
      const token = mock.store.tokens.create({ secret, name: `${secret.length} characters` });
      expect((await mockClient(mock, { token: token.secret }).tokens.current()).name).toBe(`${secret.length} characters`);
    }
  });

  it('over HTTP, a huge secret refused: no request afterwards answers 500 or shows a token', async () => {
    const { mock } = setup();
    const http = await startMockHttpServer({ mock });
    try {
      const created = await postToken(http, { secret: 'x'.repeat(300_000) });
      expect(created.status).toBe(400);
      const info = await fetch(`${http.url}/api/v1/server/info`);
      const text = await info.text();
      expect(info.status).toBe(401);
      for (const secret of Object.values(mock.tokens)) expect(text).not.toContain(secret);
    } finally {
      await http.close();
    }
  });
});
