/**
 * `mock.fetch` list requests per second:
 * - a store of 100k members against one of 1k (goal ≥ 0.8×: a list costs O(page), not O(table));
 * - the 1k store against a bare msw `getResponse` over one handler returning a canned page of
 *   the same size (goal ≥ 0.5×: what the mock adds to msw itself).
 * Issue 3 also set an absolute goal of 5,000 list requests/s on the development machine; the
 * bare `getResponse` row shows what msw alone reaches on the same machine in the same run.
 *
 *   npx tsx bench/mock-throughput.ts
 */
import { getResponse, http } from 'msw';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { format, interleave, row, runWhenMain, type Comparison } from './harness';

/** Walks pages 1..20 of the members list, newest first, as a dashboard would. */
const listRequests = (mock: MockApi) => {
  const init = { headers: { authorization: `Bearer ${mock.tokens.main}` } };
  return async (i: number) => {
    const response = await mock.fetch(`https://community.test/api/v1/server/members?page=${(i % 20) + 1}`, init);
    await response.json();
  };
};

export async function mockThroughput(): Promise<Comparison[]> {
  const small = createMockApi({ seed: 1, counts: { members: 1_000 } });
  const big = createMockApi({ seed: 1, counts: { members: 100_000 } });

  // The baseline: msw alone, one handler, a canned page of the same size.
  const first = await small.fetch('https://community.test/api/v1/server/members', {
    headers: { authorization: `Bearer ${small.tokens.main}` },
  });
  const canned = await first.text();
  const bare = [http.get('*/api/v1/server/members', () => new Response(canned, { headers: { 'content-type': 'application/json' } }))];
  const bareRequest = async (i: number) => {
    const response = await getResponse(bare, new Request(`https://community.test/api/v1/server/members?page=${(i % 20) + 1}`));
    await response!.json();
  };

  const run = await interleave({ big: listRequests(big), small: listRequests(small), bare: bareRequest }, { rounds: 40, operations: 100 });
  const rate = (side: 'big' | 'small' | 'bare') => format(run.rate(side), 'req/s');
  const overMswRow = row(
    '`mock.fetch` list requests/s, 1k-member store',
    rate('small'),
    `bare msw \`getResponse\`, one canned handler: ${rate('bare')}`,
    run.rateRatio('small', 'bare'),
    '≥ 0.5×',
  );
  const [absolute, msw] = [run.rate('small').median, run.rate('bare').median];
  overMswRow.note =
    `${Math.round(absolute)} list requests/s against issue 3's absolute goal of 5,000 on this machine (${absolute >= 5000 ? 'met' : 'missed'}). ` +
    `msw's own \`getResponse\` over a single canned handler reaches ${Math.round(msw)}/s here, so msw sets the ceiling: ` +
    'it parses cookies and compiles the handler path per request, and the mock adds auth, paging and the JSON body on top.';
  return [
    row(
      '`mock.fetch` list requests/s, 100k-member store',
      rate('big'),
      `1k-member store: ${rate('small')}`,
      run.rateRatio('big', 'small'),
      '≥ 0.8×',
    ),
    overMswRow,
  ];
}

await runWhenMain(import.meta.url, mockThroughput);
