// Opens, uses once and closes `N` sessions (argv[2]) on an HTTP mock served in this process, and
// prints the live heap before and after: `heapUsed` right after full collections (run with
// --expose-gc). Twenty sessions first, not counted, so what is compiled or kept once (the root's
// world, the code) is in both figures.
import { setImmediate as turn } from 'node:timers/promises';
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';

const total = Number(process.argv[2]);
const http = await startMockHttpServer({ mock: createMockApi({ seed: 1 }) });
const headers = { authorization: `Bearer ${http.adminToken}` };

async function cycle(count) {
  for (let i = 0; i < count; i++) {
    const opened = await fetch(`${http.url}/__mock/sessions`, { method: 'POST', headers });
    const { id, baseUrl, tokens } = await opened.json();
    const listed = await fetch(`${baseUrl}/api/v1/server/members`, { headers: { authorization: `Bearer ${tokens.main}` } });
    await listed.arrayBuffer();
    await (await fetch(`${http.url}/__mock/sessions/${id}`, { method: 'DELETE', headers })).arrayBuffer();
  }
}

/** The live heap: after the loop has turned (undici frees per-request state between macrotasks) and full collections. */
async function liveHeap() {
  for (let i = 0; i < 5; i++) await turn();
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

await cycle(20);
const before = await liveHeap();
await cycle(total);
const after = await liveHeap();
await http.close();
console.log(JSON.stringify({ before, after }));
