/**
 * The cache and coalescing (issue 24), against the built package:
 * - a bot answering 10,000 `members.get` over 200 distinct members (50 handlers at once, each
 *   asking for a member drawn at random) from the HTTP mock, with `cache: { ttlMs: 5 min }`:
 *   requests sent ÷ distinct members (goal ≤ 1.05×); the same bot without the cache, for context
 *   (what coalescing alone saves);
 * - a cached hit against an in-memory uncached call of the same `members.get`, in the same
 *   rounds (goal ≥ 20× the calls per second): a hit skips the request, `JSON.parse` of the body
 *   and the schema, and parses the stored text once;
 * - an uncached call of this client against the client before coalescing (its commit built in
 *   this run), on an in-memory fetch (goal ≤ 1.05×): what always-on coalescing costs a call.
 * `BENCH_SMOKE=1`: 1,000 calls over 50 members, and a few rounds.
 *
 *   npm run bench:cache
 */
import { CommunityServerClient } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';
import { atRevision, BEFORE_CACHE } from './baseline';
import { format, interleave, row, runWhenMain, smoke, type Comparison } from './harness';

const TOKEN = 'cst_bench_token_0123456789';
const BASE_URL = 'https://bench.test';
const member = JSON.stringify({ id: 'm7', serverId: 'srv', username: 'm7', roles: ['r1', 'r2'], createdAt: 1_763_596_800 });
const memoryFetch = (async () => new Response(member, { headers: { 'content-type': 'application/json' } })) as typeof globalThis.fetch;

/** A seeded stream of numbers in [0, 1): the bot's draws are the same every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export interface BotRun {
  calls: number;
  distinct: number;
  /** Requests the mock received. */
  requests: number;
  ms: number;
}

/**
 * A bot: `handlers` loops at once, each answering calls of `members.get` for a member drawn at
 * random among `distinct`, until `calls` were answered; against the HTTP mock.
 */
export async function runBot({
  calls,
  distinct,
  handlers = 50,
  cache = true,
}: {
  calls: number;
  distinct: number;
  handlers?: number;
  cache?: boolean;
}) {
  // No rate limit: the bot's pace is the client's, and the mock counts what arrives.
  const mock = createMockApi({
    seed: 7,
    counts: { members: distinct },
    journal: { limit: calls + 100 },
    rateLimit: { limit: 1_000_000, windowMs: 1_000 },
  });
  const http = await startMockHttpServer({ mock });
  try {
    const ids = mock.store.main.members.all().map((one) => one.id);
    const client = new CommunityServerClient({
      token: mock.tokens.main,
      baseUrl: http.url,
      ...(cache ? { cache: { ttlMs: 5 * 60_000 } } : {}),
    });
    const draw = random(24);
    let left = calls;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: handlers }, async () => {
        while (left-- > 0) await client.members.get(ids[Math.floor(draw() * ids.length)]!);
      }),
    );
    const ms = performance.now() - started;
    return { calls, distinct: ids.length, requests: mock.requests.filter((request) => request.endpoint === 'members.get').length, ms };
  } finally {
    await http.close();
  }
}

