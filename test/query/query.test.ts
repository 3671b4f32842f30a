/**
 * `community-server-sdk/query` through TanStack's own `@tanstack/query-core` (`QueryClient`,
 * `QueryObserver`, `InfiniteQueryObserver`, `MutationObserver`) against the in-process mock:
 * every GET of the endpoint table and both writes, the keys, cancellation, and the arguments it
 * refuses. Live lists have their own file (live.test.ts).
 */
import { InfiniteQueryObserver, MutationObserver, QueryClient, QueryObserver, type QueryObserverResult } from '@tanstack/query-core';
import { CommunityServerClient, InvalidArgumentError, NotFoundError, Page, ServiceUnavailableError } from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { queries, type EndpointInfiniteQueryOptions, type EndpointQueryOptions, type Queries } from 'community-server-sdk/query';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endpointsOf } from '../../src/core/endpoint';
import { resources } from '../../src/resources/index';
import { MOCK_ORIGIN, mockClient } from '../helpers';
import { endpointOf, firstPage, pick, plain, rows, type Ids } from '../mock/engine/api/contract-rows';

const mock = createMockApi({ seed: 11 });
const client = mockClient(mock);
const q = queries(client);
/** The default scope of `q`'s keys: the client's base URL, then a digest of base URL and token (issue 30, item 5). */
const scope = q.key()[1];
let queryClient: QueryClient;
let ids: Ids;

/** The tree's member at a dotted name (`cad.calls.listInfinite`), as one whose type the test names. */
const member = <Options = EndpointQueryOptions<unknown>>(tree: Queries, name: string) =>
  name.split('.').reduce<any>((node, key) => node[key], tree) as (...args: unknown[]) => Options;
/** The tokens of a `tokens.list` answer (an array in the mock; the spec leaves the shape open). */
const tokensOf = (list: unknown) => list as { id: string; active: boolean }[];
const listRequests = (endpoint: string) => mock.requests.filter((request) => request.endpoint === endpoint).length;
const settled = { timeout: 10_000, interval: 2 };

/** Subscribes `observer` until its query has settled; returns the result and unsubscribes. */
async function settle<R extends QueryObserverResult<unknown, unknown>>(observer: {
  subscribe(listener: () => void): () => void;
  getCurrentResult(): R;
}): Promise<R> {
  const unsubscribe = observer.subscribe(() => {});
  try {
    await vi.waitFor(() => expect(observer.getCurrentResult()).toMatchObject({ fetchStatus: 'idle', isPending: false }), settled);
    return observer.getCurrentResult();
  } finally {
    unsubscribe();
  }
}

beforeEach(() => {
  mock.reset();
  ids = pick(mock.store);
  queryClient = new QueryClient();
});
afterEach(() => queryClient.clear());

const writes = ['tokens.create', 'tokens.deactivate'];
const gets = rows.filter((row) => !writes.includes(row.name));

describe('every GET of the endpoint table, through QueryObserver', () => {
  it('covers the table: 62 GETs, each a member of the tree, and the two writes', () => {
    const table = endpointsOf(resources);
    expect(gets).toHaveLength(62);
    expect(table.filter(({ endpoint }) => endpoint.method === 'GET').map(({ name }) => name)).toEqual(
      expect.arrayContaining(gets.map((row) => row.name)),
    );
    expect(table.filter(({ endpoint }) => endpoint.method !== 'GET').map(({ name }) => name)).toEqual(writes);
    for (const { name } of table) expect(typeof member(q, name), name).toBe('function');
  });

  it.each(gets.map((row) => [row.n, row.name, row] as const))('#%i %s answers as the client does', async (_, name, row) => {
    const result = await settle(new QueryObserver(queryClient, member(q, name)(...row.args(ids))));
    expect(result.error).toBeNull();
    const isList = endpointOf(row).kind === 'page';
    expect(result.data instanceof Page).toBe(isList);
    const expected = row.expect(mock.store, ids);
    expect(plain(result.data)).toEqual(isList ? firstPage(expected as unknown[]) : expected);
  });
});

