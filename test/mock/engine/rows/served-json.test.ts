/**
 * The JSON the mock answers rows and pages with is made once per row and reused (issue 26: the
 * HTTP mock's throughput), but never stale: a test that changes a row in place (`get(id)!.x = …`)
 * sees the change in the next answer, as it did when every answer was serialised afresh.
 */
import { createMockApi } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';

const get = async (mock: ReturnType<typeof createMockApi>, path: string) => {
  const response = await mock.fetch(path, { headers: { authorization: `Bearer ${mock.tokens.main}` } });
  expect(response.status).toBe(200);
  return response.text();
};

describe('rows and pages answered twice', () => {
  it('are the same bytes as JSON.stringify of the stored rows, before and after a change in place', async () => {
    const mock = createMockApi({ seed: 2 });
    const [member] = mock.store.main.members.all();
    const item = `/api/v1/server/members/${member!.id}`;
    const page = '/api/v1/server/members?pageSize=5';
    expect(await get(mock, item)).toBe(JSON.stringify(member));
    await get(mock, page);
    // In place, at the top level and inside a nested array: no write the store knows of.
    (member as { roles: unknown[] }).roles.push('added in place');
    expect(await get(mock, item)).toBe(JSON.stringify(member));
    expect(JSON.parse(await get(mock, page)).data[0]).toEqual(JSON.parse(JSON.stringify(member)));
    Object.assign(member!, { extra: { deep: [1, 2] } });
    expect(await get(mock, item)).toBe(JSON.stringify(member));
    delete (member as { extra?: unknown }).extra;
    expect(await get(mock, item)).toBe(JSON.stringify(member));
  });

  it('a page asked for again is the same bytes as JSON.stringify of its rows, after a change in place to any of them or a delete', async () => {
    const mock = createMockApi({ seed: 2 });
    const members = mock.store.main.members;
    const page = '/api/v1/server/members?pageSize=5';
    const expected = () =>
      JSON.stringify({
        data: members.all().slice(0, 5),
        page: 1,
        pageSize: 5,
        total: members.size,
        totalPages: Math.ceil(members.size / 5),
      });
    expect(await get(mock, page)).toBe(expected());
    expect(await get(mock, page)).toBe(expected());
    members.all()[3]!.name = 'renamed in place';
    expect(await get(mock, page)).toBe(expected());
    members.delete(members.all()[2]!.id);
    expect(await get(mock, page)).toBe(expected());
  });

  it('a row holding something that is not plain data is serialised as JSON.stringify does, every time', async () => {
    const mock = createMockApi({ seed: 2 });
    const [member] = mock.store.main.members.all();
    const when = new Date(Date.UTC(2026, 0, 1));
    Object.assign(member!, { seen: when });
    const item = `/api/v1/server/members/${member!.id}`;
    expect(await get(mock, item)).toBe(JSON.stringify(member));
    when.setUTCFullYear(2027);
    expect(await get(mock, item)).toContain('"2027-01-01T00:00:00.000Z"');
  });
});
