import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests import the package by its public name, as users do; here it resolves to the source.
    alias: [
      { find: /^community-server-sdk\/schemas$/, replacement: src('schemas/index.ts') },
      { find: /^community-server-sdk$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
