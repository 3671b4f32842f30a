/**
 * Coalescing (issue 24, item 1), always on: identical GETs in flight at once are sent once and
 * share the answer; each caller gets its own copy, its own error, and its own abort; the shared
 * request is aborted when no caller is left.
 */
import {
  AbortError,
  CommunityServerClient,
  NotFoundError,
  ServiceUnavailableError,
  TimeoutError,
  type RequestEvent,
} from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { BASE_URL, TOKEN, clientWith, mockClient } from '../helpers';

/** A fetch that answers only when the test says, recording each request and whether its signal aborted. */
function heldFetch() {
  const requests: { url: string; signal: AbortSignal | null; answer: (response: Response) => void }[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const request = input instanceof Request ? input : new Request(input, init);
      request.signal.addEventListener('abort', () => reject(request.signal.reason as Error));
      requests.push({ url: request.url, signal: request.signal, answer: resolve });
    });
  const member = (id: string) => new Response(JSON.stringify(memberBody(id)), { headers: { 'content-type': 'application/json' } });
  return { fetch: fetch, requests, member };
}

const memberBody = (id: string) => ({
  id,
  serverId: 's1',
  userId: `u-${id}`,
  username: `user ${id}`,
  nickname: null,
  roles: ['r1'],
  createdAt: 1_700_000_000,
  lastSeenAt: null,
  avatarUrl: null,
});

/** Waits (up to 5 s) until `requests` has `n` entries: the requests a client has sent so far. */
async function sent(requests: readonly unknown[], n: number) {
  for (const deadline = Date.now() + 5_000; requests.length < n && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  expect(requests).toHaveLength(n);
}

describe('identical GETs in flight at once are sent once', () => {
  it('4 × members.get(id) at once: 1 request, 4 equal answers, each its own object; stats count 1 miss and 3 coalesced', async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    const id = mock.store.main.members.all()[0]!.id;
    mock.store.main.members.update(id, { roles: mock.store.main.roles.all().map((role) => role.id) });
    const answers = await Promise.all([1, 2, 3, 4].map(() => client.members.get(id)));
    expect(mock.requests.filter((r) => r.endpoint === 'members.get')).toHaveLength(1);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(new Set(answers).size).toBe(4);
    expect(new Set(answers.map((answer) => answer.roles)).size).toBe(4); // nested objects too
    (answers[0]!.roles as string[]).push('mutated');
    answers[1]!.username = 'changed';
    expect(answers[2]).toEqual(answers[3]);
    expect(answers[2]!.roles).not.toContain('mutated');
    expect(client.cache.stats()).toEqual({ hits: 0, misses: 1, coalesced: 3 });
  });

  it('pages of a list too: the query is part of what is identical, and a walk joins a page in flight', async () => {
    const mock = createMockApi({ counts: { members: 30 } });
    const client = mockClient(mock);
    const [a, b, c] = await Promise.all([
      client.members.list({ pageSize: 10 }),
      client.members.list({ pageSize: 10 }),
      client.members.list({ pageSize: 5 }),
    ]);
    expect(a.data).toEqual(b.data);
    expect(a.data).not.toBe(b.data);
    expect(c.data).toHaveLength(5);
    expect(mock.requests.map((r) => r.query)).toEqual([{ pageSize: '10' }, { pageSize: '5' }]);
    const walks = await Promise.all([client.members.list({ pageSize: 10 }).toArray(), client.members.list({ pageSize: 10 }).toArray()]);
    expect(walks[0]).toHaveLength(30);
    expect(walks[1]).toEqual(walks[0]);
    expect(mock.requests).toHaveLength(2 + 3); // each page of the two walks once
  });

  it('is not shared: a different id, timeout or maxRetries, a call with headers, a POST, or reload and no-store', async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    const [first, second] = mock.store.main.members.all().map((member) => member.id);
    await Promise.all([
      client.members.get(first!),
      client.members.get(second!),
      client.members.get(first!, { timeout: 5_000 }),
      client.members.get(first!, { maxRetries: 1 }),
      client.members.get(first!, { headers: { 'x-request-id': 'a' } }),
      client.members.get(first!, { headers: { 'x-request-id': 'a' } }),
      client.members.get(first!, { cache: 'reload' }),
      client.members.get(first!, { cache: 'no-store' }),
      client.tokens.create({ name: 'one' }),
      client.tokens.create({ name: 'one' }),
    ]);
    expect(mock.requests).toHaveLength(10);
    // A reload's request is one later calls may join.
    const reload = client.members.get(first!, { cache: 'reload' });
    const joined = client.members.get(first!);
    await Promise.all([reload, joined]);
    expect(mock.requests).toHaveLength(11);
  });

  it("one 'request' and one 'response' event for the request sent, none for the calls that joined it", async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    const events: RequestEvent[] = [];
    client.on('request', (event) => void events.push(event));
    await Promise.all([client.roles.list(), client.roles.list(), client.roles.list()]);
    expect(events).toHaveLength(1);
  });

  it('a call already aborted sends nothing and joins nothing: AbortError, as before', async () => {
    const { fetch, requests } = heldFetch();
    const client = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, rateLimit: 'off' });
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(client.members.get('m1', { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(requests).toHaveLength(0);
  });
});

