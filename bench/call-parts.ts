/**
 * What each part of one call costs, in µs, on an in-memory fetch: the pieces ky does per call
 * (its `Request`, which follows its `AbortController`'s signal; the clone it keeps for retries;
 * its timeout race) beside a bare `Request`, a bare fetch, ky alone (with its timeout, without it,
 * and given a signal: what a signal of the SDK's own per attempt would cost) and the SDK. Context rows for
 * the overhead rows above them: they show where a call's time goes, and why ky's floor is where
 * it is. `bench/profile-call.mjs` takes a CPU profile of the same calls over loopback HTTP.
 */
import ky from 'ky';
import { CommunityServerClient } from 'community-server-sdk';
import { format, runWhenMain, smoke, spread, type Comparison } from './harness';

const URL_ = 'https://bench.test/api/v1/server/members?pageSize=100';
const HEADERS = { authorization: 'Bearer cst_bench_token_0123456789', accept: 'application/json' };
const BODY = JSON.stringify({ data: [], page: 1, pageSize: 100, total: 0, totalPages: 0 });
const memoryFetch = (async () => new Response(BODY, { headers: { 'content-type': 'application/json' } })) as typeof globalThis.fetch;

/** µs per operation over `n` sequential runs. */
async function micro(operation: () => unknown, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await operation();
  return ((performance.now() - start) / n) * 1000;
}

export async function callParts(): Promise<Comparison[]> {
  const client = new CommunityServerClient({
    token: 'cst_bench_token_0123456789',
    baseUrl: 'https://bench.test',
    fetch: memoryFetch,
    validation: 'off',
  });
  const signalled = new Request(URL_, { headers: HEADERS, signal: new AbortController().signal });
  const parts: [string, () => unknown][] = [
    ['`new Request(url, { headers })` (what a bare fetch builds)', () => new Request(URL_, { headers: HEADERS })],
    ['`new AbortController()`', () => new AbortController()],
    [
      '`new Request(url, { headers, signal })`: a Request that follows a signal (ky builds one, and fetch one more from it)',
      () => new Request(URL_, { headers: HEADERS, signal: new AbortController().signal }),
    ],
    ["`request.clone()` of such a Request (ky's copy for retries)", () => signalled.clone()],
    ["a timeout race: `setTimeout` + `clearTimeout` (ky's, per attempt)", () => clearTimeout(setTimeout(() => {}, 30_000))],
    ['bare in-memory fetch + `text()`', async () => (await memoryFetch(URL_, { headers: HEADERS })).text()],
    ['`ky(url, { headers, fetch }).text()`', () => ky(URL_, { headers: HEADERS, fetch: memoryFetch }).text()],
    [
      'the same with `timeout: false`: ky still makes its own controller, a `Request` that follows it and the clone',
      () => ky(URL_, { headers: HEADERS, fetch: memoryFetch, timeout: false }).text(),
    ],
    [
      'the same with `timeout: false` and a signal of the caller: ky links it to its own with `AbortSignal.any`',
      () => ky(URL_, { headers: HEADERS, fetch: memoryFetch, timeout: false, signal: new AbortController().signal }).text(),
    ],
    ["`members.list({ pageSize: 100 })`, `validation: 'off'`", () => client.members.list({ pageSize: 100 })],
  ];
  const n = smoke ? 50 : 5_000;
  const rounds = smoke ? 1 : 5;
  const times = new Map<string, number[]>(parts.map(([name]) => [name, []]));
  for (const [, operation] of parts) await micro(operation, n); // warm-up
  for (let round = 0; round < rounds; round++) for (const [name, operation] of parts) times.get(name)!.push(await micro(operation, n));
  return parts.map(([name]) => ({
    name: `↳ part of a call: ${name}`,
    value: format(spread(times.get(name)!), 'µs', 1),
    baseline: '—',
    ratio: null,
    goal: null,
    met: null,
  }));
}

await runWhenMain(import.meta.url, callParts);
