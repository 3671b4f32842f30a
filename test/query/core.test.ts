/**
 * `queries(core, tree)` (issue 31): TanStack Query options for the `community-server-sdk/core`
 * functions given, against the in-process mock. The same data and the very keys of
 * `queries(client)` (so both share a `QueryClient`'s cache) for a GET, a list, an infinite list,
 * a live list and a write; a tree that is wrong throws before any request; the token is never in
 * a key; a bundle of `queries`, `createCore` and three functions holds those three requests only.
 */
import { InfiniteQueryObserver, MutationObserver, QueryClient, QueryObserver } from '@tanstack/query-core';
import type { Member } from 'community-server-sdk';
import * as coreEntry from 'community-server-sdk/core';
import {
  createCore,
  InvalidArgumentError,
  logsList,
  membersGet,
  membersList,
  serverInfo,
  tokensCreate,
  tokensList,
  type Core,
} from 'community-server-sdk/core';
import { createMockApi } from 'community-server-sdk/mock';
import { queries, type CoreTree, type EndpointQueryOptions, type LiveQueryOptions } from 'community-server-sdk/query';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import * as z from 'zod/mini';
import * as schemas from 'community-server-sdk/schemas';
import { functionName } from '../../scripts/core/functions';
import { endpointsOf } from '../../src/core/endpoint';
import { allEndpoints } from '../../src/resources/catalog';
import { MAX_DEPTH } from '../../src/query/tree';
import { resources } from '../../src/resources/index';
import { MOCK_ORIGIN, mockClient } from '../helpers';
import { pick, plain, rows, type Ids } from '../mock/engine/api/contract-rows';

const mock = createMockApi({ seed: 13 });
const core = createCore({ token: mock.tokens.main, baseUrl: MOCK_ORIGIN, fetch: mock.fetch, maxRetries: 0 });
const byClient = queries(mockClient(mock));
const tree = {
  members: { get: membersGet, list: membersList },
  logs: { list: logsList },
  server: { info: serverInfo },
  tokens: { list: tokensList, create: tokensCreate },
};
const q = queries(core, tree);
const settled = { timeout: 10_000, interval: 2 };
let queryClient: QueryClient;
let ids: Ids;

beforeEach(() => {
  mock.reset();
  ids = pick(mock.store);
  queryClient = new QueryClient();
});
afterEach(() => queryClient.clear());

/** The data of `options` fetched on a QueryClient of its own (so neither form reads the other's). */
const fetched = (options: EndpointQueryOptions<unknown> | LiveQueryOptions<unknown>) => new QueryClient().fetchQuery(options).then(plain);

