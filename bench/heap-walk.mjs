// Walks `N` members with `for await` through the built client and prints the peak live heap:
// `heapUsed` right after a full collection, taken every 10th page (run with --expose-gc).
//
// Why live heap, after a collection: without one, `heapUsed` also counts garbage V8 has not yet
// swept, and V8 lets the old generation grow to a threshold before its first full collection.
// A 10k walk ends before reaching it and a 100k walk does not, so that figure compares GC
// schedules, not what a walk keeps. What a walk keeps is what this goal is about.
//
// The fetch makes each page on the fly (so the source holds nothing) and answers after one turn
// of the event loop, as a network fetch does. That matters: on Node 20, undici frees the state
// that ties a Request to its AbortSignal in FinalizationRegistry callbacks, which only run
// between macrotasks; a fetch answering in microtasks alone never lets them run, and every
// request's ~2 KB stays (ky's own walk, with no SDK, grows the same way).
import { CommunityServerClient } from 'community-server-sdk';

const total = Number(process.argv[2]);
const pageSize = 100;
const member = (i) => ({ id: `m${i}`, serverId: 's1', roles: i % 3 ? ['r1'] : [], createdAt: 1_700_000_000 + i, username: `member_${i}` });
const fetch = async (input) => {
  await new Promise((resolve) => setImmediate(resolve));
  const page = Number(new URL(input instanceof Request ? input.url : input).searchParams.get('page') ?? 1);
  const start = (page - 1) * pageSize;
  const data = Array.from({ length: Math.max(0, Math.min(pageSize, total - start)) }, (_, i) => member(start + i));
  return new Response(JSON.stringify({ data, page, pageSize, total, totalPages: Math.ceil(total / pageSize) }), {
    headers: { 'content-type': 'application/json' },
  });
};
const client = new CommunityServerClient({ token: 'bench-token-0123456789', baseUrl: 'https://bench.test', fetch });
globalThis.gc();
let peak = process.memoryUsage().heapUsed;
let seen = 0;
for await (const m of client.members.list({ pageSize })) {
  if (++seen % (pageSize * 10) === 0) {
    globalThis.gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  if (m.id === undefined) throw new Error('no id');
}
if (seen !== total) throw new Error(`walked ${seen} of ${total}`);
console.log(JSON.stringify({ total, peakHeapBytes: peak }));
