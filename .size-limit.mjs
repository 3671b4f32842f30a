/**
 * Size budgets (`npm run size`), min + brotli as size-limit measures with esbuild. Each counts
 * what a page loads up front: code the SDK loads on first use through a dynamic import (the
 * cache's store, the store-backed rate-limit gate, `watch()`'s machinery in `/core`, the deep
 * redaction walk of an error, the token's identity hash, a list's walks past its first page, the
 * rate-limit gate's holds in `/core`) is left out here, as a bundler splits it into chunks of
 * their own; `bench/` reports those chunks' sizes beside these.
 */

/** An esbuild plugin: every dynamic import stays an import, so the bundle is what loads up front. */
const upFront = {
  name: 'up-front',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined));
  },
};
const initialLoad = (config) => ({ ...config, format: 'esm', plugins: [...(config.plugins ?? []), upFront] });

export default [
  {
    name: 'client entry: community-server-sdk (ESM, with ky and zod/mini, minified + brotli)',
    path: 'dist/index.js',
    import: '*',
    // 29.27 KB before issue 31's last round (a list's walks loaded on first use, the token's
    // digest moved to the query entry); measured 29.02 KB, then 29.07 KB with a call's request
    // made once instead of made and copied (a cache hit twice as fast).
    limit: '29.1 KB',
    modifyEsbuildConfig: initialLoad,
  },
  {
    name: 'CommunityServerClient with three calls (members.list, members.get, server.info): a class ships whole, so this is the class',
    path: 'dist/index.js',
    import: '{ CommunityServerClient }',
    // Issue 31's goal is 24 KB; measured 28.81 KB (see bench/RESULTS.md for where the bytes go). The
    // class carries watch()'s machinery and the rate-limit holds, which a core loads on first use:
    // a test suite on a fake clock (vitest's or jest's fake timers, as users run the class) that
    // steps the clock right after a call would step it while the module loads, so a class call
    // must not wait for one (our fake-timer watch tests hung when it did).
    limit: '28.85 KB',
    modifyEsbuildConfig: initialLoad,
  },
  {
    name: 'community-server-sdk/core: createCore + membersList, membersGet, serverInfo (what loads up front)',
    path: 'dist/core.js',
    import: '{ createCore, membersList, membersGet, serverInfo }',
    // Issue 31's goal is 14 KB, of which ky and the three schemas with zod/mini are 10.96 KB; measured
    // 21.34 KB (22.04 KB before the rate-limit holds and a list's walks loaded on first use).
    limit: '21.4 KB',
    modifyEsbuildConfig: initialLoad,
  },
  {
    name: 'schemas entry: community-server-sdk/schemas (ESM, minified + brotli)',
    path: 'dist/schemas.js',
    import: '*',
    limit: '12 KB',
  },
  {
    name: "otel entry: community-server-sdk/otel (ESM, minified + brotli; @opentelemetry/api is the app's own)",
    path: 'dist/otel.js',
    import: '*',
    ignore: ['@opentelemetry/api'],
    limit: '2 KB',
  },
  {
    name: 'redis entry, redisRateLimitStore alone: community-server-sdk/redis (ESM, minified + brotli; imports no Redis library)',
    path: 'dist/redis.js',
    import: '{ redisRateLimitStore }',
    limit: '2.55 KB',
  },
  {
    name: 'redis entry, redisCacheStore alone: community-server-sdk/redis (ESM, minified + brotli; imports no Redis library)',
    path: 'dist/redis.js',
    import: '{ redisCacheStore }',
    limit: '2.65 KB',
  },
  {
    name: 'redis entry, redisFleet alone: community-server-sdk/redis (ESM, minified + brotli; imports no Redis library)',
    path: 'dist/redis.js',
    import: '{ redisFleet }',
    limit: '5.7 KB',
  },
  {
    name: "mock/remote entry: community-server-sdk/mock/remote (ESM, minified + brotli; global fetch only; the control API's whole table: every operation's route, argument and answer schemas and their checks; sessions and the limits of their counts; timeouts, abort and a typed error for an answer that is not the mock's)",
    path: 'dist/mock/remote.js',
    import: '*',
    // 7.28 KB on main; the text redaction's own module (redact-text.ts, so that /core loads the
    // deep walk of redact.ts only on a call's first error) costs this bundle 37 B of brotli.
    limit: '7.2 KB',
  },
  {
    name: 'query entry: community-server-sdk/query (ESM, minified + brotli; imports no TanStack code: query-core types only)',
    path: 'dist/query.js',
    import: '*',
    // 1.98 KB before issue 31's `queries(core, tree)`: with it the entry computes its keys' scope
    // (the token's digest, 0.23 KB, which the client entry no longer holds: it is that much
    // smaller) and walks a tree of /core functions (0.15 KB). A client + query bundle: +0.2 KB.
    // The walk's end at a method's deepest name (a tree that holds itself no longer overflows the
    // stack): 2.38 → 2.40 KB. Options made at a render in one pass, with what only a run needs
    // (the call's arguments) made when the query runs: ~2.1 → ~0.3 µs, and the adapter ÷ the same
    // query by hand 1.09× → ~1.0–1.04× (issue 31's goal ≤ 1.05×): 2.44 KB.
    limit: '2.45 KB',
  },
  {
    name: 'queries over a core: community-server-sdk/query + createCore, membersList, membersGet, serverInfo (what loads up front)',
    path: ['dist/query.js', 'dist/core.js'],
    import: { 'dist/query.js': '{ queries }', 'dist/core.js': '{ createCore, membersList, membersGet, serverInfo }' },
    // Measured 22.86 KB, 22.94 KB with the tree walk's end at a method's deepest name, 22.95 KB
    // with options made in one pass.
    limit: '22.95 KB',
    modifyEsbuildConfig: initialLoad,
  },
  {
    name: 'webhooks entry: community-server-sdk/webhooks (ESM, minified + brotli; Web Crypto only)',
    path: 'dist/webhooks.js',
    import: '*',
    limit: '1.2 KB',
  },
  {
    name: "mcp entry: community-server-sdk/mcp (ESM, minified + brotli; @modelcontextprotocol/sdk is the app's own, Node's http and crypto too; with the endpoint table, zod/mini and zod's JSON Schema generator)",
    path: 'dist/mcp.js',
    import: '*',
    ignore: ['@modelcontextprotocol/sdk', 'crypto', 'http'],
    limit: '24.5 KB',
  },
];
