/**
 * The browser dashboard (examples/dashboard) as a person sees it: built with esbuild from the
 * sources, served over HTTP on loopback, opened in headless Chromium, where msw's service
 * worker answers the API. The rows on screen are checked against the mock's data for seed 1,
 * ordered as the service orders lists (newest first); any page error or console error fails the
 * test. A screenshot goes to test-output/dashboard.png.
 *
 * Needs Debian's Chromium at /usr/bin/chromium. CI installs it (.ci/run), so there its absence
 * is a failure; elsewhere the suite is skipped, saying why.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CadCall, Loa, Member } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard } from '../examples/dashboard/build';
import { serveStatic, type StaticServer } from '../examples/dashboard/server';
import { CHROMIUM, chromiumMissing, launchChromium } from './chromium';

const root = fileURLToPath(new URL('..', import.meta.url));
const outputDir = `${root}test-output`;
const SCREENSHOT = `${outputDir}/dashboard.png`;

const MEMBERS_PER_PAGE = 10;
const FILTERED_PER_PAGE = 5;

/** The service's default list order: `createdAt` descending, ties by id descending. */
const newestFirst = <Row extends { id: string; createdAt: number }>(rows: readonly Row[]) =>
  [...rows].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
const none = (value: unknown) => value === undefined || value === null;

// What the page must show, from the same seeded world, with the definitions the page states.
const world = createMockApi({ seed: 1 }).store.main;
const members = newestFirst<Member>(world.members.all());
const allCalls = world.cad!.calls.all();
const openCalls = newestFirst<CadCall>(allCalls.filter((call) => none(call.closedAt)));
const allLoas = world.loas.all();
const currentLoas = newestFirst<Loa>(
  allLoas.filter((loa) => !none(loa.startedAt) && none(loa.endedAt) && none(loa.cancelledAt) && none(loa.expiredAt)),
);
const pages = (count: number, size: number) => Math.ceil(count / size);

const missing = chromiumMissing();

