/**
 * The React dashboard (examples/dashboard) as a person uses it: built with esbuild from the
 * sources (React's development build, whose warnings fail the test), served over HTTP on
 * loopback, opened in headless Chromium. Two page loads, one a mode:
 * - the offline mock in the tab (msw's service worker), driven through `window.mock`: every panel
 *   renders what the API serves, scrolling loads page 2, a log made by `mock.activity.step()`
 *   appears live, a token is created and deactivated, a 503 shows its error and Retry recovers;
 * - a server given its URL and token (`startMockHttpServer`, driven in-process): the panels
 *   render from it, a new log appears live, a fault and its retry.
 * Any page error, console error or failed request not expected fails the test. A screenshot
 * goes to test-output/dashboard.png (docs/dashboard.png is a copy of one). Its production bundle
 * is built on `/core` (no client class in it).
 *
 * Needs Debian's Chromium at /usr/bin/chromium. CI installs it (.ci/run), so there its absence
 * is a failure; elsewhere the suite is skipped, saying why.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Log } from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard } from '../../examples/dashboard/build';
import { SCAN_LIMIT } from '../../examples/dashboard/duty';
import { isCurrentLoa, isOpenCall } from '../../examples/dashboard/filters';
import { LOGS_PER_PAGE } from '../../examples/dashboard/logs';
import { MEMBERS_PER_PAGE } from '../../examples/dashboard/members';
import { serveStatic, type StaticServer } from '../../examples/dashboard/server';
import { CHROMIUM, chromiumMissing, launchChromium } from './chromium';
import { mockClient } from '../helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outputDir = `${root}test-output`;
const SCREENSHOT = `${outputDir}/dashboard.png`;
/** The live log's poll interval in the test: short, so "live" is seen quickly. */
const INTERVAL_MS = 1_000;

/** What the API serves for seed 1, read through the SDK: what each panel must show. */
async function expectedOf(mock: MockApi) {
  const client = mockClient(mock);
  const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);
  const calls = await client.cad.calls.list({ pageSize: 100 }).toArray({ limit: SCAN_LIMIT });
  const loas = await client.loas.list({ pageSize: 100 }).toArray({ limit: SCAN_LIMIT });
  const members = await client.members.list({ pageSize: MEMBERS_PER_PAGE * 2 });
  return {
    members: ids(members.data),
    memberTotal: members.total,
    usernames: members.data.map((member) => member.username as string),
    logs: ids((await client.logs.list({ pageSize: LOGS_PER_PAGE })).data),
    calls: ids(calls.filter(isOpenCall)),
    callTotal: calls.length,
    loas: ids(loas.filter(isCurrentLoa)),
    loaTotal: loas.length,
    tokens: (await client.tokens.list()) as { name: string }[],
  };
}

