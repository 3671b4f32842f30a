/**
 * The dashboard example (examples/dashboard) tested against the mock's HTTP server by four
 * workers at once, each on a session of its own (fixtures.ts). `npm run test:playwright` runs it
 * (`npx playwright test -c examples/testing/playwright` after `npm run build`: the tests import
 * the package by its name, which here resolves to the built files, as in the Jest example), and
 * `npm test` does too (test/docs/playwright-suite.test.ts). Playwright's own browsers are never
 * downloaded: the suite drives Debian's Chromium, as the other browser tests do.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from '../../../test/docs/chromium';

export default defineConfig({
  testDir: '.',
  // Every test may run in any worker: what keeps them apart is each worker's session.
  fullyParallel: true,
  workers: 4,
  forbidOnly: !!process.env.CI,
  // Once for the run: the mock's server, and the app under test.
  globalSetup: ['./global-setup.ts', './dashboard-server.ts'],
  outputDir: '../../../test-output/playwright',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
    screenshot: 'only-on-failure',
  },
});
