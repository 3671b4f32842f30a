/**
 * What events cost a call (issue 18), on an in-memory fetch, where nothing but the client costs:
 * - no listener, against the client of the commit before events and the fair gate, built from git
 *   in this run (goal: no measurable difference, ≤ 1.05× with the interquartile range spanning 1);
 * - a no-op listener on each of the four events, against no listener (context: what listening costs).
 *
 *   npx tsx bench/events.ts
 */
import { CommunityServerClient } from 'community-server-sdk';
import { atRevision, BEFORE_EVENTS } from './baseline';
import { format, interleave, row, runWhenMain, type Comparison } from './harness';

const TOKEN = 'cst_bench_token_0123456789';
const BASE_URL = 'https://bench.test';
const body = JSON.stringify({ id: 'm7', serverId: 'srv', roles: ['r1'], createdAt: 1_763_596_800 });
const fetch = (async () => new Response(body, { headers: { 'content-type': 'application/json' } })) as typeof globalThis.fetch;

export async function eventOverhead(): Promise<Comparison[]> {
  const options = { token: TOKEN, baseUrl: BASE_URL, fetch };
  const quiet = new CommunityServerClient(options);
  const listened = new CommunityServerClient(options);
  for (const name of ['request', 'response', 'retry', 'rateLimitWait'] as const) listened.on(name, () => {});
  const before = await atRevision<{ CommunityServerClient: typeof CommunityServerClient }>(BEFORE_EVENTS, 'src/index.ts');
  const old = 'module' in before ? new before.module.CommunityServerClient(options) : undefined;
  const run = await interleave(
    {
      quiet: () => quiet.members.get('m7'),
      listened: () => listened.members.get('m7'),
      before: () => (old ?? quiet).members.get('m7'),
    },
    { operations: 200 },
  );
  const perCall = (side: 'quiet' | 'listened' | 'before') => format(run.rate(side), 'calls/s');
  const noListener =
    'module' in before
      ? row(
          '`members.get(id)`, in-memory fetch, no listener: this client ÷ the client before events (its commit built in this run)',
          perCall('quiet'),
          `before events (${BEFORE_EVENTS.slice(0, 7)}): ${perCall('before')}`,
          run.timeRatio('quiet', 'before'),
          '≤ 1.05×',
        )
      : { name: 'events, no listener ÷ before events', value: before.missing, baseline: '—', ratio: null, goal: '≤ 1.05×', met: null };
  noListener.note =
    'With no listener a call reads one flag and builds no payload; this row compares whole calls of the client with events, ' +
    'the fair gate and its own retry loop against the client before them, so it also bounds what those cost a call.';
  return [
    noListener,
    {
      name: '↳ context: the same with a no-op listener on each of the four events ÷ no listener',
      value: perCall('listened'),
      baseline: `no listener: ${perCall('quiet')}`,
      ratio: run.timeRatio('listened', 'quiet'),
      goal: null,
      met: null,
    },
  ];
}

await runWhenMain(import.meta.url, eventOverhead);
