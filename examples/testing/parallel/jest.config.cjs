// The Jest half of this example (`npm run test:jest:parallel`, after `npm run build`): the
// examples' Jest setup (../jest.config.cjs: ES modules, the built package) with one mock server
// for the run. Jest hands its test files nothing from globalSetup but the environment, which its
// workers inherit: mock-server.ts sets MOCK_URL and MOCK_ADMIN_TOKEN there.
const example = require('../jest.config.cjs');

module.exports = {
  ...example,
  rootDir: '..',
  testMatch: ['<rootDir>/parallel/*.jest.test.ts'],
  globalSetup: '<rootDir>/parallel/jest-setup.ts',
  globalTeardown: '<rootDir>/parallel/jest-teardown.ts',
  maxWorkers: 2,
  // Once jest has timed a few fast files it runs them in band, one after another; with a memory
  // limit per worker it always runs them in workers, at once, as a larger suite runs.
  workerIdleMemoryLimit: '512MB',
};
