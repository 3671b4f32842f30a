/**
 * `client.withOptions(options)` (issue 31): a client with those options over the same rate-limit
 * gate, cache, coalescing, listeners and observers; the shared state (`token`, `baseUrl`,
 * `rateLimit`, `cache`) cannot be given; bad options are refused before any request.
 */
import { CommunityServerClient, InvalidArgumentError, TimeoutError, type RateLimitWaitEvent } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { BASE_URL, TOKEN, clientWith, json, member, mockClient } from '../helpers';

describe('a client from withOptions shares its parent’s state', () => {
  it('the cache: what one stored the other reads, an invalidation by either drops it for both', async () => {
    const mock = createMockApi();
    const id = mock.store.main.members.all()[0]!.id;
    const parent = mockClient(mock, { cache: { ttlMs: 60_000 } });
    const child = parent.withOptions({ timeout: 5_000 });
    await parent.members.get(id);
    await child.members.get(id);
    expect(child.cache.stats()).toEqual({ hits: 1, misses: 1, coalesced: 0 });
    expect(parent.cache).toBe(child.cache);
    await child.cache.invalidate('members');
    await parent.members.get(id);
    expect(mock.requests.filter((request) => request.endpoint === 'members.get')).toHaveLength(2);
  });

  it('coalescing: identical GETs of both, in flight at once, are sent once', async () => {
    const { client, requests } = clientWith(() => new Promise<Response>((resolve) => setTimeout(() => resolve(json(member('m1'))), 50)));
    const child = client.withOptions({ validation: 'warn' });
    const [a, b] = await Promise.all([client.members.get('m1'), child.members.get('m1')]);
    expect(a).toEqual(member('m1'));
    expect(b).toEqual(member('m1'));
    expect(requests).toHaveLength(1);
    expect(client.cache.stats().coalesced).toBe(1);
  });

  it('the rate-limit gate: a window the parent spent holds the child’s request too', async () => {
    const mock = createMockApi({ rateLimit: { limit: 2, windowMs: 600 } });
    const parent = mockClient(mock);
    const child = parent.withOptions({ maxRetries: 0 });
    const waits: RateLimitWaitEvent[] = [];
    parent.on('rateLimitWait', (event) => waits.push(event));
    await parent.members.list();
    await parent.roles.list();
    const started = performance.now();
    await child.members.list({ pageSize: 5 }); // held until the window resets: no 429
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect(mock.requests.filter((request) => request.status === 429)).toHaveLength(0);
    // The parent's listener heard the child's wait: listeners are shared too.
    expect(waits.map((wait) => wait.endpoint)).toEqual(['members.list']);
  });

  it('listeners and observers: added on either, they hear both', async () => {
    const { client } = clientWith(() => json(member('m1')));
    const child = client.withOptions({ timeout: 1_000 });
    const heard: string[] = [];
    child.on('response', ({ path }) => heard.push(`listener ${path}`));
    client.observe((call) => void heard.push(`observer ${call.path}`));
    await client.members.get('m1');
    await child.members.get('m2');
    expect(heard.sort()).toEqual([
      'listener /api/v1/server/members/m1',
      'listener /api/v1/server/members/m2',
      'observer /api/v1/server/members/m1',
      'observer /api/v1/server/members/m2',
    ]);
  });
});

describe('its own options', () => {
  it('replace the parent’s, which keeps its own', async () => {
    const slow = () => new Promise<Response>((resolve) => setTimeout(() => resolve(json(member('m1'))), 120));
    const { client } = clientWith(slow, { maxRetries: 0 });
    const hasty = client.withOptions({ timeout: 40 });
    await expect(hasty.members.get('m1')).rejects.toBeInstanceOf(TimeoutError);
    await expect(client.members.get('m1')).resolves.toEqual(member('m1'));
    // And a grandchild starts from its parent's.
    await expect(hasty.withOptions({ maxRetries: 0 }).members.get('m2')).rejects.toBeInstanceOf(TimeoutError);
  });

  it('is a CommunityServerClient, with every namespace', () => {
    const client = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL });
    const child = client.withOptions({});
    expect(child).toBeInstanceOf(CommunityServerClient);
    expect(typeof child.departments.members.get).toBe('function');
  });

  it.each([
    [{ token: 'cs_other_token_123' }, /withOptions cannot set token/],
    [{ baseUrl: 'https://other.test' }, /withOptions cannot set baseUrl/],
    [{ rateLimit: 'off' }, /withOptions cannot set rateLimit/],
    [{ cache: { ttlMs: 5 } }, /withOptions cannot set cache/],
    [{ timeout: 0 }, /timeout must be a number of milliseconds/],
    [{ deadline: -1 }, /deadline must be a number of milliseconds/],
    [{ logLevel: 'loud' }, /logLevel must be one of/],
    [{ retries: 2 }, /unknown withOptions option "retries"/],
    ['fast', /withOptions options must be an object/],
  ])('%j is refused', (options, message) => {
    const { client, requests } = clientWith(() => json(member('m1')));
    expect(() => client.withOptions(options as never)).toThrow(InvalidArgumentError);
    expect(() => client.withOptions(options as never)).toThrow(message);
    expect(requests).toHaveLength(0);
  });
});
