import { defineConfig, type Options } from 'tsup';
import { compactLuaPlugin } from './scripts/compact-lua';
import { guardPeers } from './scripts/peer-guard';

const shared: Options = {
  entry: {
    index: 'src/index.ts',
    schemas: 'src/schemas/index.ts',
    mock: 'mocks/index.ts',
    'mock/node': 'mocks/node.ts',
    'mock/browser': 'mocks/browser.ts',
    // The control API's client: global fetch only, so it needs neither msw nor faker (no guard).
    'mock/remote': 'mocks/remote.ts',
    redis: 'src/redis.ts',
    otel: 'src/otel.ts',
    query: 'src/query.ts',
    mcp: 'src/mcp.ts',
  },
  target: 'es2022',
  sourcemap: true,
  // The redis entry's Lua scripts ship without indentation and comment lines (see the plugin).
  esbuildPlugins: [compactLuaPlugin],
  // tsup 8 passes options TypeScript 6 deprecates; the d.ts build only needs them tolerated.
  // Node's types are for `mock/node` alone; `tsc -p tsconfig.json` keeps them out of the rest.
  dts: { compilerOptions: { ignoreDeprecations: '6.0', types: ['node'] } },
};

export default defineConfig([
  // The mock's entries load through a wrapper: without msw or faker, importing one says what to install.
  { ...shared, format: 'esm', splitting: true, onSuccess: async () => guardPeers('esm') },
  // The bin: ESM only, its shebang kept. msw and faker are optional peers of the library, so an
  // install of the package alone lacks them: the bin carries what it uses of them (tree-shaken,
  // faker's English locale only), and `npx community-server-mock` works from an empty directory.
  // No source map: it would be mostly theirs (1.6 MB); the bundle itself is unminified, readable.
  {
    entry: { cli: 'mocks/cli.ts' },
    format: 'esm',
    splitting: false,
    target: 'node20',
    platform: 'node',
    noExternal: [/^msw(\/|$)/, /^@faker-js\/faker(\/|$)/],
  },
  // The bin `community-server`: ESM, for Node. Like the mock's bin it carries what it uses (msw
  // and faker for `--mock`, the MCP SDK for `mcp`), in chunks of its own (dist/community-server/)
  // that load only when a command needs them: `--help` reads neither the mock nor the client. zod and ky are bundled
  // too: read as one chunk rather than zod's hundred-odd files, they start ~50 ms sooner.
  {
    entry: { 'community-server': 'cli/main.ts' },
    format: 'esm',
    splitting: true,
    target: 'node20',
    platform: 'node',
    noExternal: [/^msw(\/|$)/, /^@faker-js\/faker(\/|$)/, /^zod(\/|$)/, /^ky$/, /^@modelcontextprotocol\/sdk(\/|$)/],
    esbuildOptions: (options) => void (options.chunkNames = 'community-server/[name]-[hash]'),
  },
  // ky ships ESM only, so `require('ky')` fails at run time: the CommonJS build carries ky inside.
  { ...shared, format: 'cjs', noExternal: ['ky'], onSuccess: async () => guardPeers('cjs') },
]);
