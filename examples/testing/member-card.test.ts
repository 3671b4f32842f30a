/**
 * Testing a bot with the mock under vitest: msw/node intercepts the client's `fetch`, the
 * seeded store says what the answers should be, and `server.use` overrides one request for one
 * test to exercise an error path.
 */
import { AuthenticationError, CommunityServerClient } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { setupMockServer } from 'community-server-sdk/mock/node';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { memberCard } from './member-card';

const mock = createMockApi({ seed: 1 });
const server = setupMockServer(mock);
// Any origin: the mock's handlers answer on all of them. No retries: a test should fail fast.
const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://community.test', maxRetries: 0 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers(); // drop this test's overrides
  mock.reset(); // and its changes to the data
});
afterAll(() => server.close());

const verified = () => mock.store.main.links.all().find((link) => link.gameId !== null)!;

it('describes a verified member', async () => {
  const link = verified();
  const card = await memberCard(client, link.chatId);
  expect(card).toContain(`Member ${link.memberId}, joined `);
  expect(card).toContain(`game account ${link.gameId}`);
});

it('says so when nobody has linked the chat account', async () => {
  expect(await memberCard(client, 'no-such-chat-id')).toBe('No member is linked to chat account no-such-chat-id.');
});

it('reads a change made to the store', async () => {
  const link = verified();
  mock.store.main.links.update(link.memberId, { gameId: null });
  expect(await memberCard(client, link.chatId)).toContain('no game account verified');
});

it('copes with the game lookup failing (a server.use override)', async () => {
  server.use(
    http.get('*/api/v1/verification/chat/:chatId/game', () =>
      HttpResponse.json({ error: { code: 'upstream_down', message: 'game platform unreachable' } }, { status: 503 }),
    ),
  );
  expect(await memberCard(client, verified().chatId)).toContain('game account lookup unavailable, try again later');
});

it('lets an authentication failure through to the caller', async () => {
  const revoked = new CommunityServerClient({ token: mock.tokens.revoked, baseUrl: 'https://community.test', maxRetries: 0 });
  await expect(memberCard(revoked, verified().chatId)).rejects.toBeInstanceOf(AuthenticationError);
});

it('asks for the member first, then the game account and the leave: what mock.requests saw', async () => {
  await memberCard(client, verified().chatId);
  const [first, ...rest] = mock.requests;
  expect(first).toMatchObject({ method: 'GET', endpoint: 'members.getByChatId', token: 'main', status: 200 });
  // The last two run in parallel: their order is not the bot's promise.
  expect(rest.map((request) => request.endpoint).sort()).toEqual(['loas.byMember', 'verification.gameByChatId']);
  expect(rest.find((request) => request.endpoint === 'loas.byMember')!.query).toMatchObject({ pageSize: '100' });
});