describe('every list, through InfiniteQueryObserver', () => {
  const lists = gets.filter((row) => endpointOf(row).kind === 'page');

  it('there are 29 lists', () => expect(lists).toHaveLength(29));

  it.each(lists.map((row) => [row.n, row.name, row] as const))(
    '#%i %s: pages 1..totalPages, every row once in order, not one request past the end',
    async (_, name, row) => {
      const args = row.args(ids);
      const options = member<EndpointInfiniteQueryOptions<unknown>>(q, `${name}Infinite`)(...args, { pageSize: 7 });
      const observer = new InfiniteQueryObserver(queryClient, options);
      const unsubscribe = observer.subscribe(() => {});
      try {
        let result = observer.getCurrentResult();
        await vi.waitFor(() => expect((result = observer.getCurrentResult()).isSuccess).toBe(true), settled);
        while (result.hasNextPage) result = await result.fetchNextPage();
        const all = row.expect(mock.store, ids) as unknown[];
        const pages = result.data!.pages;
        expect(pages.map((page) => page.page)).toEqual(Array.from({ length: Math.max(1, Math.ceil(all.length / 7)) }, (__, i) => i + 1));
        expect(plain(pages.flatMap((page) => page.data))).toEqual(plain(all));
        expect(listRequests(name)).toBe(pages.length);
        expect(observer.getCurrentResult().hasNextPage).toBe(false);
      } finally {
        unsubscribe();
      }
    },
  );

  it('starts at params.page, and an empty page ends the list whatever totalPages claims', async () => {
    const observer = new InfiniteQueryObserver(queryClient, q.members.listInfinite({ pageSize: 10, page: 3 }));
    const result = await settle(observer);
    expect(result.data!.pages.map((page) => page.page)).toEqual([3]);
    const options = q.members.listInfinite();
    const empty = new Page({ data: [], page: 4, pageSize: 10, total: 1e9, totalPages: 1e8 }, () => undefined as never);
    expect(options.getNextPageParam(empty)).toBeUndefined();
    // A page restored from JSON (dehydrated) has no methods: the next page is read from its fields.
    expect(options.getNextPageParam(plain(result.data!.pages[0]) as Page<never>)).toBe(4);
  });
});

describe('issue 30 hardening 3: item 7 — a list that grows while it is paged gives each item once', () => {
  it('members join between pages: the pages repeat some, data.items has each once, in order, and the newest page the total now', async () => {
    const observer = new InfiniteQueryObserver(queryClient, q.members.listInfinite({ pageSize: 5 }));
    const unsubscribe = observer.subscribe(() => {});
    try {
      await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true), settled);
      const before = observer.getCurrentResult().data!;
      const newest = before.pages[0]!.data[0]!.createdAt;
      for (let joined = 1; joined <= 3; joined++) mock.store.main.members.create({ createdAt: newest + joined });
      let result = await observer.fetchNextPage();
      result = await result.fetchNextPage();

      const { pages, items } = result.data!;
      const rows = pages.flatMap((page) => page.data.map((row) => row.id));
      expect(rows).toHaveLength(15);
      expect(new Set(rows).size).toBe(12); // page 2 starts with 3 members of page 1
      const now = (await client.members.list({ pageSize: 15 })).data.map((row) => row.id);
      const expected = [...before.pages[0]!.data.map((row) => row.id), ...now.slice(5, 15)].filter(
        (id, index, all) => all.indexOf(id) === index,
      );
      expect(items.map((row) => row.id)).toEqual(expected);
      expect(items).toHaveLength(12);
      // The first page's total is as old as it; the newest page's is the list's now.
      expect(pages[0]!.total).toBe(mock.store.main.members.size - 3);
      expect(pages.at(-1)!.total).toBe(mock.store.main.members.size);
    } finally {
      unsubscribe();
    }
  });

  it('by each list’s own id field (join requests: userId); one select per list, for TanStack to memoise', () => {
    const page = (data: object[], number: number) =>
      new Page({ data, page: number, pageSize: 2, total: 4, totalPages: 2 }, () => undefined as never);
    const view = q.joinRequests.listInfinite().select({
      pages: [page([{ userId: 'a', id: 1 }, { userId: 'b' }], 1), page([{ userId: 'b', id: 2 }, { userId: 'c' }, {}, {}], 2)],
      pageParams: [1, 2],
    } as never);
    // Items without the field are not told apart (the schema requires it): the first stands for them.
    expect(view.items).toEqual([{ userId: 'a', id: 1 }, { userId: 'b' }, { userId: 'c' }, {}]);
    expect(view.pages).toHaveLength(2);
    expect(q.members.listInfinite({ pageSize: 5 }).select).toBe(q.members.listInfinite().select);
  });
});

