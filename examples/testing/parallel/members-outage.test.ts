// members-outage.test.ts
import { ServiceUnavailableError } from 'community-server-sdk';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { mockSessionPerFile } from './mock-session';

const mock = mockSessionPerFile({ beforeAll, beforeEach, afterAll });

it('sees its own outage, an hour on, and only its own requests', async () => {
  const { session, client } = mock;
  const now = await session.mock.clock.advance(3_600_000); // this file's clock alone
  await session.mock.faults.add({ endpoint: 'members.list', status: 503, times: 1 }); // while other files list members
  await expect(client.members.list()).rejects.toBeInstanceOf(ServiceUnavailableError);
  expect((await client.members.list()).total).toBeGreaterThan(0);
  const sent = await session.mock.requests();
  expect(sent.map((request) => [request.endpoint, request.status])).toEqual([
    ['members.list', 503],
    ['members.list', 200],
  ]);
  expect(sent.every((request) => request.at >= now)).toBe(true);
});

it('starts again from the seeded world, the real hour and no fault after reset', async () => {
  const { session, client } = mock;
  expect(Math.abs((await session.mock.clock.advance(0)) - Date.now())).toBeLessThan(60_000);
  expect((await client.members.list()).total).toBeGreaterThan(0);
  expect(await session.mock.requests()).toEqual([expect.objectContaining({ endpoint: 'members.list', status: 200 })]);
});