describe("one caller's signal aborts only that caller", () => {
  it('the caller that started a request aborts, a joined caller takes the answer: stats count the request sent, once', async () => {
    const { fetch, requests, member } = heldFetch();
    const client = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, rateLimit: 'off' });
    const controller = new AbortController();
    const starter = client.members.get('m1', { signal: controller.signal }).catch((error: unknown) => error);
    const joined = client.members.get('m1');
    await sent(requests, 1);
    controller.abort();
    expect(await starter).toBeInstanceOf(AbortError);
    requests[0]!.answer(member('m1'));
    await expect(joined).resolves.toMatchObject({ id: 'm1' });
    expect(requests).toHaveLength(1);
    expect(client.cache.stats()).toEqual({ hits: 0, misses: 1, coalesced: 1 });
  });

  it('the others get the answer; the shared request goes on', async () => {
    const { fetch, requests, member } = heldFetch();
    const client = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, rateLimit: 'off' });
    const controller = new AbortController();
    const leaving = client.members.get('m1', { signal: controller.signal });
    const staying = client.members.get('m1');
    await sent(requests, 1);
    controller.abort(new Error('the user left'));
    const left = await leaving.catch((error: unknown) => error);
    expect(left).toBeInstanceOf(AbortError);
    expect((left as AbortError).cause).toEqual(new Error('the user left'));
    expect(requests[0]!.signal!.aborted).toBe(false);
    requests[0]!.answer(member('m1'));
    await expect(staying).resolves.toMatchObject({ id: 'm1' });
  });

  it('the shared request is aborted when the last caller leaves, and a later call sends its own', async () => {
    const { fetch, requests, member } = heldFetch();
    const client = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, rateLimit: 'off' });
    const controllers = [new AbortController(), new AbortController()];
    const calls = controllers.map(({ signal }) => client.members.get('m1', { signal }).catch((error: unknown) => error));
    await sent(requests, 1);
    controllers[0]!.abort();
    expect(requests[0]!.signal!.aborted).toBe(false);
    controllers[1]!.abort();
    expect(requests[0]!.signal!.aborted).toBe(true);
    for (const error of await Promise.all(calls)) expect(error).toBeInstanceOf(AbortError);
    const later = client.members.get('m1');
    await sent(requests, 2);
    requests[1]!.answer(member('m1'));
    await expect(later).resolves.toMatchObject({ id: 'm1' });
  });

  it("a caller's timeout is its own request's: calls with another timeout do not share, and the timed-out caller gets TimeoutError", async () => {
    const { fetch, requests, member } = heldFetch();
    const client = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, maxRetries: 0, rateLimit: 'off' });
    const impatient = client.members.get('m1', { timeout: 50 }).catch((error: unknown) => error);
    const patient = client.members.get('m1');
    await sent(requests, 2);
    expect(await impatient).toBeInstanceOf(TimeoutError);
    requests[1]!.answer(member('m1'));
    await expect(patient).resolves.toMatchObject({ id: 'm1' });
  });
});