describe('attack pass: live lists', () => {
  it('a live list whose items lack their id (validation off, a service that drops it) does not grow with each refetch', async () => {
    const body = { data: [{ text: 'a' }, { text: 'b' }], page: 1, pageSize: 2, total: 2, totalPages: 1 };
    const bare = new CommunityServerClient({
      token: 'cs_test_bare',
      baseUrl: 'https://bare.test',
      validation: 'off',
      maxRetries: 0,
      fetch: async () => Response.json(body),
    });
    const observer = new QueryObserver(queryClient, queries(bare).logs.listLive(undefined, { intervalMs: 60_000 }));
    const unsubscribe = observer.subscribe(() => {});
    try {
      await vi.waitFor(() => expect(observer.getCurrentResult().data).toBeDefined(), settled);
      const lengths = [observer.getCurrentResult().data!.data.length];
      for (let n = 0; n < 2; n++) lengths.push((await observer.refetch()).data!.data.length);
      expect(lengths).toEqual([1, 1, 1]);
    } finally {
      unsubscribe();
    }
  });
});

describe('both writes, through MutationObserver', () => {
  it('tokens.create(): mutate(body) creates the token, and the token queries show it before the mutation settles', async () => {
    const list = new QueryObserver(queryClient, q.tokens.list());
    const unsubscribe = list.subscribe(() => {});
    await vi.waitFor(() => expect(list.getCurrentResult().isSuccess).toBe(true), settled);
    const before = tokensOf(list.getCurrentResult().data).length;
    const membersQuery = await settle(new QueryObserver(queryClient, q.members.list()));
    expect(membersQuery.isSuccess).toBe(true);

    const created = await new MutationObserver(queryClient, q.tokens.create()).mutate({ name: 'dashboard', expiresInDays: 7 });
    expect(created).toMatchObject({ name: 'dashboard', active: true });
    expect(created.token).toEqual(expect.any(String));
    // Invalidated and refetched before mutate() resolved: the list already holds the new token.
    expect(tokensOf(list.getCurrentResult().data).map((token) => token.id)).toContain(created.id);
    expect(tokensOf(list.getCurrentResult().data)).toHaveLength(before + 1);
    // Only the tokens namespace: the members query is not stale.
    expect(queryClient.getQueryState(q.members.list().queryKey)?.isInvalidated).toBe(false);
    unsubscribe();
  });

  it('tokens.deactivate(): mutate(tokenId) deactivates it, and the token queries refetch', async () => {
    const list = new QueryObserver(queryClient, q.tokens.list());
    const unsubscribe = list.subscribe(() => {});
    await vi.waitFor(() => expect(list.getCurrentResult().isSuccess).toBe(true), settled);
    const deactivated = await new MutationObserver(queryClient, q.tokens.deactivate()).mutate(ids.tokenId);
    expect(deactivated).toMatchObject({ id: ids.tokenId, active: false });
    expect(tokensOf(list.getCurrentResult().data).find((token) => token.id === ids.tokenId)).toMatchObject({ active: false });
    unsubscribe();
  });

  it('a failed write is the mutation’s error, typed by the client, and nothing is invalidated', async () => {
    await settle(new QueryObserver(queryClient, q.tokens.list()));
    const observer = new MutationObserver(queryClient, q.tokens.deactivate());
    await expect(observer.mutate('no-such-token')).rejects.toBeInstanceOf(NotFoundError);
    expect(observer.getCurrentResult().error).toBeInstanceOf(NotFoundError);
    expect(queryClient.getQueryState(q.tokens.list().queryKey)?.isInvalidated).toBe(false);
    expect(mock.requests.filter((request) => request.endpoint === 'tokens.deactivate')).toHaveLength(1); // not retried
  });
});

