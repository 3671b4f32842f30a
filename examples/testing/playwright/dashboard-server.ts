/**
 * The app under test, once per run: the dashboard example, built and served on a free port
 * (`DASHBOARD_URL` for the workers). A project of your own would start its app with Playwright's
 * `webServer` instead.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDashboard } from '../../dashboard/build';
import { serveStatic } from '../../dashboard/server';

export default async function dashboardServer() {
  const site = await mkdtemp(join(tmpdir(), 'dashboard-'));
  const server = await serveStatic(await buildDashboard(site));
  process.env.DASHBOARD_URL = server.url;
  return async () => {
    await server.close();
    await rm(site, { recursive: true, force: true });
  };
}
