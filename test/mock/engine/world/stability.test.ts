/**
 * "Same seed, same data", pinned (issue 19): the whole store of `createMockApi({ seed: 1 })`
 * hashes to one value, and a few of its ids and tokens are exact. A change that reshuffles users'
 * seeded ids (a new field drawn from an old stream, a stream renumbered) fails here; a change
 * that must change seeded data updates the pins and says why in the CHANGELOG.
 */
import { createHash } from 'node:crypto';
import { Collection, createMockApi, type Store } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';

/** `value` as JSON with every object's keys sorted: the same data gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${fields.map(([key, field]) => `${JSON.stringify(key)}:${canonical(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What the store holds, as plain data: each table's rows in its default order, departments by id. */
function contents(value: unknown): unknown {
  if (value instanceof Collection) return value.all();
  if (value instanceof Map) return Object.fromEntries([...value].map(([key, inner]) => [String(key), contents(inner)]));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, contents(inner)]));
}

const digest = (store: Store) =>
  createHash('sha256')
    .update(canonical(contents(store)))
    .digest('hex');

describe('seed 1 gives the same data, byte for byte', () => {
  it('the whole store hashes to the pinned value', () => {
    expect(digest(createMockApi({ seed: 1 }).store)).toBe('2aeaeeb0a9ab3fcf885dc233a6d62f3a2acfb0bba5895cd0cb8259e0abc44cc0');
  });

  it('exact ids and tokens', () => {
    const mock = createMockApi({ seed: 1 });
    const { main, noCad } = mock.store;
    expect({
      main: main.info.id,
      noCad: noCad.info.id,
      firstMember: main.members.all()[0]!.id,
      firstLog: main.logs.all()[0]!.id,
      firstCall: main.cad!.calls.all()[0]!.id,
      firstDepartment: main.departments.all()[0]!.id,
      tokens: mock.tokens,
    }).toEqual({
      main: 'ebc9db27-c64c-43f5-8629-90632de18ad5',
      noCad: '085eb948-ff2a-4f15-bd84-c172cd02afba',
      firstMember: '6609b659-cf3f-4025-bfdf-5925dd8652d8',
      firstLog: 'c235c020-9b09-47d9-9db1-a62b07e9a827',
      firstCall: '95e73ba5-248b-4927-aab9-dd1a2b8829a7',
      firstDepartment: 'b4ddb2d5-23d5-48f2-bbb0-0d811e499d84',
      // The mock's own seeded strings, not anyone's secret.
      tokens: {
        main: 'cst_aFpDDniDQ5WUe30Y8ije7kbwx1cVHRhn16Nb2abI',
        noCad: 'cst_6yPaqeiS8S05nb7y8j4eUZ6F35fYWi7AOiHovS6D',
        readOnly: 'cst_by68Qmodp7jegneUIFz9YzFefqVSRVhtjObP6YKv',
        expired: 'cst_GSuwOkFmzNGpvdUyvHm97IAHrySwcbjnfxyeUv2o',
        revoked: 'cst_6a2CnkFQrsfozpuz9OJPQ9FAZXYtFmohQW4JGAht',
      },
    });
  });

  it('factories and the activity draw the same rows from their own streams', () => {
    const mock = createMockApi({ seed: 1, now: () => 1_767_225_600_000 });
    const created = mock.store.main.logs.create();
    const events = mock.activity.step(3).map(({ kind, row }) => [kind, (row as { id?: string }).id]);
    expect({ created: created.id, events }).toEqual({
      created: '54c33a61-393e-4106-b9ef-8ab802e403f6',
      events: [
        ['departmentAuditLogs', 'c06d8139-22cb-49ee-aa8f-6ee00736258a'],
        ['cadCalls', 'e3f90171-ff4b-404d-af6b-471c6b0b7e7f'],
        ['departmentAuditLogs', '02e07cf4-d444-4e66-8bcd-5f7694df0b10'],
      ],
    });
  });

  it('a store rebuilt by reset() hashes the same; another seed does not', () => {
    const mock = createMockApi({ seed: 1 });
    const before = digest(mock.store);
    mock.store.main.members.create();
    mock.reset();
    expect(digest(mock.store)).toBe(before);
    expect(digest(createMockApi({ seed: 2 }).store)).not.toBe(before);
  });
});
