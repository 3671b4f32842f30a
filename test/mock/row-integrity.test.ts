/**
 * Issue 19: a table holds only what the API can serve. A value that is not plain JSON, or a time
 * in milliseconds where the table holds seconds, is an `InvalidRowError` naming the field's path
 * on every write path (create, insert, update), and nothing is written.
 */
import { createMockApi, InvalidRowError, WORLD_END } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { rawAnswer } from '../helpers';

class Badge {
  constructor(readonly label: string) {}
}

/** A value that contains itself. */
const cyclic = () => {
  const roles: unknown[] = ['r1'];
  roles.push(roles);
  return roles;
};

/** Each value JSON cannot carry, and what the refusal says it is. */
const NOT_JSON: [string, () => unknown, RegExp][] = [
  ['a cycle', cyclic, /roles\[1\]: a circular reference/],
  ['a BigInt', () => [1n], /roles\[0\]: a bigint is not JSON/],
  ['a function', () => [() => 1], /roles\[0\]: a function is not JSON/],
  ['a symbol', () => [Symbol('x')], /roles\[0\]: a symbol is not JSON/],
  ['NaN', () => [Number.NaN], /roles\[0\]: NaN \(JSON has finite numbers only\)/],
  ['Infinity', () => ({ score: Number.POSITIVE_INFINITY }), /roles\.score: Infinity/],
  ['undefined in an array', () => ['r1', undefined], /roles\[1\]: undefined is not JSON/],
  ['a Date', () => ({ since: new Date(0) }), /roles\.since: a Date instance is not JSON/],
  ['a Map', () => new Map([['a', 1]]), /roles: a Map instance is not JSON/],
  ['a class instance', () => [new Badge('x')], /roles\[0\]: a Badge instance is not JSON/],
];

describe('values that are not JSON are refused on every write path', () => {
  it.each(NOT_JSON)('%s: create, insert and update refuse it, naming the path; the table is unchanged', (_, value, says) => {
    const mock = createMockApi({ seed: 1 });
    const members = mock.store.main.members;
    const size = members.size;
    const [first] = members.all();
    expect(() => members.create({ roles: value() })).toThrow(InvalidRowError);
    expect(() => members.create({ roles: value() })).toThrow(says);
    expect(() => members.insert({ ...first!, id: 'm-new', roles: value() })).toThrow(says);
    expect(() => members.update(first!.id, { roles: value() })).toThrow(says);
    expect(members.size).toBe(size);
    expect(members.get('m-new')).toBeUndefined();
    expect(members.get(first!.id)).toBe(first);
  });

  it('the message names the table and the operation', () => {
    const mock = createMockApi({ seed: 1 });
    expect(() => mock.store.main.members.create({ roles: cyclic() })).toThrow(
      /^main\.members\.create: roles\[1\]: a circular reference \(the value contains itself\) is not JSON$/,
    );
  });

  it('after a refused cyclic row, every page of the list still answers 200', async () => {
    const mock = createMockApi({ seed: 1 });
    expect(() => mock.store.main.members.create({ roles: cyclic() })).toThrow(InvalidRowError);
    const answer = await rawAnswer(mock, '/api/v1/server/members?pageSize=100');
    expect(answer.status).toBe(200);
    for (let page = 1; page <= answer.json.totalPages; page++) {
      expect((await rawAnswer(mock, `/api/v1/server/members?pageSize=100&page=${page}`)).status).toBe(200);
    }
  });

  it('deep inside a department and a CAD table too; an undefined field is fine (it is absent)', () => {
    const mock = createMockApi({ seed: 1 });
    const [call] = mock.store.main.cad!.calls.all();
    expect(() => mock.store.main.cad!.calls.update(call!.id, { panels: [{ at: { when: new Date() } }] })).toThrow(
      'main.cad.calls.update: panels[0].at.when: a Date instance is not JSON',
    );
    const [log] = mock.store.main.logs.all();
    expect(mock.store.main.logs.update(log!.id, { description: undefined })).toBeDefined();
  });
});

describe('times in milliseconds where the table holds seconds are refused', () => {
  it('create, insert and update, naming the field; seconds are taken', async () => {
    const mock = createMockApi({ seed: 1 });
    const logs = mock.store.main.logs;
    const [log] = logs.all();
    const millis = WORLD_END * 1000;
    const says = `createdAt: ${millis} is a time in Unix seconds, not milliseconds`;
    expect(() => logs.create({ createdAt: millis })).toThrow(says);
    expect(() => logs.insert({ ...log!, id: 'log-new', createdAt: millis })).toThrow(says);
    expect(() => logs.update(log!.id, { createdAt: millis })).toThrow(`main.logs.update: ${says}`);
    expect(logs.get(log!.id)).toBe(log);
    expect(logs.update(log!.id, { createdAt: WORLD_END })!.createdAt).toBe(WORLD_END);
    expect((await rawAnswer(mock, '/api/v1/server/logs')).json.data[0].createdAt).toBe(WORLD_END);
  });

  it('every kind of time field: an LOA’s endAt, an audit event’s timestamp, a department member’s inactiveSince', () => {
    const mock = createMockApi({ seed: 1 });
    const main = mock.store.main;
    const now = 1_767_225_600_123;
    const [loa] = main.loas.all();
    expect(() => main.loas.update(loa!.id, { endAt: now })).toThrow(/endAt: .* not milliseconds/);
    const [event] = main.auditLogs.all();
    expect(() => main.auditLogs.update(event!.id, { timestamp: now })).toThrow(/timestamp: .* not milliseconds/);
    const department = main.departmentData.values().next().value!;
    const [member] = department.members.all();
    expect(() => department.members.update(member!.id, { inactiveSince: now })).toThrow(/inactiveSince: .* not milliseconds/);
    const [token] = mock.store.tokens.all();
    expect(() => mock.store.tokens.update(token!.id, { expiresAt: now })).toThrow(/tokens\.update: expiresAt: .* not milliseconds/);
  });
});
