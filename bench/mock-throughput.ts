/**
 * `mock.fetch` list requests per second: a store of 1k members against one of 100k (the goal:
 * the big store at ≥ 0.8× the small one's rate, since a list costs O(page)), and against a bare
 * `getResponse` over a single handler returning a canned page (goal ≥ 0.5×: what the mock adds
 * to msw). Goal for the absolute rate on this machine: ≥ 5,000 list requests/s.
 *
 *   npx tsx --tsconfig tsconfig.test.json bench/mock-throughput.ts
 */
import { getResponse, http } from 'msw';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { formatRate, measure, smoke, type Rate } from './harness';

const options = smoke ? { rounds: 1, operations: 50, warmup: 10 } : { rounds: 9, operations: 3000 };

/** Walks pages 1..20 of the members list, newest first, as a dashboard would. */
const listRequests = (mock: MockApi) => {
  const init = { headers: { authorization: `Bearer ${mock.tokens.main}` } };
  return async (i: number) => {
    const response = await mock.fetch(`https://community.test/api/v1/server/members?page=${(i % 20) + 1}`, init);
    await response.json();
  };
};

export async function mockThroughput() {
  const small = createMockApi({ seed: 1, counts: { members: 1_000 } });
  const big = createMockApi({ seed: 1, counts: { members: 100_000 } });

  // The baseline: msw alone, one handler, a canned page of the same size.
  const canned = JSON.stringify(await (await small.fetch('https://community.test/api/v1/server/members', { headers: { authorization: `Bearer ${small.tokens.main}` } })).json());
  const bare = [http.get('*/api/v1/server/members', () => new Response(canned, { headers: { 'content-type': 'application/json' } }))];
  const bareRequest = async (i: number) => {
    const response = await getResponse(bare, new Request(`https://community.test/api/v1/server/members?page=${(i % 20) + 1}`));
    await response!.json();
  };

  // Interleave the measures so drift in the machine's load hits all of them alike; report the
  // middle pass of each.
  const rates: Record<'bare' | 'small' | 'big', Rate[]> = { bare: [], small: [], big: [] };
  for (let pass = 0; pass < 3; pass++) {
    rates.bare.push(await measure(bareRequest, options));
    rates.small.push(await measure(listRequests(small), options));
    rates.big.push(await measure(listRequests(big), options));
  }
  const middle = (list: Rate[]) => [...list].sort((a, b) => a.median - b.median)[list.length >> 1]!;
  return { bare: middle(rates.bare), small: middle(rates.small), big: middle(rates.big) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { bare, small, big } = await mockThroughput();
  console.log(`bare getResponse, 1 handler   ${formatRate(bare)}`);
  console.log(`mock.fetch, 1k members        ${formatRate(small)}   ${(small.median / bare.median).toFixed(2)}× bare (goal ≥ 0.5×)`);
  console.log(`mock.fetch, 100k members      ${formatRate(big)}   ${(big.median / small.median).toFixed(2)}× 1k (goal ≥ 0.8×)`);
}
