/**
 * Issue 12's toolkit tried as a careless test and a hostile request would: the defects found in
 * review, each through the public entry points.
 */
import { createMockApi, InvalidRowError } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';

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

describe('the journal and a wrong token', () => {
  it('keeps the path and query of a request with a short unknown token as they were sent', async () => {
    const mock = createMockApi({ seed: 3 });
    await mock.fetch(new Request('https://mock.test/api/v1/server/members?orderBy=createdAt', { headers: { authorization: 'Bearer a' } }));
    expect(mock.requests.at(-1)).toMatchObject({
      path: '/api/v1/server/members',
      query: { orderBy: 'createdAt' },
      token: 'unknown',
      status: 401,
    });
  });

  it('still hides the wrong token where it stands alone, and a seeded secret wherever it is, in one pass', async () => {
    const mock = createMockApi({ seed: 3 });
    const wrong = 'not-a-real-token-0123456789';
    await mock.fetch(
      new Request(`https://mock.test/api/v1/server/members?t=${wrong}&s=x${mock.tokens.readOnly}x`, {
        headers: { authorization: `Bearer ${wrong}` },
      }),
    );
    const row = mock.requests.at(-1)!;
    expect(row.query).toEqual({ t: '[redacted]', s: 'x[redacted]x' });
    expect(JSON.stringify(row)).not.toContain(wrong);
  });
});
