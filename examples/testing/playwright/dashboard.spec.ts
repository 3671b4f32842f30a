/**
 * The dashboard against this worker's mock session: each test resets the session, shapes it
 * (rows, faults, the clock, activity), opens the page and reads what it shows and what it sent.
 * The four workers do this at once, on one server; the `dashboard` fixture checks after every
 * test that the session's journal holds this page's requests and nothing else.
 */
import type { Log } from 'community-server-sdk';
import type { RemoteMock } from 'community-server-sdk/mock/remote';
import { formatTime } from '../../dashboard/format';
import { expect, test } from './fixtures';

/** The dashboard's page size for members and the moderation log. */
const PER_PAGE = 20;
const DAY_MS = 86_400_000;

/** Steps the mock's activity until it makes a moderation log, and returns that log. */
async function nextLog(mock: RemoteMock): Promise<Log> {
  for (;;) for (const event of await mock.activity.step()) if (event.kind === 'logs') return event.row;
}

test.beforeEach(({ session }) => session.mock.reset()); // this worker's session as seeded; the others' go on untouched

test('rows added to this worker’s session are on its page, and no other worker’s', async ({ session, dashboard }, testInfo) => {
  const name = `worker ${testInfo.parallelIndex}`;
  const createdAt = Math.floor((await session.mock.clock.advance(0)) / 1000); // the mock's now: newer than every seeded row
  const member = await session.mock.store('main.members').create({ username: name, createdAt });
  const log = await session.mock.store('main.logs').create({ username: name, text: 'added by the test', createdAt });
  const page = await dashboard.open();

  const members = page.locator('#members tbody tr');
  await expect(members).toHaveCount(PER_PAGE);
  await expect(members.first()).toHaveAttribute('data-id', member.id);
  await expect(members.filter({ hasText: /^worker \d/ })).toHaveText([new RegExp(`^${name}`)]);
  await expect(page.locator('#logs li').first()).toHaveAttribute('data-id', log.id);
  await expect(page.locator('#logs li').filter({ hasText: /worker \d/ })).toHaveCount(1);
});

test('reset() undoes the rows and faults a test left behind', async ({ session, dashboard }) => {
  const log = await session.mock.store('main.logs').create({ username: 'left behind' });
  await session.mock.faults.add({ endpoint: 'members.list', status: 503 });
  await session.mock.reset();
  const page = await dashboard.open();

  await expect(page.locator('#members tbody tr')).toHaveCount(PER_PAGE);
  await expect(page.locator('#logs li')).toHaveCount(PER_PAGE);
  await expect(page.locator(`#logs li[data-id="${log.id}"]`)).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a members.list outage shows its error, and Retry recovers', async ({ session, dashboard }) => {
  // Three 503s: the page's request and the client's two retries.
  await session.mock.faults.add({ endpoint: 'members.list', status: 503, times: 3 });
  const page = await dashboard.open();

  const alert = page.locator('#members [role="alert"]');
  await expect(alert).toContainText('Could not load members. ServiceUnavailableError (503 service_unavailable)');
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator('#members tbody tr')).toHaveCount(PER_PAGE);
  await expect(alert).toHaveCount(0);
  const sent = await session.mock.requests({ endpoint: 'members.list' });
  expect(sent.map((request) => request.status)).toEqual([503, 503, 503, 200]);
});

test('a day later on the mock’s clock, a log made by its activity appears live, stamped that day', async ({ session, dashboard }) => {
  const page = await dashboard.open({ intervalMs: 500 });
  await expect(page.locator('#logs li')).toHaveCount(PER_PAGE);

  const now = await session.mock.clock.advance(DAY_MS);
  const made = await nextLog(session.mock);
  expect(now - Date.now()).toBeGreaterThan(DAY_MS - 60_000);
  expect(Math.abs(made.createdAt * 1000 - now)).toBeLessThan(60_000); // made at the mock's now, not the real one

  const top = page.locator('#logs li').first();
  await expect(top).toHaveAttribute('data-id', made.id);
  await expect(top).toHaveClass('new');
  await expect(top.locator('time')).toHaveText(formatTime(made.createdAt));
  await expect(page.locator('#logs li')).toHaveCount(PER_PAGE + 1);
});

test('a token created in the page is the one tokens.create in this worker’s journal', async ({ session, dashboard }, testInfo) => {
  const name = `bot of worker ${testInfo.parallelIndex}`;
  const page = await dashboard.open();
  const tokens = page.locator('#tokens');
  await tokens.getByLabel('Name').fill(name);
  await tokens.getByRole('button', { name: 'Create token' }).click();
  await expect(tokens.getByRole('status')).toContainText(`Token “${name}” created.`);
  await expect(tokens.locator('tbody tr', { hasText: name })).toHaveCount(1);

  const created = await session.mock.requests({ endpoint: 'tokens.create' });
  expect(created).toEqual([expect.objectContaining({ method: 'POST', token: 'main', status: 201, body: { name, expiresInDays: 30 } })]);
});

test('scrolling the members list to its end loads page 2, and only page 2', async ({ session, dashboard }) => {
  const page = await dashboard.open();
  const members = page.locator('#members tbody tr');
  await expect(members).toHaveCount(PER_PAGE);
  await page.locator('#members .scroll').evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
  await expect(members).toHaveCount(2 * PER_PAGE);

  const pages = await session.mock.requests({ endpoint: 'members.list' });
  expect(pages.map((request) => request.query.page ?? '1')).toEqual(['1', '2']);
});
