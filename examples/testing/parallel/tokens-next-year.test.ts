// tokens-next-year.test.ts
import { InternalServerError } from 'community-server-sdk';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { mockSessionPerFile } from './mock-session';

const YEAR_MS = 365 * 86_400_000;
const mock = mockSessionPerFile({ beforeAll, beforeEach, afterAll });

it('creates a token a year from now on its own clock, past its own fault', async () => {
  const { session, client } = mock;
  const now = await session.mock.clock.advance(YEAR_MS); // the other files stay in this year
  await session.mock.faults.add({ endpoint: 'tokens.create', status: 500, times: 1 });
  await expect(client.tokens.create({ name: 'next year', expiresInDays: 30 })).rejects.toBeInstanceOf(InternalServerError);
  const token = await client.tokens.create({ name: 'next year', expiresInDays: 30 });
  expect(token.createdAt! * 1000).toBeGreaterThanOrEqual(now - 1_000);
  expect((await client.members.list()).total).toBeGreaterThan(0); // another file's members.list outage is not here
  const sent = await session.mock.requests();
  expect(sent.map((request) => [request.endpoint, request.status, request.token])).toEqual([
    ['tokens.create', 500, 'main'],
    ['tokens.create', 201, 'main'],
    ['members.list', 200, 'main'],
  ]);
});
