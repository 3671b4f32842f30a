// Jest setup for the examples:
//   NODE_OPTIONS=--experimental-vm-modules npx jest --config examples/testing/jest.config.cjs
// Jest runs the tests as ES modules: msw 2 depends on packages that ship only as ES modules,
// which jest's CommonJS mode cannot load on Node < 24.9. In your own project you need
// `transform` (ts-jest or @swc/jest in ESM mode do the same job) and `extensionsToTreatAsEsm`;
// the mapper is here only because this repository is the package itself, so it points jest at
// the built files (`npm run build` first).
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/*.jest.test.ts'], // parallel/ has a config of its own
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '\\.ts$': '<rootDir>/esbuild-jest-transform.cjs' },
  moduleNameMapper: {
    '^community-server-sdk$': '<rootDir>/../../dist/index.js',
    '^community-server-sdk/mock$': '<rootDir>/../../dist/mock.js',
    '^community-server-sdk/mock/node$': '<rootDir>/../../dist/mock/node.js',
    '^community-server-sdk/mock/remote$': '<rootDir>/../../dist/mock/remote.js',
  },
};