export async function cacheBench(): Promise<Comparison[]> {
  const size = smoke ? { calls: 1_000, distinct: 50 } : { calls: 10_000, distinct: 200 };
  const cached = await runBot(size);
  const uncached = await runBot({ ...size, cache: false });
  const requests = row(
    `a bot answering ${size.calls.toLocaleString('en')} \`members.get\` over ${size.distinct} distinct members (50 at once), cache on: requests sent ÷ distinct members`,
    `${cached.requests} requests in ${Math.round(cached.ms)} ms`,
    `${cached.distinct} distinct members`,
    { median: cached.requests / cached.distinct, low: cached.requests / cached.distinct, high: cached.requests / cached.distinct },
    '≤ 1.05×',
  );
  const coalescedOnly: Comparison = {
    name: '↳ context: the same bot without the cache (coalescing alone): requests sent ÷ calls',
    value: `${uncached.requests} requests in ${Math.round(uncached.ms)} ms`,
    baseline: `${uncached.calls} calls`,
    ratio: {
      median: uncached.requests / uncached.calls,
      low: uncached.requests / uncached.calls,
      high: uncached.requests / uncached.calls,
    },
    goal: null,
    met: null,
  };

  const options = { token: TOKEN, baseUrl: BASE_URL, fetch: memoryFetch };
  const hitting = new CommunityServerClient({ ...options, cache: { ttlMs: 5 * 60_000 } });
  const plain = new CommunityServerClient(options);
  const unchecked = { ...options, validation: 'off' } as const;
  const hittingUnchecked = new CommunityServerClient({ ...unchecked, cache: { ttlMs: 5 * 60_000 } });
  const plainUnchecked = new CommunityServerClient(unchecked);
  await hitting.members.get('m7');
  await hittingUnchecked.members.get('m7');
  const before = await atRevision<{ CommunityServerClient: typeof CommunityServerClient }>(BEFORE_CACHE, 'src/index.ts');
  const old = 'module' in before ? new before.module.CommunityServerClient(options) : undefined;
  const run = await interleave(
    {
      hit: () => hitting.members.get('m7'),
      uncached: () => plain.members.get('m7'),
      hitUnchecked: () => hittingUnchecked.members.get('m7'),
      uncachedUnchecked: () => plainUnchecked.members.get('m7'),
      before: () => (old ?? plain).members.get('m7'),
    },
    { operations: 200 },
  );
  const rate = (side: 'hit' | 'uncached' | 'hitUnchecked' | 'uncachedUnchecked' | 'before') => format(run.rate(side), 'calls/s');
  const hit = row(
    '`members.get(id)`: a cached hit ÷ an in-memory uncached call (calls per second, same rounds)',
    rate('hit'),
    `uncached: ${rate('uncached')}`,
    run.rateRatio('hit', 'uncached'),
    '≥ 20×',
  );
  hit.note =
    'A hit parses the stored JSON text once (its own copy of the result) and skips the rest: no request, no `JSON.parse` of a body, ' +
    'no schema. The uncached call goes through the whole client on a fetch that answers from memory at once.';
  const hitUnchecked = row(
    "the same with `validation: 'off'` on both sides",
    rate('hitUnchecked'),
    `uncached: ${rate('uncachedUnchecked')}`,
    run.rateRatio('hitUnchecked', 'uncachedUnchecked'),
    '≥ 20×',
  );
  hitUnchecked.note =
    'A hit costs about the same with validation on or off (both rows); validation changes the divisor, ' +
    'the uncached call, and turning it off makes the ratio smaller. Where the ~10× of a trial and the 54–89× of earlier runs part: ' +
    'this harness times hits in rounds of 200 between rounds of the other sides, and their spread is wide (earlier runs: a median of 324,000 hits/s ' +
    'with a quartile at 57,000), where one loop of 20,000 hits, which pays the garbage collection of what each hit allocates ' +
    '(its promise, its own copy of the result, its call description), measured 15–20 µs a hit (50,000–65,000/s) before issue 31 cut the call path, ' +
    'and 5–8 µs of CPU a hit after (200,000 hits in one loop, on a VM loaded by other work). ' +
    'With the uncached call at ~140–210 µs in memory, a sustained loop of hits is ~7–14× faster: the figure the trial saw.';
  const overhead =
    'module' in before
      ? row(
          '`members.get(id)`, in-memory fetch, no cache: this client ÷ the client before coalescing (its commit built in this run)',
          rate('uncached'),
          `before coalescing (${BEFORE_CACHE.slice(0, 7)}): ${rate('before')}`,
          run.timeRatio('uncached', 'before'),
          '≤ 1.05×',
        )
      : {
          name: 'coalescing, uncached call ÷ before coalescing',
          value: before.missing,
          baseline: '—',
          ratio: null,
          goal: '≤ 1.05×',
          met: null,
        };
  return [requests, coalescedOnly, hit, hitUnchecked, overhead];
}

await runWhenMain(import.meta.url, cacheBench);
