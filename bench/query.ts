/**
 * What `community-server-sdk/query` costs a dashboard:
 * - time: `queryClient.fetchQuery(q.members.get(id))` against the same query written by hand, both
 *   on an in-memory fetch, where nothing but the client and the query layer cost (issue 31's goal
 *   ≤ 1.05×: what the adapter adds; TanStack's own machinery, which a hand-written query pays too,
 *   is in the rows under it). `fetchQuery` with the default `staleTime` of 0 asks every time, through
 *   the cache, as a refetch does;
 * - size, minified + brotli: the query entry as size-limit measures it (goal: its budget in
 *   `.size-limit.mjs`, 2 KB); and a dashboard's JavaScript for three panels, members, the live
 *   moderation log and the tokens (examples/dashboard: a core and the functions they call, the
 *   query entry, TanStack React Query and the panels' own code, React excluded), beside the same
 *   panels over the whole client, both bundled the same way (esbuild, for the browser).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompressSync } from 'node:zlib';
import { QueryClient } from '@tanstack/query-core';
import { CommunityServerClient } from 'community-server-sdk';
import { queries } from 'community-server-sdk/query';
import { build, type Plugin } from 'esbuild';
import { PRECISE, format, interleave, row, runWhenMain, type Comparison } from './harness';

const root = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'cst_bench_token_0123456789';

/**
 * `members.get(id)` against the same in-memory answer, where nothing but the SDK and TanStack
 * Query cost. Four sides in the same rounds, so the ratio of the goal splits into its parts: the
 * adapter (`q`'s options ÷ the same query written by hand), TanStack Query's own fetch (a
 * hand-written query ÷ the call it makes, given the query's signal), and the signal itself (the
 * call with a signal ÷ without).
 */
async function queryOverhead(): Promise<Comparison[]> {
  const member = JSON.stringify({ id: 'm7', serverId: 's1', roles: [], createdAt: 1763596800, username: 'bench' });
  const fetch = (async () => new Response(member, { headers: { 'content-type': 'application/json' } })) as typeof globalThis.fetch;
  const client = new CommunityServerClient({ token: TOKEN, baseUrl: 'https://bench.test', fetch });
  const q = queries(client);
  const queryClient = new QueryClient();
  const byHand = { queryKey: ['member', 'm7'], queryFn: ({ signal }: { signal: AbortSignal }) => client.members.get('m7', { signal }) };
  const run = await interleave(
    {
      query: () => queryClient.fetchQuery(q.members.get('m7')),
      byHand: () => queryClient.fetchQuery(byHand),
      signal: () => client.members.get('m7', { signal: new AbortController().signal }),
      bare: () => client.members.get('m7'),
    },
    PRECISE,
  );
  queryClient.clear();
  const rate = (side: 'query' | 'byHand' | 'signal' | 'bare') => format(run.rate(side), 'calls/s');
  const part = (name: string, a: 'query' | 'byHand' | 'signal', b: 'byHand' | 'signal' | 'bare', baseline: string): Comparison => ({
    name: `↳ part of it: ${name}`,
    value: rate(a),
    baseline: `${baseline}: ${rate(b)}`,
    ratio: run.timeRatio(a, b),
    goal: null,
    met: null,
  });
  const overhead = row(
    '`queryClient.fetchQuery(q.members.get(id))` ÷ the same query written by hand, in-memory fetch',
    rate('query'),
    `by hand, \`queryFn\` passing the signal: ${rate('byHand')}`,
    run.timeRatio('query', 'byHand'),
    '≤ 1.05×',
  );
  const [adapter, tanstack, signal] = [
    run.timeRatio('query', 'byHand'),
    run.timeRatio('byHand', 'signal'),
    run.timeRatio('signal', 'bare'),
  ];
  overhead.note =
    `Against a bare \`client.members.get(id)\` the query takes ${run.timeRatio('query', 'bare').median.toFixed(2)}×; its parts, in the rows under it: the adapter itself ${adapter.median.toFixed(2)}× (this row), ` +
    `TanStack Query's own fetch (cache, retryer, notifications) ${tanstack.median.toFixed(2)}× the call it makes, ` +
    `and giving the call a signal at all ${signal.median.toFixed(2)}× (ky links a caller's signal to each request with \`AbortSignal.any\`). ` +
    'The last two are paid by any cancellable TanStack query of this client, written by hand or not; on an in-memory fetch a call takes ~0.1 ms, so the fixed costs weigh their most, and over a network they shrink with the call.';
  return [
    overhead,
    part('`q.members.get(id)` ÷ a bare `client.members.get(id)`', 'query', 'bare', 'bare `client.members.get(id)`'),
    part(
      "a hand-written query ÷ the call it makes (TanStack Query's own fetch)",
      'byHand',
      'signal',
      '`client.members.get(id, { signal })`',
    ),
    part('a call given a signal ÷ the call without one', 'signal', 'bare', '`client.members.get(id)`'),
  ];
}