describe('a failure reaches every caller as its own typed error', () => {
  it('same class and fields, its own object, stack, headers and details', async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    const errors = (await Promise.all(
      [1, 2, 3].map(() => client.members.get('nobody').catch((error: unknown) => error)),
    )) as NotFoundError[];
    expect(mock.requests).toHaveLength(1);
    for (const error of errors) {
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({
        status: 404,
        code: errors[0]!.code,
        message: errors[0]!.message,
        path: '/api/v1/server/members/nobody',
      });
      expect(error.name).toBe('NotFoundError');
    }
    expect(new Set(errors).size).toBe(3);
    expect(new Set(errors.map((error) => error.headers)).size).toBe(3);
    expect(errors[1]!.headers).toEqual(errors[0]!.headers);
    for (const error of errors) expect(Object.getOwnPropertyNames(error)).toContain('stack');
    expect(errors[1]!.stack).toMatch(/^NotFoundError: /);
  });

  it("a joined caller's error leads to its own call: its stack starts at the caller's line, not in the SDK", async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    const first = client.members.get('nobody').catch((error: unknown) => error);
    const lookUpNobody = () => client.members.get('nobody');
    const joined = (await lookUpNobody().catch((error: unknown) => error)) as NotFoundError;
    expect(await first).toBeInstanceOf(NotFoundError);
    expect(mock.requests).toHaveLength(1);
    expect(joined).toBeInstanceOf(NotFoundError);
    const [header, top] = joined.stack!.split('\n');
    expect(header).toBe(`NotFoundError: ${joined.message}`);
    expect(top).toMatch(/^ {4}at lookUpNobody \(.*coalescing\.test\.ts:\d+:\d+\)$/);
  });

  it('the caller that started a request left before it failed: the joined caller still gets a copy whose stack leads to its call', async () => {
    const { fetch, requests } = heldFetch();
    const client = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, rateLimit: 'off', maxRetries: 0 });
    const controller = new AbortController();
    const starter = client.members.get('m1', { signal: controller.signal }).catch((error: unknown) => error);
    const waitForMember = () => client.members.get('m1');
    const joined = waitForMember().catch((error: unknown) => error);
    await sent(requests, 1);
    controller.abort();
    expect(await starter).toBeInstanceOf(AbortError);
    requests[0]!.answer(new Response(JSON.stringify({ error: { code: 'not_found', message: 'no such member' } }), { status: 404 }));
    const error = (await joined) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.stack!.split('\n')[1]).toMatch(/^ {4}at waitForMember \(.*coalescing\.test\.ts:\d+:\d+\)$/);
    expect(client.cache.stats()).toEqual({ hits: 0, misses: 1, coalesced: 1 });
  });

  it("with Error.stackTraceLimit = 0, a copied error's stack is its header alone", async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      const [first, joined] = (await Promise.all(
        [1, 2].map(() => client.members.get('nobody').catch((error: unknown) => error)),
      )) as NotFoundError[];
      expect(mock.requests).toHaveLength(1);
      expect(first).toBeInstanceOf(NotFoundError);
      expect(joined!.stack).toBe(`NotFoundError: ${joined!.message}`);
    } finally {
      Error.stackTraceLimit = limit;
    }
  });

  it('a 503 after retries, to each caller: ServiceUnavailableError with its details; an error is never cached', async () => {
    const mock = createMockApi();
    const client = mockClient(mock, { cache: { ttlMs: 60_000 } });
    mock.faults.add({ endpoint: 'server.info', status: 503, times: 1 });
    const errors = await Promise.all([client.server.info(), client.server.info()].map((call) => call.catch((error: unknown) => error)));
    expect(errors[0]).toBeInstanceOf(ServiceUnavailableError);
    expect(errors[1]).toBeInstanceOf(ServiceUnavailableError);
    expect(errors[0]).not.toBe(errors[1]);
    await expect(client.server.info()).resolves.toBeDefined();
    expect(mock.requests).toHaveLength(2);
  });

  it('a fetch that throws strings, or an error whose cause is itself: each caller still gets a ConnectionError of its own', async () => {
    const looped = new Error('loop');
    (looped as { cause?: unknown }).cause = looped;
    for (const thrown of ['a string', looped]) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a hostile fetch: what it throws is the point
      const { client, requests } = clientWith(() => Promise.reject(thrown), { maxRetries: 0 });
      const errors = await Promise.all([1, 2].map(() => client.members.get('m1').catch((error: unknown) => error)));
      expect(requests).toHaveLength(1);
      expect(errors[0]).not.toBe(errors[1]);
      expect((errors[1] as Error).name).toBe('ConnectionError');
      expect((errors[1] as Error).message).toBe((errors[0] as Error).message);
    }
  });
});
