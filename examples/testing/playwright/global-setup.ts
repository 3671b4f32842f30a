/**
 * Once per run, before any worker starts: the mock's HTTP server (one port, every worker's
 * session on it) and the dashboard, built and served. The workers read where they are from the
 * environment, which they inherit from this process. Both listen on free ports, so runs never
 * collide; the returned function stops them after the last worker has closed its session.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';
import { buildDashboard } from '../../dashboard/build';
import { serveStatic } from '../../dashboard/server';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const adminToken = process.env.MOCK_ADMIN_TOKEN ?? 'playwright-suite-admin-token';
  const site = await mkdtemp(join(tmpdir(), 'dashboard-'));
  const [mock, dashboard] = await Promise.all([
    startMockHttpServer({ mock: createMockApi({ seed: 1 }), adminToken }),
    buildDashboard(site).then((dir) => serveStatic(dir)),
  ]);
  process.env.MOCK_URL = mock.url;
  process.env.MOCK_ADMIN_TOKEN = adminToken;
  process.env.DASHBOARD_URL = dashboard.url;
  return async () => {
    await Promise.all([mock.close(), dashboard.close()]);
    await rm(site, { recursive: true, force: true });
  };
}