if (missing && process.env.CI) {
  it(`runs in ${CHROMIUM}`, () => expect.fail(`${CHROMIUM} is missing; CI must install it (.ci/run: apt-get install chromium)`));
} else if (missing) {
  it('the browser dashboard in headless Chromium', (context) => {
    context.skip(missing);
  });
} else {
  describe('the browser dashboard in headless Chromium', { timeout: 60_000 }, () => {
    let browser: Browser;
    let server: StaticServer;
    let context: BrowserContext | undefined;

    beforeAll(async () => {
      mkdirSync(outputDir, { recursive: true });
      server = await serveStatic(await buildDashboard(`${outputDir}/dashboard`));
      browser = await launchChromium();
    }, 90_000);

    afterEach(async () => {
      await context?.close();
      context = undefined;
    });

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    /**
     * Opens the dashboard in a fresh browser context (its own service worker) and collects every
     * page error, console error and failed request, for the test to assert there were none.
     */
    async function open(query = '') {
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      page.setDefaultNavigationTimeout(15_000);
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
      await page.goto(`${server.url}${query}`);
      return { page, problems };
    }

    /** Waits until a panel has finished loading, and fails at once with the reason if the page could not start. */
    async function settled(page: Page, panel: string) {
      await page.locator(`#${panel}[aria-busy="false"], #status.error`).first().waitFor();
      const status = page.locator('#status');
      if (await status.evaluate((node) => node.classList.contains('error'))) throw new Error(await status.innerText());
    }

    /** The rows a panel shows: each row's id and its cells' text. */
    async function rows(page: Page, panel: string) {
      await settled(page, panel);
      return page.locator(`#${panel} tbody tr`).evaluateAll((trs) =>
        trs.map((tr) => ({
          id: (tr as HTMLElement).dataset.id,
          cells: [...(tr as HTMLTableRowElement).cells].map((cell) => cell.textContent),
        })),
      );
    }

    const text = (page: Page, selector: string) => page.locator(selector).innerText();

    async function next(page: Page, panel: string) {
      await page.locator(`#${panel}`).getByRole('button', { name: 'Next' }).click();
      await settled(page, panel);
    }

    it('members: page 1 as the service orders them, then page 2 after Next; a screenshot is saved', async () => {
      const { page, problems } = await open();

      const first = await rows(page, 'members');
      expect(first.map((row) => row.id)).toEqual(members.slice(0, MEMBERS_PER_PAGE).map((member) => member.id));
      expect(first.map((row) => row.cells[0])).toEqual(members.slice(0, MEMBERS_PER_PAGE).map((member) => member.username));
      expect(await text(page, '#members .indicator')).toBe(`page 1 of ${pages(members.length, MEMBERS_PER_PAGE)}`);
      expect(await text(page, '#members .summary')).toBe(`${members.length} members, newest first`);
      expect(await page.locator('#members').getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);

      await next(page, 'members');
      const second = await rows(page, 'members');
      expect(second.map((row) => row.id)).toEqual(members.slice(MEMBERS_PER_PAGE, 2 * MEMBERS_PER_PAGE).map((member) => member.id));
      expect(second.map((row) => row.cells[0])).toEqual(
        members.slice(MEMBERS_PER_PAGE, 2 * MEMBERS_PER_PAGE).map((member) => member.username),
      );
      expect(await text(page, '#members .indicator')).toBe(`page 2 of ${pages(members.length, MEMBERS_PER_PAGE)}`);
      expect(await page.locator('#members').getByRole('button', { name: 'Previous' }).isEnabled()).toBe(true);

      await settled(page, 'calls');
      await settled(page, 'loas');
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(existsSync(SCREENSHOT)).toBe(true);
      expect(problems).toEqual([]);
    });

    /**
     * Pages 1 and 2 of a filtered panel show exactly `expected`'s rows, newest first,
     * `FILTERED_PER_PAGE` a page, with `firstCell` in the first column; `check` looks at each row.
     */
    async function expectFilteredPanel<Row extends { id: string }>(
      page: Page,
      panel: string,
      expected: Row[],
      firstCell: (row: Row) => unknown,
      check: (id: string) => void = () => {},
    ) {
      for (const pageNumber of [1, 2]) {
        if (pageNumber > 1) await next(page, panel);
        const slice = expected.slice((pageNumber - 1) * FILTERED_PER_PAGE, pageNumber * FILTERED_PER_PAGE);
        const shown = await rows(page, panel);
        expect(shown.map((row) => row.id)).toEqual(slice.map((row) => row.id));
        expect(shown.map((row) => row.cells[0])).toEqual(slice.map(firstCell));
        for (const row of shown) check(row.id!);
        expect(await text(page, `#${panel} .indicator`)).toBe(`page ${pageNumber} of ${pages(expected.length, FILTERED_PER_PAGE)}`);
      }
    }

    it('open CAD calls: only calls without closedAt, newest first, paged in the browser', async () => {
      // The rule must sort the world's calls, or the panel proves nothing.
      expect(openCalls.length).toBeGreaterThan(FILTERED_PER_PAGE);
      expect(openCalls.length).toBeLessThan(allCalls.length);
      const { page, problems } = await open();
      await expectFilteredPanel(
        page,
        'calls',
        openCalls,
        (call) => call.title,
        (id) => expect(none(allCalls.find((call) => call.id === id)?.closedAt)).toBe(true),
      );
      expect(await text(page, '#calls .summary')).toBe(`${openCalls.length} open of ${allCalls.length} calls`);
      expect(problems).toEqual([]);
    });

    it('current LOAs: only started, not ended, cancelled or expired; each named by its member', async () => {
      expect(currentLoas.length).toBeGreaterThan(FILTERED_PER_PAGE);
      expect(currentLoas.length).toBeLessThan(allLoas.length);
      const { page, problems } = await open();
      await expectFilteredPanel(page, 'loas', currentLoas, (loa) => world.members.get(loa.memberId)!.username);
      expect(await text(page, '#loas .summary')).toBe(`${currentLoas.length} current of ${allLoas.length} LOAs`);
      expect(problems).toEqual([]);
    });

    it('an error from the client is shown in its panel, readably, and the other panels still work', async () => {
      // The noCad token's server has no CAD: the calls list answers 404 cad_not_found.
      const { page, problems } = await open('?token=noCad');

      await settled(page, 'calls');
      const alert = page.locator('#calls').getByRole('alert');
      expect(await alert.isVisible()).toBe(true);
      expect(await alert.innerText()).toMatch(/^Could not load page 1 of open calls\. NotFoundError \(404 cad_not_found\): .+ Retry$/);
      expect(await rows(page, 'calls')).toEqual([]);
      expect((await rows(page, 'members')).length).toBe(MEMBERS_PER_PAGE);
      expect(await page.locator('#members').getByRole('alert').isVisible()).toBe(false);

      // A failed fetch's status is the browser's own console line, expected here and only here.
      const unexpected = problems.filter(
        (problem) => !/^console error: Failed to load resource: the server responded with a status of 404\b/.test(problem),
      );
      expect(unexpected).toEqual([]);
    });

    it('a fault of the mock reaches the page through the service worker: that panel says 503, the others work', async () => {
      const { page, problems } = await open('?fault=cad.calls.list');

      await settled(page, 'calls');
      expect(await page.locator('#calls').getByRole('alert').innerText()).toMatch(
        /^Could not load page 1 of open calls\. ServiceUnavailableError \(503 service_unavailable\): .+ Retry$/,
      );
      expect((await rows(page, 'members')).length).toBe(MEMBERS_PER_PAGE);
      const unexpected = problems.filter(
        (problem) => !/^console error: Failed to load resource: the server responded with a status of 503\b/.test(problem),
      );
      expect(unexpected).toEqual([]);
    });
  });
}
