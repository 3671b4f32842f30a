/**
 * A mock whose `fetch` is wrapped (to count or change what it answers, as bench/fleet.ts's
 * `countingMock` and test/redis/rate-limit-store.test.ts do) is served over HTTP through its wrapper: the HTTP
 * server answers through the mock's pipeline directly only when `mock.fetch` is the mock's own.
 */
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';
import { expect, it } from 'vitest';

it('startMockHttpServer serves a mock with a wrapped fetch through the wrapper, network faults included', async () => {
  const inner = createMockApi({ seed: 1 });
  const seen: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    seen.push(`${init?.method ?? 'GET'} ${typeof input === 'string' ? input : input instanceof URL ? input.href : input.url}`);
    return inner.fetch(input, init);
  };
  const mock = Object.create(inner, { fetch: { value: fetch } }) as MockApi;
  const http = await startMockHttpServer({ mock });
  try {
    const url = `${http.url}/api/v1/server/members?pageSize=2`;
    const init = { headers: { authorization: `Bearer ${inner.tokens.main}` } };
    const response = await globalThis.fetch(url, init);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(2);
    expect(seen).toEqual([`GET ${url}`]);
    inner.faults.add({ endpoint: 'members.list', network: true, times: 1 });
    await expect(globalThis.fetch(url, init)).rejects.toThrow(TypeError);
    expect(seen).toHaveLength(2);
    expect(inner.requests.map((row) => row.status)).toEqual([200, 0]);
  } finally {
    await http.close();
  }
});
