/**
 * Debian's Chromium, headless, as the browser tests launch it (the dashboard, the README's
 * browser recipe). CI installs it (.ci/run), so there its absence is a failure; elsewhere a
 * suite that needs it is skipped, saying why.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Why Chromium cannot be used here, or `undefined` when it can. */
export const chromiumMissing = (): string | undefined =>
  existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is not installed (CI installs it; here: apt-get install chromium)`;

// Without the background-networking switches Chromium calls Google hosts, which a closed CI
// network answers slowly or never. The Playwright suite (examples/testing/playwright) launches with them too.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
