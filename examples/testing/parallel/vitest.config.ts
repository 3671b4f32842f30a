import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each test file in a process of its own (`threads` works the same), two at once even on a
    // two-core machine, where vitest's default would run one.
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['./mock-server.ts'], // one mock server for the whole run
    exclude: ['**/node_modules/**', '**/*.jest.test.ts'], // the Jest half of this example, beside it
  },
});
