/**
 * The same bot, tested under jest: only the test functions' import differs from the vitest file.
 */
import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import { CommunityServerClient } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { setupMockServer } from 'community-server-sdk/mock/node';
import { http, HttpResponse } from 'msw';
import { memberCard } from './member-card';

const mock = createMockApi({ seed: 1 });
const server = setupMockServer(mock);
const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://community.test', maxRetries: 0 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

const verified = () => mock.store.main.links.all().find((link) => link.gameId !== null)!;

it('describes a verified member', async () => {
  const link = verified();
  expect(await memberCard(client, link.chatId)).toContain(`game account ${link.gameId}`);
});

it('copes with the game lookup failing (a server.use override)', async () => {
  server.use(
    http.get('*/api/v1/verification/chat/:chatId/game', () =>
      HttpResponse.json({ error: { code: 'upstream_down', message: 'game platform unreachable' } }, { status: 503 }),
    ),
  );
  expect(await memberCard(client, verified().chatId)).toContain('game account lookup unavailable, try again later');
});