describe('keys', () => {
  it('start with ["community-server", scope], then the method path and the arguments', () => {
    expect(scope).toMatch(/^https:\/\/community\.test#[0-9a-z]+$/);
    expect(q.members.get('m1').queryKey).toEqual(['community-server', scope, 'members', 'get', 'm1']);
    expect(q.cad.calls.note('c1', 'n1').queryKey).toEqual(['community-server', scope, 'cad', 'calls', 'note', 'c1', 'n1']);
    expect(q.members.listInfinite({ pageSize: 5 }).queryKey).toEqual([
      'community-server',
      scope,
      'members',
      'listInfinite',
      { pageSize: 5 },
    ]);
    expect(q.logs.listLive({ pageSize: 5 }, { intervalMs: 50 }).queryKey).toEqual([
      'community-server',
      scope,
      'logs',
      'listLive',
      { pageSize: 5 },
      { intervalMs: 50 },
    ]);
    expect(q.tokens.create().mutationKey).toEqual(['community-server', scope, 'tokens', 'create']);
    expect(queries(client, { scope: 'staging' }).members.list().queryKey).toEqual(['community-server', 'staging', 'members', 'list']);
  });

  it('are stable: the same call gives the same key, params in a fixed order, absent ones dropped, request options left out', () => {
    const same = [
      q.members.list(),
      q.members.list(undefined),
      q.members.list({}),
      q.members.list({ page: undefined }),
      q.members.list(undefined, { timeout: 5_000 }),
    ].map((options) => options.queryKey);
    for (const key of same) expect(key).toEqual(['community-server', scope, 'members', 'list']);
    expect(JSON.stringify(q.logs.list({ sort: 'asc', pageSize: 5, orderBy: 'id' }).queryKey)).toBe(
      JSON.stringify(q.logs.list({ orderBy: 'id', pageSize: 5, sort: 'asc' }).queryKey),
    );
    expect(q.members.get('m1', { headers: { 'x-request-id': 'a' }, maxRetries: 0 }).queryKey).toEqual(q.members.get('m1').queryKey);
    expect(q.logs.listLive(undefined, { intervalMs: 50 }).queryKey).toEqual(q.logs.listLive({}, { intervalMs: 50 }).queryKey);
    // Two calls asking for different things never share a key.
    expect(q.members.list({ page: 2 }).queryKey).not.toEqual(q.members.list().queryKey);
    expect(q.members.listInfinite().queryKey).not.toEqual(q.members.list().queryKey);
    expect(q.members.listLive().queryKey).not.toEqual(q.members.list().queryKey);
  });

  it('never hold the token, whatever the call', () => {
    const keys = endpointsOf(resources).flatMap(({ name, endpoint }) => {
      const args = rows.find((row) => row.name === name)!.args(ids);
      if (endpoint.method !== 'GET') return [member<{ mutationKey: unknown }>(q, name)().mutationKey];
      const made = [member(q, name)(...args).queryKey];
      if (endpoint.kind === 'page') made.push(member(q, `${name}Infinite`)(...args).queryKey, member(q, `${name}Live`)(...args).queryKey);
      return made;
    });
    expect(keys).toHaveLength(62 + 2 + 29 * 2);
    for (const token of Object.values(mock.tokens)) expect(JSON.stringify(keys)).not.toContain(token);
    // Nor credentials or a query string of the base URL: the scope is its origin and path.
    const scoped = queries(
      new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://user:pa55word@api.test/v2/?key=s3cret#x' }),
    );
    expect(scoped.key()).toEqual(['community-server', expect.stringMatching(/^https:\/\/api\.test\/v2#[0-9a-z]+$/)]);
  });

  it('q.key() gives the prefixes to invalidate with; an unknown name throws', async () => {
    expect(q.key()).toEqual(['community-server', scope]);
    expect(q.key('members')).toEqual(['community-server', scope, 'members']);
    expect(q.key('members.get')).toEqual(['community-server', scope, 'members', 'get']);
    expect(q.key('cad.calls')).toEqual(['community-server', scope, 'cad', 'calls']);
    expect(q.key('logs.listLive')).toEqual(['community-server', scope, 'logs', 'listLive']);
    for (const bad of ['membrs', 'members.nope', 'members.get.more', '', 'key', 'toString', 'members.constructor']) {
      expect(() => q.key(bad as never), bad).toThrow(InvalidArgumentError);
    }
    await settle(new QueryObserver(queryClient, q.members.get(ids.memberId)));
    await settle(new QueryObserver(queryClient, q.roles.list()));
    await queryClient.invalidateQueries({ queryKey: q.key('members') });
    expect(queryClient.getQueryState(q.members.get(ids.memberId).queryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(q.roles.list().queryKey)?.isInvalidated).toBe(false);
  });
});

describe('issue 30 hardening 3: item 5 — the scope is the base URL and a one-way digest of base URL and token', () => {
  /** Two servers behind one base URL, as the live service has them: the token selects the server. */
  function twoServers() {
    const other = createMockApi({ seed: 12 });
    const fetch: typeof globalThis.fetch = (input, init) => {
      const token = new Request(input, init).headers.get('authorization');
      return (token === `Bearer ${other.tokens.main}` ? other : mock).fetch(input, init);
    };
    const clientOf = (server: MockApi) =>
      new CommunityServerClient({ token: server.tokens.main, baseUrl: MOCK_ORIGIN, fetch, maxRetries: 0 });
    return { other, first: queries(clientOf(mock)), second: queries(clientOf(other)), clientOf };
  }

  it('two servers’ clients on one QueryClient keep their own data', async () => {
    const { other, first, second } = twoServers();
    expect(other.store.main.info.name).not.toBe(mock.store.main.info.name);
    const one = new QueryObserver(queryClient, first.server.info());
    const two = new QueryObserver(queryClient, second.server.info());
    const unsubscribe = [one.subscribe(() => {}), two.subscribe(() => {})];
    await vi.waitFor(
      () => expect([one, two].map((observer) => observer.getCurrentResult().fetchStatus)).toEqual(['idle', 'idle']),
      settled,
    );
    expect(one.getCurrentResult().data?.name).toBe(mock.store.main.info.name);
    expect(two.getCurrentResult().data?.name).toBe(other.store.main.info.name);
    expect(second.key()).not.toEqual(first.key());
    // Invalidating one server's queries leaves the other's alone.
    await queryClient.invalidateQueries({ queryKey: first.key() });
    expect(queryClient.getQueryState(second.server.info().queryKey)?.isInvalidated).toBe(false);
    for (const off of unsubscribe) off();
  });

  it('clients of the same base URL and token share keys; another token, base URL or no token, never', () => {
    const { clientOf } = twoServers();
    expect(queries(clientOf(mock)).members.get('m1').queryKey).toEqual(q.members.get('m1').queryKey);
    expect(queries(new CommunityServerClient({ token: mock.tokens.main, baseUrl: `${MOCK_ORIGIN}/` })).key()).toEqual(q.key());
    const scopes = [
      q.key()[1],
      queries(new CommunityServerClient({ token: mock.tokens.readOnly, baseUrl: MOCK_ORIGIN })).key()[1],
      queries(new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://other.test' })).key()[1],
      queries(new CommunityServerClient({ baseUrl: MOCK_ORIGIN })).key()[1],
    ];
    expect(new Set(scopes).size).toBe(4);
    expect(scopes.slice(0, 2).every((one) => one.startsWith(`${MOCK_ORIGIN}#`))).toBe(true);
  });

  it('tokens that differ by one character, or only in where base URL and token meet, never share a scope', () => {
    const scopeOf = (baseUrl: string, token: string) => queries(new CommunityServerClient({ token, baseUrl })).key()[1];
    const tokens = Array.from({ length: 200 }, (_, n) => `cs_constant_${String(n).padStart(3, '0')}_token`);
    expect(new Set(tokens.map((token) => scopeOf('https://constant.test', token))).size).toBe(tokens.length);
    expect(scopeOf('https://constant.test', 'cs_constant_one_token')).toBe(scopeOf('https://constant.test', 'cs_constant_one_token'));
    // Base URL and token moved across the line between them: other scopes.
    expect(scopeOf('https://a.test/x', 'ycs_constant_token').split('#')[1]).not.toBe(
      scopeOf('https://a.test/xy', 'cs_constant_token').split('#')[1],
    );
  });

  it('the scope tells nothing of the token: no piece of it, nor of its SHA-256, and another process makes the same scope', async () => {
    const token = mock.tokens.main;
    const key = JSON.stringify(q.key());
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    for (const digest of [sha256(token), sha256(`${MOCK_ORIGIN}\n${token}`)]) {
      for (let at = 0; at + 8 <= digest.length; at += 8) expect(key).not.toContain(digest.slice(at, at + 8));
    }
    for (let at = 0; at + 8 <= token.length; at++) expect(key).not.toContain(token.slice(at, at + 8));
    // A fresh copy of the client entry (as another process, a server render, has it): the same scope.
    vi.resetModules();
    const fresh = await import('community-server-sdk');
    const elsewhere = queries(new fresh.CommunityServerClient({ token, baseUrl: MOCK_ORIGIN }));
    expect(elsewhere.key()[1]).toMatch(/^https:\/\/community\.test#[0-9a-f]{16}$/);
    expect(elsewhere.key()[1]).toBe(scope);
  });
});

describe('the query’s signal', () => {
  /** A client of a mock that answers after 10 s, and the signal of each request its fetch was given. */
  function slowClient() {
    const signals: AbortSignal[] = [];
    const slow = createMockApi({ seed: 11, latency: 10_000 });
    const tracked = new CommunityServerClient({
      token: slow.tokens.main,
      baseUrl: MOCK_ORIGIN,
      fetch: (input, init) => {
        signals.push((input as Request).signal ?? init?.signal);
        return slow.fetch(input, init);
      },
    });
    return { tracked, signals };
  }

  it('is passed to the request: a query cancelled mid-request aborts it, as the fetch sees', async () => {
    const { tracked, signals } = slowClient();
    const observer = new QueryObserver(queryClient, queries(tracked).members.list());
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(signals).toHaveLength(1), settled);
    expect(signals[0]!.aborted).toBe(false);
    unsubscribe(); // the last observer leaves: TanStack cancels the query, which aborts its signal
    expect(signals[0]!.aborted).toBe(true);
    // Reverted to before the fetch, with no error.
    expect(queryClient.getQueryState(observer.options.queryKey)).toMatchObject({ fetchStatus: 'idle', status: 'pending', error: null });
  });

  it('queryClient.cancelQueries() aborts the request too, and request options keep their own signal', async () => {
    const { tracked, signals } = slowClient();
    const mine = new AbortController();
    const pending = queryClient.fetchQuery(queries(tracked).members.get('m1', { signal: mine.signal }));
    pending.catch(() => undefined);
    await vi.waitFor(() => expect(signals).toHaveLength(1), settled);
    await queryClient.cancelQueries({ queryKey: q.key() });
    expect(signals[0]!.aborted).toBe(true);

    const second = queryClient.fetchQuery(queries(tracked).members.get('m2', { signal: mine.signal }));
    second.catch(() => undefined);
    await vi.waitFor(() => expect(signals).toHaveLength(2), settled);
    mine.abort(); // the caller's own signal still aborts its call
    expect(signals[1]!.aborted).toBe(true);
  });
});

describe('the entry’s run-time code', () => {
  it('is its own and a few leaves of the client: no mock, no TanStack, no zod, no ky, not the client', async () => {
    const { metafile } = await build({
      entryPoints: [fileURLToPath(new URL('../../src/query.ts', import.meta.url))],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      logLevel: 'silent',
    });
    const inputs = Object.keys(metafile.inputs).sort();
    expect(inputs).toEqual([
      'src/core/arguments.ts',
      'src/core/brand.ts',
      'src/core/describe.ts',
      'src/core/error-base.ts',
      'src/core/identity.ts',
      'src/core/table.ts',
      'src/query.ts',
      'src/query/keys.ts',
      'src/query/live.ts',
      'src/query/once.ts',
      'src/query/tree.ts',
    ]);
  });
});

describe('errors', () => {
  it('are the client’s typed errors, not retried on top of the client’s own retries', async () => {
    mock.faults.add({ endpoint: 'members.get', status: 503 });
    const result = await settle(new QueryObserver(queryClient, q.members.get(ids.memberId)));
    expect(result.error).toBeInstanceOf(ServiceUnavailableError);
    expect(result.failureCount).toBe(1);
    // mockClient has maxRetries 0: one request in all.
    expect(mock.requests.filter((request) => request.endpoint === 'members.get')).toHaveLength(1);
  });

  it('a bad argument reaches the client, which refuses it before any request', async () => {
    const result = await settle(new QueryObserver(queryClient, member(q, 'members.get')('')));
    expect(result.error).toBeInstanceOf(InvalidArgumentError);
    const infinite = await settle(
      new InfiniteQueryObserver(queryClient, member<EndpointInfiniteQueryOptions<unknown>>(q, 'members.listInfinite')('nope')),
    );
    expect(infinite.error).toBeInstanceOf(InvalidArgumentError);
    const extra = await settle(new QueryObserver(queryClient, member(q, 'members.get')('m1', undefined, 'extra')));
    expect(extra.error).toBeInstanceOf(InvalidArgumentError);
    // Fewer arguments than the method's ids: the query's signal still goes where the request
    // options go (not in the missing id's place), and the client names the id.
    const fewer = await settle(new QueryObserver(queryClient, member(q, 'departments.members.get')('d1')));
    expect(fewer.error).toEqual(new InvalidArgumentError('memberId must be a string, got undefined'));
    expect(mock.requests).toEqual([]);
  });

  it('queries() refuses what is not a client, and bad options; live options are checked at once', () => {
    for (const bad of [undefined, null, {}, 'client', { members: {} }]) expect(() => queries(bad as never)).toThrow(InvalidArgumentError);
    // Issue 30 (hardening 3), item 14: the article follows the kind.
    expect(() => queries({} as never)).toThrow(new InvalidArgumentError('queries() takes a CommunityServerClient, got an object'));
    expect(() => queries(client, { scope: '' })).toThrow(InvalidArgumentError);
    expect(() => queries(client, { scope: 5 as never })).toThrow(InvalidArgumentError);
    expect(() => queries(client, { scop: 'x' } as never)).toThrow(/unknown queries option "scop"/);
    expect(() => q.logs.listLive({}, { intervalMs: 0 })).toThrow(InvalidArgumentError);
    expect(() => q.logs.listLive({}, { intervalMs: 2 ** 40 })).toThrow(InvalidArgumentError);
    expect(() => q.logs.listLive({}, { interval: 5 } as never)).toThrow(/unknown live option "interval"/);
    expect(mock.requests).toEqual([]);
  });
});
