/**
 * `connectMock` in a browser page, as a Playwright worker or a web app under test uses it: the
 * built `community-server-sdk/mock/remote` module loaded by headless Chromium from one origin,
 * driving the HTTP mock on another (CORS, preflights for PUT and DELETE included), while the
 * page's own fetches to the API see what it changed, with every header a client may send.
 *
 * Needs the built package (dist/) and Debian's Chromium; CI has both, elsewhere the suite is
 * skipped, saying why.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, type StaticServer } from '../../examples/dashboard/server';
import { CHROMIUM, chromiumMissing, launchChromium } from '../docs/chromium';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const missing = chromiumMissing() ?? (existsSync(`${dist}/mock/remote.js`) ? undefined : 'dist/ is missing: run `npm run build` first');

if (missing && process.env.CI) {
  it(`connectMock runs in ${CHROMIUM}`, () => expect.fail(missing));
} else if (missing) {
  it('connectMock in headless Chromium', (context) => context.skip(missing));
} else {
  describe('connectMock in headless Chromium, from another origin', { timeout: 60_000 }, () => {
    const mock = createMockApi({ seed: 1 });
    let http: MockHttpServer;
    let files: StaticServer;
    let browser: Browser;
    let page: Page;
    const errors: string[] = [];

    beforeAll(async () => {
      http = await startMockHttpServer({ mock });
      files = await serveStatic(dist);
      browser = await launchChromium();
      page = await browser.newPage();
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${files.url}mock/remote.js`); // any page of that origin will do
      // As a web app imports it: a module script (an import() in the evaluated function would be
      // rewritten by the test runner's own transform).
      await page.addScriptTag({
        type: 'module',
        content: "import { connectMock } from '/mock/remote.js'; window.connectMock = connectMock;",
      });
      await page.waitForFunction(() => 'connectMock' in window);
    });
    afterAll(async () => {
      await browser?.close();
      await files?.close();
      await http?.close();
    });

    it('resets, adds a row, injects a fault, reads the journal, moves the clock and flips health', async () => {
      const seen = await page.evaluate(
        async ({ mockUrl, admin, token }) => {
          const { connectMock } = window as unknown as { connectMock: typeof import('community-server-sdk/mock/remote').connectMock };
          const remote = connectMock(mockUrl, admin);
          const api = (path: string) => fetch(`${mockUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
          await remote.reset();
          const log = await remote.store('main.logs').create({ username: 'from-the-page' });
          const served = (await (await api(`/api/v1/server/logs/${log.id}`)).json()) as { username: string };
          await remote.faults.add({ endpoint: 'members.list', status: 503, times: 1 });
          const faulted = (await api('/api/v1/server/members')).status;
          const journal = await remote.requests({ endpoint: 'members.list' });
          const before = await remote.clock.advance(0);
          const after = await remote.clock.advance(60_000); // plus the real time between the two calls
          await remote.setHealth({ database: false }); // a PUT: its preflight must pass
          const health = (await api('/health')).status;
          await remote.faults.clear(); // a DELETE
          const refused = await connectMock(mockUrl, 'not-the-admin-token')
            .reset()
            .then(
              () => 'resolved',
              (error: Error & { status?: number }) => `${error.name} ${error.status}`,
            );
          return {
            served: served.username,
            faulted,
            journal: journal.map((row) => row.status),
            moved: after - before >= 60_000 && after - before < 70_000,
            health,
            refused,
          };
        },
        { mockUrl: http.url, admin: http.adminToken, token: mock.tokens.main },
      );
      expect(seen).toEqual({
        served: 'from-the-page',
        faulted: 503,
        journal: [503],
        moved: true,
        health: 503,
        refused: 'AuthenticationError 401',
      });
      expect(mock.requests.map((row) => row.endpoint)).toEqual(['logs.get', 'members.list', 'health.check']);
      expect(errors).toEqual([]);
    });

    it('lets the page send the API any header a client sends: a custom one, traceparent and tracestate', async () => {
      mock.reset();
      const headers = {
        authorization: `Bearer ${mock.tokens.main}`,
        'x-request-id': 'from-the-page',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        tracestate: 'vendor=opaque',
      };
      const seen = await page.evaluate(
        async ({ mockUrl, headers }) => {
          // Each header alone, so a refusal names the one a preflight blocked.
          const sent: Record<string, number | string> = {};
          for (const name of Object.keys(headers)) {
            const one = { authorization: headers.authorization, [name]: headers[name as keyof typeof headers] };
            sent[name] = await fetch(`${mockUrl}/api/v1/server/info`, { headers: one }).then(
              (response) => response.status,
              (error: Error) => error.message,
            );
          }
          return sent;
        },
        { mockUrl: http.url, headers },
      );
      expect(seen).toEqual({ authorization: 200, 'x-request-id': 200, traceparent: 200, tracestate: 200 });
      expect(mock.requests.map((row) => row.status)).toEqual([200, 200, 200, 200]);
      expect(errors).toEqual([]);
    });
  });
}
