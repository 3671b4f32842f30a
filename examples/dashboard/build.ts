/**
 * Builds the dashboard into a folder a static server can serve: `index.html`, `main.js` (the
 * page's code, React, TanStack Query, the SDK and the mock bundled for the browser) and msw's
 * `mockServiceWorker.js`, which must come from the page's own origin for the browser to register
 * it.
 * @module
 */
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const root = here('../../');

/** Where `npm run dashboard` builds to (gitignored). */
export const DEFAULT_OUT_DIR = here('./dist/');

/**
 * The package's entry points, resolved to the sources, so the page never needs a build of the
 * package itself (and tests it against the code in this checkout).
 */
const SOURCES: Readonly<Record<string, string>> = {
  'community-server-sdk': 'src/index.ts',
  'community-server-sdk/core': 'src/core.ts',
  'community-server-sdk/mock': 'mocks/index.ts',
  'community-server-sdk/mock/browser': 'mocks/browser.ts',
  'community-server-sdk/query': 'src/query.ts',
};

const packageFromSources: Plugin = {
  name: 'community-server-sdk-from-sources',
  setup(build) {
    build.onResolve({ filter: /^community-server-sdk(\/|$)/ }, ({ path }) => {
      const source = SOURCES[path];
      return source ? { path: join(root, source) } : { errors: [{ text: `the dashboard has no source mapped for "${path}"` }] };
    });
  },
};

/**
 * Builds into `outDir` (emptied first) and returns it. `development` keeps React's development
 * build, whose warnings (a missing key, a state update gone wrong) the browser test fails on;
 * the default is the production build a user would serve.
 */
export async function buildDashboard(outDir: string = DEFAULT_OUT_DIR, { development = false } = {}): Promise<string> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: [here('./main.tsx')],
    outfile: join(outDir, 'main.js'),
    bundle: true,
    format: 'esm',
    // 'browser': a Node built-in anywhere in the graph is a build error, not a runtime surprise.
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    jsx: 'automatic',
    minify: !development,
    define: { 'process.env.NODE_ENV': JSON.stringify(development ? 'development' : 'production') },
    plugins: [packageFromSources],
    logLevel: 'warning',
  });
  const require = createRequire(import.meta.url);
  await copyFile(here('./index.html'), join(outDir, 'index.html'));
  await copyFile(require.resolve('msw/mockServiceWorker.js'), join(outDir, 'mockServiceWorker.js'));
  return outDir;
}
