import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: {
    index: 'src/index.ts',
    schemas: 'src/schemas/index.ts',
    mock: 'mocks/index.ts',
    'mock/node': 'mocks/node.ts',
    'mock/browser': 'mocks/browser.ts',
    redis: 'src/redis.ts',
  },
  target: 'es2022',
  sourcemap: true,
  // tsup 8 passes options TypeScript 6 deprecates; the d.ts build only needs them tolerated.
  // Node's types are for `mock/node` alone; `tsc -p tsconfig.json` keeps them out of the rest.
  dts: { compilerOptions: { ignoreDeprecations: '6.0', types: ['node'] } },
};

export default defineConfig([
  { ...shared, format: 'esm', splitting: true },
  // The bin: ESM only, its shebang kept.
  { entry: { cli: 'mocks/cli.ts' }, format: 'esm', target: 'node20', platform: 'node', sourcemap: true },
  // ky ships ESM only, so `require('ky')` fails at run time: the CommonJS build carries ky inside.
  { ...shared, format: 'cjs', noExternal: ['ky'] },
]);