describe('the production bundle (issue 31)', () => {
  it(
    'is built on /core: queries(core, tree) over the functions the panels call, and no CommunityServerClient',
    { timeout: 60_000 },
    async () => {
      const code = readFileSync(join(await buildDashboard(`${outputDir}/dashboard-production`), 'main.js'), 'utf8');
      // The class's internal method, which only a bundle holding the client defines.
      expect(code).not.toMatch(/"~introspect"\(\)\s*\{/);
      // What each /core function carries for queries(core, tree): the functions are in.
      expect(code).toContain('"~endpoint"');
    },
  );
});

const missing = chromiumMissing();

if (missing && process.env.CI) {
  it(`runs in ${CHROMIUM}`, () => expect.fail(`${CHROMIUM} is missing; CI must install it (.ci/run: apt-get install chromium)`));
} else if (missing) {
  it('the React dashboard in headless Chromium', (context) => {
    context.skip(missing);
  });
} else {
  describe('the React dashboard in headless Chromium', { timeout: 60_000 }, () => {
    let browser: Browser;
    let server: StaticServer;
    const contexts: BrowserContext[] = [];

    beforeAll(async () => {
      mkdirSync(outputDir, { recursive: true });
      server = await serveStatic(await buildDashboard(`${outputDir}/dashboard`, { development: true }));
      browser = await launchChromium();
    }, 90_000);

    afterAll(async () => {
      for (const context of contexts) await context.close();
      await browser?.close();
      await server?.close();
    });

    /**
     * Opens the dashboard in a fresh browser context (its own service worker) and collects every
     * page error, console error and failed request, for the tests to assert there were none but
     * those they caused.
     */
    async function open(query: string) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
      });
      page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
      await page.goto(`${server.url}${query}`);
      // Loaded once: a reload would lose this mark.
      await page.evaluate(() => Object.assign(window, { loadedOnce: true }));
      return { page, problems };
    }

    /** Problems other than the browser's own line for a status the test provoked. */
    const unexpected = (problems: string[], status?: number) =>
      problems.filter((problem) => status === undefined || !problem.includes(`the server responded with a status of ${status}`));

    /** The ids of the rows a panel shows, in order, once it shows `count` of them. */
    async function rowIds(page: Page, panel: string, count: number) {
      const rows = page.locator(`#${panel} [data-id]`);
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(count);
      return rows.evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset.id));
    }

    const summary = (page: Page, panel: string) => page.locator(`#${panel} .summary`).innerText();
    const alert = (page: Page, panel: string) => page.locator(`#${panel} [role="alert"]`);

    /** A moderation log made by the activity of the mock in the page: its id. */
    const stepLogInPage = (page: Page) =>
      page.evaluate(() => {
        for (;;) for (const event of window.mock!.activity.step()) if (event.kind === 'logs') return event.row.id;
      });

    describe('against the offline mock in the tab', () => {
      let page: Page;
      let problems: string[];
      let expected: Awaited<ReturnType<typeof expectedOf>>;

      beforeAll(async () => {
        expected = await expectedOf(createMockApi({ seed: 1 }));
        ({ page, problems } = await open(`?interval=${INTERVAL_MS}`));
      }, 60_000);

      it('renders each panel from the mock, as the API serves it', async () => {
        expect(await rowIds(page, 'members', MEMBERS_PER_PAGE)).toEqual(expected.members.slice(0, MEMBERS_PER_PAGE));
        const names = await page.locator('#members tbody tr td:first-child').allInnerTexts();
        expect(names).toEqual(expected.usernames.slice(0, MEMBERS_PER_PAGE));
        expect(await summary(page, 'members')).toBe(`${MEMBERS_PER_PAGE} of ${expected.memberTotal} members loaded`);

        expect(await rowIds(page, 'logs', LOGS_PER_PAGE)).toEqual(expected.logs);
        // The filters must sort the world's rows, or the panels prove nothing.
        expect(expected.calls.length).toBeGreaterThan(3);
        expect(expected.calls.length).toBeLessThan(expected.callTotal);
        expect(await rowIds(page, 'calls', expected.calls.length)).toEqual(expected.calls);
        expect(await summary(page, 'calls')).toBe(`${expected.calls.length} open of ${expected.callTotal} calls`);
        expect(await rowIds(page, 'loas', expected.loas.length)).toEqual(expected.loas);
        expect(await summary(page, 'loas')).toBe(`${expected.loas.length} current of ${expected.loaTotal} LOAs`);
        // Each LOA names its member, fetched once per member.
        await expect.poll(() => page.locator('#loas tbody').innerText()).not.toContain('…');

        const tokens = page.locator('#tokens tbody tr td:first-child');
        await expect.poll(() => tokens.count()).toBe(expected.tokens.length);
        expect((await tokens.allInnerTexts()).toSorted()).toEqual(expected.tokens.map((token) => token.name).toSorted());
        expect(await page.locator('#status').innerText()).toBe('Offline mock in this tab: seed 1, token "main"');
        expect(unexpected(problems)).toEqual([]);
      });

      it('scrolling to the end of the members list loads page 2, and only page 2', async () => {
        await page.locator('#members .scroll').evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
        expect(await rowIds(page, 'members', 2 * MEMBERS_PER_PAGE)).toEqual(expected.members);
        expect(await summary(page, 'members')).toBe(`${2 * MEMBERS_PER_PAGE} of ${expected.memberTotal} members loaded`);
        const asked = await page.evaluate(() => window.mock!.requests.filter((request) => request.endpoint === 'members.list'));
        expect(asked.map((request) => request.query.page ?? '1')).toEqual(['1', '2']);
        await page.locator('#members .scroll').evaluate((list) => list.scrollTo({ top: 0 }));
        expect(unexpected(problems)).toEqual([]);
      });

      it('a moderation log made by mock.activity.step() appears on top, live, with no reload; a screenshot is saved', async () => {
        const id = await stepLogInPage(page);
        const top = page.locator('#logs li').first();
        await expect.poll(() => top.getAttribute('data-id'), { timeout: 10 * INTERVAL_MS }).toBe(id);
        expect(await top.getAttribute('class')).toBe('new');
        expect(await page.evaluate(() => (window as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
        expect(await page.locator('#logs li').count()).toBe(LOGS_PER_PAGE + 1);

        await page.screenshot({ path: SCREENSHOT, fullPage: true });
        expect(statSync(SCREENSHOT).size).toBeGreaterThan(10_000);
        expect(unexpected(problems)).toEqual([]);
      });

      it('creating a token shows its secret once and lists it; deactivating it updates the list', async () => {
        const tokens = page.locator('#tokens');
        await tokens.getByLabel('Name').fill('ci bot');
        await tokens.getByRole('button', { name: 'Create token' }).click();
        const secret = tokens.getByRole('status');
        await expect.poll(() => secret.innerText()).toMatch(/^Token “ci bot” created\. Copy its secret now: it is shown only once\./);
        const created = tokens.locator('tbody tr', { hasText: 'ci bot' });
        await expect.poll(() => created.count()).toBe(1);
        expect(await created.locator('.badge').first().innerText()).toBe('active');
        expect(await summary(page, 'tokens')).toBe(`${expected.tokens.length + 1} tokens, 3 active`);

        await created.getByRole('button', { name: 'Deactivate ci bot' }).click();
        await expect.poll(() => created.locator('.badge').first().innerText()).toBe('inactive');
        expect(await created.getByRole('button').count()).toBe(0);
        // The page's own token cannot be deactivated from it.
        expect(await tokens.locator('tbody tr', { hasText: 'this page' }).getByRole('button').count()).toBe(0);
        expect(unexpected(problems)).toEqual([]);
      });

      it('a 503 injected with mock.faults shows the error and a Retry that recovers', async () => {
        await page.evaluate(() => window.mock!.faults.add({ endpoint: 'tokens.list', status: 503 }));
        await page.locator('#tokens').getByRole('button', { name: 'Refresh tokens' }).click();
        // After the client's own retries, the error: the rows stay under it.
        await expect
          .poll(() => alert(page, 'tokens').innerText(), { timeout: 20_000 })
          .toMatch(/^Could not load tokens\. ServiceUnavailableError \(503 service_unavailable\): .+\s*Retry$/);
        expect(await page.locator('#tokens tbody tr').count()).toBe(expected.tokens.length + 1);

        await page.evaluate(() => window.mock!.faults.clear());
        await alert(page, 'tokens').getByRole('button', { name: 'Retry' }).click();
        await expect.poll(() => alert(page, 'tokens').count()).toBe(0);
        expect(await summary(page, 'tokens')).toBe(`${expected.tokens.length + 1} tokens, 2 active`);
        expect(unexpected(problems, 503)).toEqual([]);
      });
    });

    it('issue 30 hardening 3: item 7 — members who join while the list is paged are shown once each, with the total now', async () => {
      const { page, problems } = await open(`?interval=${INTERVAL_MS}`);
      const first = await rowIds(page, 'members', MEMBERS_PER_PAGE);
      const total = Number(/ of (\d+) members/.exec(await summary(page, 'members'))![1]);
      // Ten members join (the mock's activity, in the page): the list's pages shift by ten.
      await page.evaluate(() => {
        let joined = 0;
        while (joined < 10) for (const event of window.mock!.activity.step()) if (event.kind === 'members' && joined < 10) joined++;
      });
      const loadMore = page.locator('#members').getByRole('button', { name: 'Load more' });
      const asked = () => page.evaluate(() => window.mock!.requests.filter((request) => request.endpoint === 'members.list').length);
      for (let next = 2; next <= 4; next++) {
        // As a click would, without scrolling the list's end into view (that loads a page too).
        await loadMore.dispatchEvent('click');
        await expect.poll(asked).toBe(next);
        await expect.poll(() => page.locator('#members').getAttribute('aria-busy')).toBe('false');
      }
      // The list as the API has it now: each member of pages 2..4 after those of page 1, once.
      const now = await page.evaluate(async () => {
        const url = `${location.origin}/api/v1/server/members?pageSize=${4 * 20}`;
        const answer = await window.mock!.fetch(new Request(url, { headers: { authorization: `Bearer ${window.mock!.tokens.main}` } }));
        return ((await answer.json()) as { data: { id: string }[] }).data.map((member) => member.id);
      });
      const expected = [...new Set([...first, ...now.slice(MEMBERS_PER_PAGE)])];
      expect(expected).toHaveLength(4 * MEMBERS_PER_PAGE - 10);
      expect(await rowIds(page, 'members', expected.length)).toEqual(expected);
      expect(await summary(page, 'members')).toBe(`${expected.length} of ${total + 10} members loaded`);
      expect(unexpected(problems)).toEqual([]);
    });

    it('attack pass: the end of a list that grew while it was paged does not claim all its members are loaded', async () => {
      const { page, problems } = await open(`?interval=${INTERVAL_MS}`);
      await rowIds(page, 'members', MEMBERS_PER_PAGE);
      const total = Number(/ of (\d+) members/.exec(await summary(page, 'members'))![1]);
      await page.evaluate(() => {
        let joined = 0;
        while (joined < 10) for (const event of window.mock!.activity.step()) if (event.kind === 'members' && joined < 10) joined++;
      });
      const end = page.locator('#members .list-end');
      const loadMore = end.getByRole('button', { name: 'Load more' });
      // Every page to the last (the list's end scrolled into view would load one too: a click without scrolling).
      for (let pages = 1; pages < Math.ceil((total + 10) / MEMBERS_PER_PAGE); pages++) {
        await loadMore.dispatchEvent('click');
        await expect.poll(() => page.locator('#members').getAttribute('aria-busy')).toBe('false');
      }
      await expect.poll(() => loadMore.count()).toBe(0);
      // Page 1 was read before the ten joined: they are not among the rows, and the end says so.
      expect(await summary(page, 'members')).toBe(`${total} of ${total + 10} members loaded`);
      expect(await end.innerText()).toBe('End of the list: it changed while loading. Refresh shows all of it.');
      await page.locator('#members').getByRole('button', { name: 'Refresh members' }).click();
      await expect.poll(() => summary(page, 'members')).toBe(`${total + 10} of ${total + 10} members loaded`);
      expect(await end.innerText()).toBe(`All ${total + 10} members loaded`);
      expect(unexpected(problems)).toEqual([]);
    });

    describe('against a server given its URL and token', () => {
      let mock: MockApi;
      let http: MockHttpServer;

      beforeAll(async () => {
        mock = createMockApi({ seed: 1 });
        http = await startMockHttpServer({ mock });
      });
      afterAll(() => http?.close());

      it('renders from it, shows a new log live, and a fault and its retry', async () => {
        const expected = await expectedOf(createMockApi({ seed: 1 }));
        const { page, problems } = await open(`?baseUrl=${encodeURIComponent(http.url)}&token=${mock.tokens.main}&interval=${INTERVAL_MS}`);
        expect(await rowIds(page, 'members', MEMBERS_PER_PAGE)).toEqual(expected.members.slice(0, MEMBERS_PER_PAGE));
        expect(await rowIds(page, 'logs', LOGS_PER_PAGE)).toEqual(expected.logs);
        expect(await page.locator('#status').innerText()).toBe(`Server ${http.url}`);
        expect(await page.evaluate(() => window.mock)).toBeUndefined(); // no mock in the page

        let made: Log | undefined;
        while (!made) for (const event of mock.activity.step()) if (event.kind === 'logs') made = event.row;
        await expect.poll(() => page.locator('#logs li').first().getAttribute('data-id'), { timeout: 10 * INTERVAL_MS }).toBe(made.id);

        mock.faults.add({ endpoint: 'members.list', status: 503 });
        await page.locator('#members').getByRole('button', { name: 'Refresh members' }).click();
        await expect.poll(() => alert(page, 'members').innerText(), { timeout: 20_000 }).toMatch(/ServiceUnavailableError \(503/);
        mock.faults.clear();
        await alert(page, 'members').getByRole('button', { name: 'Retry' }).click();
        await expect.poll(() => alert(page, 'members').count()).toBe(0);
        expect(await rowIds(page, 'members', MEMBERS_PER_PAGE)).toEqual(expected.members.slice(0, MEMBERS_PER_PAGE));
        // The token went to the server only: never into the page's text.
        expect(await page.locator('body').innerText()).not.toContain(mock.tokens.main);
        expect(unexpected(problems, 503)).toEqual([]);
      });
    });
  });
}
