/**
 * Proactive rate limiting (`rateLimit: 'wait'`, the default): the client reads
 * `X-RateLimit-Remaining`/`Reset` and waits for the window to reset rather than taking a 429.
 * Checked against the mock's real rate limiter, counting every status on the wire.
 */
import { AbortError, CommunityServerClient, RateLimitError } from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';

/** A client on `mock.fetch` that tallies the statuses it receives. */
function counted(mock: MockApi, options: ConstructorParameters<typeof CommunityServerClient>[0] = {}) {
  const statuses: number[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await mock.fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://community.test', fetch: fetch as typeof globalThis.fetch, ...options });
  return { client, statuses, count: (status: number) => statuses.filter((s) => s === status).length };
}

describe("rateLimit: 'wait'", () => {
  it('walks every page with toArray at concurrency 4 and never takes a 429', async () => {
    const mock = createMockApi({ rateLimit: { limit: 8, windowMs: 1000 } });
    const { client, statuses, count } = counted(mock);
    const members = await client.members.list({ pageSize: 10 }).toArray({ concurrency: 4 });
    expect(members).toHaveLength(mock.store.main.members.size);
    expect(statuses).toHaveLength(Math.ceil(mock.store.main.members.size / 10));
    expect(count(429)).toBe(0);
  }, 30_000);

  it('walks page by page with for await, and several lists in parallel, without a 429', async () => {
    const mock = createMockApi({ rateLimit: { limit: 5, windowMs: 1000 } });
    const { client, count } = counted(mock);
    let seen = 0;
    for await (const _ of client.logs.list({ pageSize: 50 })) seen++;
    const [roles, departments] = await Promise.all([client.roles.list({ pageSize: 2 }).toArray(), client.departments.list({ pageSize: 1 }).toArray({ concurrency: 3 })]);
    expect(seen).toBe(mock.store.main.logs.size);
    expect(roles).toHaveLength(mock.store.main.roles.size);
    expect(departments).toHaveLength(mock.store.main.departments.size);
    expect(count(429)).toBe(0);
  }, 30_000);

  it("with rateLimit: 'off' the same walk runs into 429s (and retries through them)", async () => {
    const mock = createMockApi({ rateLimit: { limit: 8, windowMs: 1000 } });
    const { client, count } = counted(mock, { rateLimit: 'off', maxRetries: 10 });
    const members = await client.members.list({ pageSize: 10 }).toArray({ concurrency: 4 });
    expect(members).toHaveLength(mock.store.main.members.size);
    expect(count(429)).toBeGreaterThan(0);
  }, 30_000);

  it('fails fast with RateLimitError, sending nothing, when the wait would outlast the timeout', async () => {
    const mock = createMockApi({ rateLimit: { limit: 2, windowMs: 60_000 } });
    const { client, statuses } = counted(mock, { timeout: 2_000 });
    await client.roles.list();
    await client.roles.list();
    const start = performance.now();
    const error = await client.roles.list().catch((e: unknown) => e);
    expect(performance.now() - start).toBeLessThan(200);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_wait_exceeds_timeout' });
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(2);
    expect(statuses).toEqual([200, 200]);
  });

  it('a wait is cut short by abort', async () => {
    const mock = createMockApi({ rateLimit: { limit: 1, windowMs: 60_000 } });
    const { client, statuses } = counted(mock, { timeout: 120_000 });
    await client.roles.list();
    const controller = new AbortController();
    const pending = client.roles.list({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(statuses).toEqual([200]);
  });

  it('does nothing against a service that sends no rate-limit headers', async () => {
    const mock = createMockApi();
    const { client, count } = counted(mock);
    const start = performance.now();
    await client.members.list({ pageSize: 10 }).toArray({ concurrency: 8 });
    expect(performance.now() - start).toBeLessThan(2_000);
    expect(count(200)).toBe(Math.ceil(mock.store.main.members.size / 10));
  });

  it('refuses an unknown mode', () => {
    expect(() => new CommunityServerClient({ token: 't', baseUrl: 'https://x.test', rateLimit: 'queue' as never })).toThrow(/rateLimit must be 'wait' or 'off'/);
  });
});