describe('the same data and keys as queries(client)', () => {
  it('a GET and a list: q.members.get(id), q.members.list(params), q.server.info()', async () => {
    expect(q.members.get(ids.memberId).queryKey).toEqual(byClient.members.get(ids.memberId).queryKey);
    expect(q.members.list({ pageSize: 5, sort: 'asc' }).queryKey).toEqual(byClient.members.list({ sort: 'asc', pageSize: 5 }).queryKey);
    expect(q.server.info().queryKey).toEqual(byClient.server.info().queryKey);
    expect(await fetched(q.members.get(ids.memberId))).toEqual(await fetched(byClient.members.get(ids.memberId)));
    expect(await fetched(q.members.list({ pageSize: 5 }))).toEqual(await fetched(byClient.members.list({ pageSize: 5 })));
    expect(await fetched(q.server.info())).toEqual(await fetched(byClient.server.info()));
  });

  it('an infinite list: the same pages, page after page, and the same items', async () => {
    const pagesOf = async (options: ReturnType<typeof q.members.listInfinite>) => {
      const observer = new InfiniteQueryObserver(new QueryClient(), options);
      const unsubscribe = observer.subscribe(() => {});
      await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true), settled);
      await observer.fetchNextPage();
      unsubscribe();
      return plain(observer.getCurrentResult().data);
    };
    expect(q.members.listInfinite({ pageSize: 3 }).queryKey).toEqual(byClient.members.listInfinite({ pageSize: 3 }).queryKey);
    const pages = await pagesOf(q.members.listInfinite({ pageSize: 3 }));
    expect(pages).toMatchObject({ pageParams: [1, 2], items: expect.any(Array) });
    expect(pages).toEqual(await pagesOf(byClient.members.listInfinite({ pageSize: 3 })));
  });

  it('a live list: the same first page under the same key', async () => {
    expect(q.logs.listLive({ pageSize: 5 }, { intervalMs: 60_000 }).queryKey).toEqual(
      byClient.logs.listLive({ pageSize: 5 }, { intervalMs: 60_000 }).queryKey,
    );
    expect(await fetched(q.logs.listLive({ pageSize: 5 }))).toEqual(await fetched(byClient.logs.listLive({ pageSize: 5 })));
    expect(() => q.logs.listLive({}, { intervalMs: 0 })).toThrow(InvalidArgumentError);
  });

  it('a write: mutate(body) creates the token, and the token queries of either form refetch before it settles', async () => {
    const list = new QueryObserver(queryClient, byClient.tokens.list()); // the client form's query, invalidated by the core form's write
    const unsubscribe = list.subscribe(() => {});
    await vi.waitFor(() => expect(list.getCurrentResult().isSuccess).toBe(true), settled);
    await queryClient.fetchQuery(q.members.get(ids.memberId));
    expect(q.tokens.create().mutationKey).toEqual(byClient.tokens.create().mutationKey);

    const created = await new MutationObserver(queryClient, q.tokens.create()).mutate({ name: 'core', expiresInDays: 7 });
    expect(created).toMatchObject({ name: 'core', active: true });
    expect((list.getCurrentResult().data as { id: string }[]).map((token) => token.id)).toContain(created.id);
    expect(queryClient.getQueryState(q.members.get(ids.memberId).queryKey)?.isInvalidated).toBe(false);
    unsubscribe();
  });

  it('so both forms share one QueryClient’s cache: what one fetched, the other reads without a request', async () => {
    const member = await queryClient.fetchQuery(q.members.get(ids.memberId));
    const before = mock.requests.length;
    expect(await queryClient.fetchQuery({ ...byClient.members.get(ids.memberId), staleTime: Infinity })).toBe(member);
    expect(mock.requests.length).toBe(before);
  });

  it('every function of /core at its path gives the key of the client form, none holding the token; q.key() addresses the tree', () => {
    const functions = coreEntry as unknown as Record<string, CoreTree[keyof CoreTree]>;
    const whole: Record<string, Record<string, unknown>> = {};
    for (const { name } of endpointsOf(resources)) {
      const path = name.split('.');
      const own = path.pop()!;
      path.reduce<Record<string, unknown>>((node, key) => (node[key] ??= {}) as Record<string, unknown>, whole)[own] =
        functions[functionName(name)];
    }
    const all = queries(core, whole as CoreTree);
    const keysOf = (made: object) =>
      endpointsOf(resources).flatMap(({ name, endpoint }) => {
        const args = rows.find((row) => row.name === name)!.args(ids);
        const at = (suffix: string) =>
          name
            .concat(suffix)
            .split('.')
            .reduce<any>((node, key) => node[key], made);
        if (endpoint.method !== 'GET') return [at('')().mutationKey];
        return endpoint.kind === 'page'
          ? ['', 'Infinite', 'Live'].map((suffix) => at(suffix)(...args).queryKey)
          : [at('')(...args).queryKey];
      });
    const keys = keysOf(all);
    expect(keys).toHaveLength(62 + 2 + 29 * 2);
    expect(keys).toEqual(keysOf(byClient));
    for (const token of Object.values(mock.tokens)) expect(JSON.stringify([keys, q.key(), all.key()])).not.toContain(token);
    expect(q.key()).toEqual(byClient.key());
    expect(q.key('members.get')).toEqual(byClient.key('members.get'));
    expect(() => q.key('cad' as never)).toThrow(InvalidArgumentError); // not in this tree
    expect(queries(core, tree, { scope: 'staging' }).members.list().queryKey).toEqual(['community-server', 'staging', 'members', 'list']);
  });
});

