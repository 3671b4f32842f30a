// fixtures.ts
/**
 * The suite's fixtures.
 * - `session`, one per worker: a mock of the worker's own on the shared server, opened when the
 *   worker starts and closed when it ends. Four workers reset it, add rows, inject faults and
 *   move its clock at the same time, and none sees what another does.
 * - `dashboard`, one per test: opens the dashboard on the worker's session (`?baseUrl=…&token=…`)
 *   and records every API request the page sends. When the test ends, the session's journal
 *   must be exactly those requests, each with the session's `main` token: a request of any other
 *   worker there, or one of the page's missing, fails the test.
 */
import { test as base, expect, type Page, type Request } from '@playwright/test';
import type { MockRequest } from 'community-server-sdk/mock';
import { connectMock, type RemoteSession } from 'community-server-sdk/mock/remote';

export { expect };

export interface Dashboard {
  /**
   * Opens the dashboard on this worker's session and waits for its first render. The live log
   * polls every `intervalMs` (default: a minute, so not within a test that does not ask).
   */
  open(options?: { intervalMs?: number }): Promise<Page>;
}

/** A request as the journal and the page can both name it: `GET /api/v1/server/members?page=2&pageSize=20`. */
const described = (method: string, path: string, query: Iterable<[string, string]>) =>
  `${method} ${path}?${new URLSearchParams([...query].toSorted(([a], [b]) => a.localeCompare(b)))}`;

const journaled = (row: MockRequest) => described(row.method, row.path, Object.entries(row.query));

export const test = base.extend<{ dashboard: Dashboard }, { session: RemoteSession }>({
  session: [
    // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = connectMock(process.env.MOCK_URL!, process.env.MOCK_ADMIN_TOKEN!);
      const session = await server.sessions.create();
      await use(session);
      await session.close();
    },
    { scope: 'worker' },
  ],

  dashboard: async ({ page, session }, use) => {
    const api = new URL(session.baseUrl);
    const sent: string[] = [];
    const inFlight = new Set<Request>();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== api.origin || !url.pathname.startsWith(`${api.pathname}/`)) return; // the page's own files
      sent.push(described(request.method(), url.pathname.slice(api.pathname.length), url.searchParams));
      inFlight.add(request);
    });
    const settle = (request: Request) => inFlight.delete(request);
    page.on('requestfinished', settle);
    page.on('requestfailed', settle);

    await use({
      async open({ intervalMs = 60_000 } = {}) {
        const query = new URLSearchParams({ baseUrl: session.baseUrl, token: session.tokens.main, interval: String(intervalMs) });
        await page.goto(`${process.env.DASHBOARD_URL}?${query}`);
        await expect(page.locator('#status')).toHaveText(`Server ${api.origin}`);
        return page;
      },
    });

    expect(pageErrors).toEqual([]);
    // Once no request is in flight (the live log may be between two polls), the journal is the page's.
    await expect(async () => {
      const before = sent.length;
      expect(inFlight.size).toBe(0);
      const rows = await session.mock.requests();
      expect([inFlight.size, sent.length]).toEqual([0, before]);
      expect(rows.map(journaled).toSorted()).toEqual(sent.toSorted());
      expect(rows.filter((row) => row.token !== 'main')).toEqual([]);
    }).toPass({ timeout: 10_000 });
  },
});
