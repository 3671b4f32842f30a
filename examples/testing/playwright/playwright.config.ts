/**
 * The dashboard example (examples/dashboard) tested against the mock's HTTP server, four workers
 * at once, each on a session of its own (fixtures.ts). Run it with
 *
 *   npx playwright test -c examples/testing/playwright
 *
 * `npm test` runs it too (test/playwright-suite.test.ts). Playwright's own browsers are never
 * downloaded here: the suite drives Debian's Chromium, as the other browser tests do.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from '../../../test/chromium';

export default defineConfig({
  testDir: '.',
  // Every test may run in any worker: what keeps them apart is each worker's session.
  fullyParallel: true,
  workers: 4,
  forbidOnly: !!process.env.CI,
  // Starts the mock's server and serves the dashboard, once for the run.
  globalSetup: './global-setup.ts',
  // `community-server-sdk` resolves to this checkout's sources, as in the other tests.
  tsconfig: '../../../tsconfig.test.json',
  outputDir: '../../../test-output/playwright',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
    screenshot: 'only-on-failure',
  },
});