describe('a wrong tree throws InvalidArgumentError before any request', () => {
  it('a function at a path that is not its own, an entry that is no /core function, no tree, no core, bad options', () => {
    expect(() => queries(core, { members: { get: membersList } } as never)).toThrow(
      new InvalidArgumentError(
        'queries(): members.get takes the community-server-sdk/core function of members.get, got that of members.list',
      ),
    );
    expect(() => queries(core, { member: { get: membersGet } } as never)).toThrow(
      /^queries\(\): member\.get takes .* got that of members\.get$/,
    );
    expect(() => queries(core, { get: membersGet } as never)).toThrow(/^queries\(\): get takes /);
    expect(() => queries(core, { members: { get: (...args: unknown[]) => membersGet(core, ...(args as [string])) } } as never)).toThrow(
      /^queries\(\): members\.get takes .* got a function$/,
    );
    for (const bad of [5, 'membersGet', null, undefined, [membersGet]]) {
      expect(() => queries(core, { members: { get: bad } } as never), String(bad)).toThrow(/^queries\(\): members\.get takes /);
    }
    for (const bad of [undefined, null, 'tree', [membersGet], membersGet]) {
      expect(() => queries(core, bad as never)).toThrow(/^queries\(\): the tree must be an object, got /);
    }
    const cyclic: Record<string, unknown> = { members: { get: membersGet } };
    (cyclic.members as Record<string, unknown>).again = cyclic; // a tree that holds itself: refused, not walked for ever
    expect(() => queries(core, cyclic as never)).toThrow(
      /^queries\(\): members\.again\.members takes the community-server-sdk\/core function of members\.again\.members, got an object$/,
    );
    // The walk stops at the deepest name a method has: deep enough for every method of the table.
    expect(Math.max(...allEndpoints().map(({ name }) => name.split('.').length))).toBe(MAX_DEPTH);
    const shared = { get: membersGet };
    expect(() => queries(core, { members: shared, member: shared } as never)).toThrow(/^queries\(\): member\.get takes /); // the same namespace twice is no cycle
    expect(() => queries({} as Core, tree)).toThrow(new InvalidArgumentError('queries() takes a CommunityServerClient, got an object'));
    expect(() => queries(core, tree, { scope: '' })).toThrow(InvalidArgumentError);
    expect(() => queries(core, tree, { scop: 'x' } as never)).toThrow(/unknown queries option "scop"/);
    expect(mock.requests).toEqual([]);
  });
});

describe('types', () => {
  it('are those of queries(client) for the functions given', () => {
    expectTypeOf(q.members.get).parameters.toEqualTypeOf<Parameters<typeof byClient.members.get>>();
    expectTypeOf(q.members.get('m1')).toEqualTypeOf<EndpointQueryOptions<Member>>();
    expectTypeOf(q.logs.listLive()).toEqualTypeOf<ReturnType<typeof byClient.logs.listLive>>();
    expectTypeOf(q.tokens.create()).toEqualTypeOf<ReturnType<typeof byClient.tokens.create>>();
    expectTypeOf(q.logs.listLive).returns.toExtend<LiveQueryOptions<unknown>>();
    expectTypeOf(q).not.toHaveProperty('cad');
    expectTypeOf(q.members).not.toHaveProperty('listByRole');
    expectTypeOf<Parameters<typeof q.key>[0]>().toEqualTypeOf<
      | 'members'
      | 'members.get'
      | 'members.list'
      | 'members.listInfinite'
      | 'members.listLive'
      | 'logs'
      | 'logs.list'
      | 'logs.listInfinite'
      | 'logs.listLive'
      | 'server'
      | 'server.info'
      | 'tokens'
      | 'tokens.list'
      | 'tokens.create'
      | undefined
    >();
    // @ts-expect-error a function at a path that is not its own
    expect(() => queries(core, { members: { get: membersList } })).toThrow(InvalidArgumentError);
  });
});

describe('a bundle of queries, createCore and three functions', () => {
  it('holds those three requests and their schemas, none of the other functions’', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const { outputFiles } = await build({
      stdin: {
        contents: `export { queries } from './src/query.ts'; export { createCore, membersList, membersGet, serverInfo } from './src/core.ts';`,
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      splitting: true,
      format: 'esm',
      outdir: '/virtual',
      write: false,
      platform: 'neutral',
      mainFields: ['module', 'main'],
      logLevel: 'silent',
    });
    const text = outputFiles.map((file) => file.text).join('\n');
    // Each endpoint line is a call `get("members.get", "/api/v1/…", …)`; each schema a `var XSchema =`.
    const names = new Set(allEndpoints().map((endpoint) => endpoint.name));
    const requests = [...text.matchAll(/\(\s*"([\w.]+)",\s*"\/api\//g)].map((found) => found[1]!);
    expect(requests.filter((name) => names.has(name)).sort()).toEqual(['members.get', 'members.list', 'server.info']);
    const schemaNames = [...text.matchAll(/\bvar (\w+Schema) =/g)].map((found) => found[1]!);
    const isSchema = (name: string) => (schemas as Record<string, unknown>)[name] instanceof z.ZodMiniType;
    expect(schemaNames.filter(isSchema).sort()).toEqual(['MemberSchema', 'ServerInfoSchema']);
  });
});
