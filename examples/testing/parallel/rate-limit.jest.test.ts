import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { RateLimitError, ServiceUnavailableError } from 'community-server-sdk';
import { mockSessionPerFile } from './mock-session';

// The client's own rate limiting off: this file's session is what refuses.
const mock = mockSessionPerFile({ beforeAll, beforeEach, afterAll }, { rateLimit: 'off' });

it('holds its own rate limit, whose window its own clock ends', async () => {
  const { session, client } = mock;
  await session.mock.setRateLimit({ limit: 2, windowMs: 60_000 }); // this session's alone
  await client.roles.list();
  await client.roles.list();
  await expect(client.roles.list()).rejects.toBeInstanceOf(RateLimitError);
  await session.mock.clock.advance(60_000); // the window is over, without waiting for it
  await session.mock.faults.add({ endpoint: 'roles.list', status: 503, times: 1 });
  await expect(client.roles.list()).rejects.toBeInstanceOf(ServiceUnavailableError);
  await client.roles.list();
  const sent = await session.mock.requests();
  expect(sent.map((request) => [request.endpoint, request.status])).toEqual([
    ['roles.list', 200],
    ['roles.list', 200],
    ['roles.list', 429],
    ['roles.list', 503],
    ['roles.list', 200],
  ]);
});
