/**
 * Walks at the rate limit: 100 pages of the mock at `{ limit: 20, windowMs: 1000 }` and at
 * `{ limit: 25, windowMs: 5000 }`, by `for await` and by `toArray({ concurrency: 4 })`, against
 * the floor the limit sets, `(ceil(pages / limit) − 1) × window` (the last window's requests go
 * at once; every earlier window must run out). Goals: ≤ 1.25× at 1-second windows, ≤ 1.1× at
 * 5-second ones, and no 429.
 */
import { CommunityServerClient } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { format, row, runWhenMain, smoke, spread, type Comparison } from './harness';

type Mode = 'for await' | 'toArray({ concurrency: 4 })';

async function walkOnce(rateLimit: { limit: number; windowMs: number }, pages: number, mode: Mode) {
  const mock = createMockApi({ seed: 1, rateLimit, counts: { members: pages * 10 } });
  const statuses: number[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await mock.fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://bench.test', fetch });
  const start = performance.now();
  let items = 0;
  if (mode === 'for await') for await (const _ of client.members.list({ pageSize: 10 })) items++;
  else items = (await client.members.list({ pageSize: 10 }).toArray({ concurrency: 4 })).length;
  const ms = performance.now() - start;
  if (items !== pages * 10) throw new Error(`walked ${items} of ${pages * 10}`);
  return { ms, tooMany: statuses.filter((s) => s === 429).length };
}

export async function walksAtLimit(): Promise<Comparison[]> {
  const rows: Comparison[] = [];
  const cases = smoke
    ? [{ rateLimit: { limit: 5, windowMs: 200 }, pages: 10, rounds: 1, goal: '≤ 1.25×' }]
    : [
        { rateLimit: { limit: 20, windowMs: 1000 }, pages: 100, rounds: 3, goal: '≤ 1.25×' },
        { rateLimit: { limit: 25, windowMs: 5000 }, pages: 100, rounds: 1, goal: '≤ 1.1×' },
      ];
  for (const { rateLimit, pages, rounds, goal } of cases) {
    const floor = (Math.ceil(pages / rateLimit.limit) - 1) * rateLimit.windowMs;
    for (const mode of ['for await', 'toArray({ concurrency: 4 })'] as Mode[]) {
      const times: number[] = [];
      let tooMany = 0;
      for (let round = 0; round < rounds; round++) {
        const result = await walkOnce(rateLimit, pages, mode);
        times.push(result.ms);
        tooMany += result.tooMany;
      }
      const comparison = row(
        `\`${mode}\` over ${pages} pages at the limit, ${rateLimit.limit} per ${rateLimit.windowMs / 1000} s`,
        `${format(spread(times), 'ms')}; 429s: ${tooMany}`,
        `floor ${floor} ms`,
        spread(times.map((ms) => ms / floor)),
        goal,
      );
      if (tooMany > 0) comparison.met = false;
      rows.push(comparison);
    }
  }
  return rows;
}

await runWhenMain(import.meta.url, walksAtLimit);
