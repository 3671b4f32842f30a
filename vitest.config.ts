import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const local = (path: string) => fileURLToPath(new URL(`./${path}`, import.meta.url));

/**
 * What npm test runs once, in its Node 20 pass, and leaves out of the Node 22 and 24 passes
 * (SDK_SECOND_RUNTIME_PASS=1): suites whose subject is no runtime's and that cost half a minute
 * and more each: the docs (typedoc's output, the README's code and recipes, the examples, the
 * dashboard in Chromium, four Chromium workers), the benchmarks' smoke run, the OpenAPI
 * document against the mock, the package installed into an empty directory, and the fleet's
 * process-level kills and Redis restarts. What they drive on Node (the client, the mock's
 * server and sessions, the bins, the fleet's watches) other suites test on every runtime.
 */
const oncePerRun =
  process.env.SDK_SECOND_RUNTIME_PASS === '1'
    ? [
        'test/docs/docs.test.ts',
        'test/docs/readme.test.ts',
        'test/docs/readme-recipes.test.ts',
        'test/docs/examples.test.ts',
        'test/docs/dashboard.test.ts',
        'test/docs/playwright-suite.test.ts',
        'test/house/bench.test.ts',
        'test/openapi/openapi.test.ts',
        'test/mock/engine/api/openapi-fidelity.test.ts',
        'test/mock/doors/cli/empty-directory.test.ts',
        'test/redis/fleet-processes.test.ts',
      ]
    : [];

export default defineConfig({
  resolve: {
    // Tests import the package by its public name, as users do; here it resolves to the source.
    alias: [
      { find: /^community-server-sdk\/schemas$/, replacement: local('src/schemas/index.ts') },
      { find: /^community-server-sdk\/mock\/node$/, replacement: local('mocks/node.ts') },
      { find: /^community-server-sdk\/mock\/browser$/, replacement: local('mocks/browser.ts') },
      { find: /^community-server-sdk\/mock\/remote$/, replacement: local('mocks/remote.ts') },
      { find: /^community-server-sdk\/redis$/, replacement: local('src/redis.ts') },
      { find: /^community-server-sdk\/otel$/, replacement: local('src/otel.ts') },
      { find: /^community-server-sdk\/query$/, replacement: local('src/query.ts') },
      { find: /^community-server-sdk\/core$/, replacement: local('src/core.ts') },
      { find: /^community-server-sdk\/webhooks$/, replacement: local('src/webhooks.ts') },
      { find: /^community-server-sdk\/mcp$/, replacement: local('src/mcp.ts') },
      { find: /^community-server-sdk\/mock$/, replacement: local('mocks/index.ts') },
      { find: /^community-server-sdk$/, replacement: local('src/index.ts') },
    ],
  },
  test: {
    // The examples' own tests run too; the jest ones run under jest, and the parallel example's
    // under its own config, whose globalSetup starts their server (test/docs/examples.test.ts).
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'examples/**/*.jest.test.ts', 'examples/testing/parallel/**', ...oncePerRun],
    testTimeout: 20_000,
    // Two files at a time, whatever the machine: most suites wait on processes, sockets and
    // timers, so two share two cores well (vitest's default here, cores − 1, is one at a time).
    maxWorkers: 2,
    reporters: ['default', './test/house/summary-reporter.ts'],
  },
});
