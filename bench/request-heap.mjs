// Answers `N` (argv[3]) in-process requests with the mock module at argv[2] (`mock.fetch`, the
// journal off) under the signal argv[4] names, and prints the live heap kept per request: the
// difference of `heapUsed` right after full collections (run with --expose-gc), before and
// right after them. `shutdown`: one long-lived signal for every request, as a bot's shutdown
// signal; `timeout`: a 30 s `AbortSignal.timeout` per request, as a client's timeout (the signals
// are the caller's, and are kept until they fire); `alone`: those signals, no mock; `none`: no signal.
import { setImmediate as turn } from 'node:timers/promises';

const [module, total, mode] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const { createMockApi } = await import(module);
const mock = createMockApi({ journal: { limit: 0 } });
const id = mock.store.main.members.all()[0].id;
const url = `https://community.test/api/v1/server/members/${id}`;
const headers = { authorization: `Bearer ${mock.tokens.main}` };
const shutdown = new AbortController();
const kept = [];
const request = {
  shutdown: async () => (await mock.fetch(url, { headers, signal: shutdown.signal })).text(),
  timeout: async () => (await mock.fetch(url, { headers, signal: AbortSignal.timeout(30_000) })).text(),
  alone: async () => void kept.push(AbortSignal.timeout(30_000)),
  none: async () => (await mock.fetch(url, { headers })).text(),
}[mode];

/** The live heap: after the loop has turned (undici frees per-request state between macrotasks) and full collections. */
async function liveHeap() {
  for (let i = 0; i < 5; i++) await turn();
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

for (let i = 0; i < 1_000; i++) await request(); // compiled code, the route's caches
kept.length = 0;
const before = await liveHeap();
for (let i = 0; i < total; i++) await request();
kept.length = 0; // the signals alone: what their timers keep, not the array
const after = await liveHeap();
console.log(JSON.stringify({ bytesPerRequest: (after - before) / total }));
process.exit(0);
