import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The summary reporter over one fixture file, for test/house/summary-reporter.test.ts.
export default defineConfig({
  root: fileURLToPath(new URL('../../..', import.meta.url)),
  test: {
    include: ['test/house/reporter-fixture/*.fixture.ts'],
    reporters: ['default', './test/house/summary-reporter.ts'],
  },
});
