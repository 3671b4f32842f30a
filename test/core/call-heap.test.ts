/**
 * What a settled call leaves on the heap (issue 31): at most 0.3 KB per call once the runtime's
 * finalizers ran, for a plain call and for one with a deadline on a long-lived signal (its timer
 * and its listener on that signal released when it settles). Right after the calls, Node's own
 * `Request` keeps ~3 KB each in undici's `FinalizationRegistry` until its callbacks run, with ky
 * alone as with the client: bench/call-heap.ts reports both figures.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CommunityServerClient } from 'community-server-sdk';
import { expect, it } from 'vitest';
import { BASE_URL, TOKEN } from '../helpers';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CALLS = 3_000;
const MAX_BYTES_PER_CALL = 300;

const body = JSON.stringify({ id: 'm7', serverId: 'srv', username: 'm7', roles: [], createdAt: 1_763_596_800 });
const client = new CommunityServerClient({
  token: TOKEN,
  baseUrl: BASE_URL,
  fetch: async () => new Response(body, { headers: { 'content-type': 'application/json' } }),
});

/** The heap after a full GC, once the finalizers a GC schedules have run and been collected in turn. */
async function settledHeap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  gc();
  return process.memoryUsage().heapUsed;
}

async function bytesPerCall(call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 500; i++) await call();
  const before = await settledHeap();
  for (let i = 0; i < CALLS; i++) await call();
  return ((await settledHeap()) - before) / CALLS;
}

it('a settled call keeps at most 0.3 KB', async () => {
  expect(await bytesPerCall(() => client.members.get('m7'))).toBeLessThan(MAX_BYTES_PER_CALL);
}, 60_000);

it('a call with a deadline on a long-lived signal keeps at most 0.3 KB: its timer and its listener are released', async () => {
  const longLived = new AbortController();
  expect(await bytesPerCall(() => client.members.get('m7', { signal: longLived.signal, deadline: 600_000 }))).toBeLessThan(
    MAX_BYTES_PER_CALL,
  );
}, 60_000);