/** The package's entries resolved to the build, as an app that installed it gets them. */
const builtPackage: Plugin = {
  name: 'community-server-sdk-from-dist',
  setup(build) {
    build.onResolve({ filter: /^community-server-sdk(\/query|\/core)?$/ }, ({ path }) => ({
      path: `${root}dist/${path === 'community-server-sdk' ? 'index' : path.slice('community-server-sdk/'.length)}.js`,
    }));
  },
};

/** Bytes of `source` bundled for the browser, minified, then compressed with brotli; React stays out. */
async function brotliBytes(source: string): Promise<number> {
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'tsx' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    external: ['react', 'react-dom', 'react/jsx-runtime'],
    plugins: [builtPackage],
    write: false,
    logLevel: 'error',
  });
  return brotliCompressSync(result.outputFiles[0]!.contents).length;
}

/** The dashboard's three panels over `q`, made by `makeQueries` (imported beside them). */
const dashboard = (imports: string, makeQueries: string) => `
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
${imports}
import { LogsPanel } from './examples/dashboard/logs';
import { MembersPanel } from './examples/dashboard/members';
import { TokensPanel } from './examples/dashboard/tokens';

export function Dashboard({ token, baseUrl }: { token: string; baseUrl: string }) {
  const q = ${makeQueries};
  return (
    <QueryClientProvider client={new QueryClient()}>
      <MembersPanel q={q} />
      <LogsPanel q={q} intervalMs={5000} />
      <TokensPanel q={q} />
    </QueryClientProvider>
  );
}
`;
/** As examples/dashboard is: a core, the functions its panels call, `queries(core, tree)`. */
const DASHBOARD = dashboard(
  `import { createCore } from 'community-server-sdk/core';\nimport { dashboardQueries } from './examples/dashboard/queries';`,
  'dashboardQueries(createCore({ token, baseUrl }))',
);
/** The same panels over a client, `queries(client)`, as the dashboard was before issue 31. */
const DASHBOARD_ON_CLIENT = dashboard(
  `import { CommunityServerClient } from 'community-server-sdk';\nimport { queries } from 'community-server-sdk/query';`,
  'queries(new CommunityServerClient({ token, baseUrl }))',
);

const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} KB`;

async function sizes(): Promise<Comparison[]> {
  const { stdout } = await promisify(execFile)(`${root}/node_modules/.bin/size-limit`, ['--json'], { cwd: root });
  const entry = (JSON.parse(stdout) as { path?: string; name: string; size: number; sizeLimit: number }[]).find((e) =>
    e.name.startsWith('query entry'),
  )!;
  const [onCore, onClient, reactQuery] = await Promise.all([
    brotliBytes(DASHBOARD),
    brotliBytes(DASHBOARD_ON_CLIENT),
    brotliBytes(`export * from '@tanstack/react-query';`),
  ]);
  const ratio = onCore / onClient;
  return [
    {
      name: 'query entry, `community-server-sdk/query`, ESM, minified + brotli (size-limit)',
      value: kb(entry.size),
      baseline: '—',
      ratio: null,
      goal: `≤ ${entry.sizeLimit / 1000} KB`,
      met: entry.size <= entry.sizeLimit,
    },
    {
      name: "a dashboard's JavaScript for its members, live log and tokens panels: `createCore` + the functions they call + query entry + TanStack React Query + the panels, React excluded, minified + brotli",
      value: kb(onCore),
      baseline: `the same panels over \`queries(client)\`: ${kb(onClient)}`,
      ratio: { median: ratio, low: ratio, high: ratio },
      goal: null,
      met: null,
      note: `Bundled with esbuild for the browser (React, react-dom and the JSX runtime external, as an app has them anyway), as examples/dashboard is (\`queries(core, tree)\` over the ten functions its panels call) and over the whole client. TanStack React Query with query-core alone is ${kb(reactQuery)} of it, so the SDK and the panels' own code come to ${kb(onCore - reactQuery)} (${kb(onClient - reactQuery)} over the client).`,
    },
  ];
}

export async function queryBench(): Promise<Comparison[]> {
  return [...(await queryOverhead()), ...(await sizes())];
}

await runWhenMain(import.meta.url, queryBench);
