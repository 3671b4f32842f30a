/**
 * Testing a bot's error handling with the mock's faults: `mock.faults.add(rule)` makes the next
 * requests of an endpoint fail with a status, fail the connection, or come late, on whatever
 * door the bot uses (here msw/node intercepting the client's `fetch`), with no handler to write.
 */
import { CommunityServerClient, ConnectionError, TimeoutError } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { setupMockServer } from 'community-server-sdk/mock/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { memberCard } from './member-card';

const mock = createMockApi({ seed: 1 });
const server = setupMockServer(mock);
const clientWith = (options: { maxRetries?: number; timeout?: number } = {}) =>
  new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://community.test', maxRetries: 0, ...options });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset()); // clears the faults too
afterAll(() => server.close());

const verified = () => mock.store.main.links.all().find((link) => link.gameId !== null)!;

it('says the game lookup is unavailable when the service answers 503', async () => {
  mock.faults.add({ endpoint: 'verification.gameByChatId', status: 503, times: 1 });
  expect(await memberCard(clientWith(), verified().chatId)).toContain('game account lookup unavailable, try again later');
});

it('rides out one failed attempt when the client retries', async () => {
  mock.faults.add({ endpoint: 'members.getByChatId', status: 503, times: 1 });
  const card = await memberCard(clientWith({ maxRetries: 2 }), verified().chatId);
  expect(card).toContain(`Member ${verified().memberId}`);
  // The journal shows the failed attempt, then the retry that was answered.
  expect(mock.requests.filter((r) => r.endpoint === 'members.getByChatId').map((r) => r.status)).toEqual([503, 200]);
});

it('lets a dropped connection through to the caller', async () => {
  mock.faults.add({ endpoint: 'members.getByChatId', network: true });
  await expect(memberCard(clientWith(), verified().chatId)).rejects.toBeInstanceOf(ConnectionError);
});

it('gives up on a slow service at the client’s timeout', async () => {
  mock.faults.add({ endpoint: 'members.getByChatId', latencyMs: 2_000, times: 1 });
  await expect(memberCard(clientWith({ timeout: 100 }), verified().chatId)).rejects.toBeInstanceOf(TimeoutError);
});
