/**
 * Issue 19: `createMockApi({ world })` refuses a snapshot the store could not hold as given — two
 * rows under one key (one would silently vanish), nesting deeper than a bound (a RangeError
 * before), a value that is not JSON, a time in milliseconds — naming the path.
 */
import { InvalidArgumentError } from 'community-server-sdk';
import { createMockApi, snapshotWorld, type WorldSnapshot } from 'community-server-sdk/mock';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockClient } from '../../../helpers';

let snapshot: WorldSnapshot;
beforeAll(async () => {
  const original = createMockApi({ seed: 3, counts: { members: 12, logs: 5, calls: 3, departments: 2 } });
  snapshot = await snapshotWorld(mockClient(original), { progress: false });
});

/** A copy of the snapshot to spoil. */
const copy = (): WorldSnapshot => structuredClone(snapshot);

describe('a world snapshot with two rows under one key is refused, naming both', () => {
  it('members', () => {
    const world = copy();
    world.members.push({ ...world.members[2]!, username: 'twin' });
    const last = world.members.length - 1;
    expect(() => createMockApi({ world })).toThrow(new InvalidArgumentError(`world.members[${last}].id: duplicate of world.members[2]`));
  });

  it('inside a department, in CAD, among departments, and join requests by their user', () => {
    const ranks = copy();
    ranks.departments[1]!.ranks.push(ranks.departments[1]!.ranks[0]!);
    expect(() => createMockApi({ world: ranks })).toThrow(
      /^world\.departments\[1\]\.ranks\[\d+\]\.id: duplicate of world\.departments\[1\]\.ranks\[0\]$/,
    );
    const calls = copy();
    calls.cad!.calls.push(calls.cad!.calls[1]!);
    expect(() => createMockApi({ world: calls })).toThrow(/^world\.cad\.calls\[3\]\.id: duplicate of world\.cad\.calls\[1\]$/);
    const departments = copy();
    departments.departments.push(departments.departments[0]!);
    expect(() => createMockApi({ world: departments })).toThrow(
      'world.departments[2].department.id: duplicate of world.departments[0].department',
    );
    const requests = copy();
    requests.joinRequests.push(requests.joinRequests[0]!);
    expect(() => createMockApi({ world: requests })).toThrow(/world\.joinRequests\[\d+\]\.userId: duplicate of world\.joinRequests\[0\]/);
  });

  it('the untouched snapshot is served, every row of it', () => {
    const mock = createMockApi({ world: copy() });
    expect(mock.store.main.members.size).toBe(snapshot.members.length);
  });
});

describe('nesting, values and times', () => {
  it('a row nested 100,000 deep is an error naming the path, not a RangeError', () => {
    const world = copy();
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 100_000; i++) deep = deep.next = {};
    (world.logs[0] as Record<string, unknown>).proof = root;
    expect(() => createMockApi({ world })).toThrow(InvalidArgumentError);
    expect(() => createMockApi({ world })).toThrow(/^world\.logs\[0\]\.proof(\.next)+: nested deeper than 64 levels$/);
  });

  it('a value that is not JSON, or a cycle', () => {
    const world = copy();
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    (world.members[1] as Record<string, unknown>).roles = loop;
    expect(() => createMockApi({ world })).toThrow(
      'world.members[1].roles.self: a circular reference (the value contains itself) is not JSON',
    );
  });

  it('a time in milliseconds', () => {
    const world = copy();
    world.logs[1]!.createdAt *= 1000;
    expect(() => createMockApi({ world })).toThrow(/^world\.logs\[1\]\.createdAt: \d+ is a time in Unix seconds, not milliseconds/);
  });
});
