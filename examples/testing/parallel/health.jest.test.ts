import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { InternalServerError, ServiceUnavailableError } from 'community-server-sdk';
import { mockSessionPerFile } from './mock-session';

const mock = mockSessionPerFile({ beforeAll, beforeEach, afterAll });

it('reports its own database down, and its own roles.list failing, a day on', async () => {
  const { session, client } = mock;
  const now = await session.mock.clock.advance(86_400_000);
  await session.mock.setHealth({ database: false }); // the other files' health stays up
  await session.mock.faults.add({ endpoint: 'roles.list', status: 500, times: 1 });
  await expect(client.health.check()).rejects.toBeInstanceOf(ServiceUnavailableError);
  await expect(client.roles.list()).rejects.toBeInstanceOf(InternalServerError);
  expect((await fetch(`${process.env.MOCK_URL}/health`)).status).toBe(200); // the server's own mock: up
  const sent = await session.mock.requests();
  expect(sent.map((request) => [request.endpoint, request.status])).toEqual([
    ['health.check', 503],
    ['roles.list', 500],
  ]);
  expect(sent.every((request) => request.at >= now)).toBe(true);
});
