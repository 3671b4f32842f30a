/**
 * Heap a call keeps once it settled (issue 31's goal: ≤ 0.3 KB per call right after 20,000
 * sequential calls): `members.get(id)` on an in-memory fetch, the heap read after a forced full GC
 * before and after the calls. Beside it, for context, ky alone with the client's timeout on the
 * same fetch, and the SDK's figure once the runtime's finalizers ran (a GC, a turn of the event
 * loop, a GC again).
 *
 * What holds the bytes right after: not a timer of ours. Node's `Request` (undici) follows a
 * signal by a listener on it that a `FinalizationRegistry` removes once the `Request` is
 * collected, and the registry keeps the signal and that listener until its callback runs, in a
 * later task after the GC. ky builds each request with a signal of its own (timeout or not), then
 * its clone, and `fetch` a third from it: ~3 KB a call, gone after the finalizers ran.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import ky from 'ky';
import { CommunityServerClient, DEFAULTS } from 'community-server-sdk';
import { smoke, type Comparison } from './harness';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const TOKEN = 'cst_bench_token_0123456789';
const member = JSON.stringify({ id: 'm7', serverId: 'srv', username: 'm7', roles: ['r1'], createdAt: 1_763_596_800 });
const memoryFetch = (async () => new Response(member, { headers: { 'content-type': 'application/json' } })) as typeof globalThis.fetch;

const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const turn = () => new Promise((resolve) => setTimeout(resolve, 50));

/** Bytes per call still on the heap after `calls` sequential calls: right after, and once the finalizers ran. */
async function heldPerCall(call: () => Promise<unknown>, calls: number): Promise<{ rightAfter: number; finalized: number }> {
  for (let i = 0; i < Math.min(calls, 2_000); i++) await call(); // warm: compiled code, pools, caches
  for (let i = 0; i < 5; i++) await turn().then(gc);
  const before = heapUsed();
  for (let i = 0; i < calls; i++) await call();
  const rightAfter = (heapUsed() - before) / calls;
  for (let i = 0; i < 5; i++) await turn().then(gc);
  return { rightAfter, finalized: (heapUsed() - before) / calls };
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} KB/call`;

export async function callHeap(): Promise<Comparison[]> {
  const calls = smoke ? 200 : 20_000;
  const client = new CommunityServerClient({ token: TOKEN, baseUrl: 'https://bench.test', fetch: memoryFetch });
  const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
  const sdk = await heldPerCall(() => client.members.get('m7'), calls);
  const kyAlone = await heldPerCall(
    () => ky('https://bench.test/api/v1/server/members/m7', { headers, timeout: DEFAULTS.timeout, retry: 0, fetch: memoryFetch }).json(),
    calls,
  );
  const goal = 300;
  return [
    {
      name: `heap held right after ${calls.toLocaleString('en')} sequential \`members.get(id)\` calls (in-memory fetch, forced GC), per call`,
      value: kb(sdk.rightAfter),
      baseline: `ky alone, the same timeout: ${kb(kyAlone.rightAfter)}`,
      ratio: null,
      goal: `≤ ${goal / 1000} KB/call`,
      met: sdk.rightAfter <= goal,
      note:
        "Held by Node's `Request`, not by the client: each `Request` that follows a signal leaves the signal and a listener in undici's `FinalizationRegistry` " +
        'until its callback runs, a task after the GC that collects the `Request`. ky makes such a `Request` for every call (its own signal, timeout or not), ' +
        'its clone and the one `fetch` makes from it: ky alone holds as much. Once the finalizers ran the figure is the next row.',
    },
    {
      name: '↳ context: the same, once the finalizers ran (a GC, a turn of the event loop, a GC)',
      value: kb(sdk.finalized),
      baseline: `ky alone: ${kb(kyAlone.finalized)}`,
      ratio: null,
      goal: null,
      met: null,
    },
  ];
}
