/**
 * The type half of `community-server-sdk/query`: the tree `queries()` returns, mapped from the
 * client's endpoint table (`Resources`) as the client's own methods are, so a request added to
 * the table has its query options with no edit here.
 * @module
 */
import type { DataTag, InfiniteData, MutationFunctionContext, QueryClient, QueryKey } from '@tanstack/query-core';
import type { Endpoint } from '../core/endpoint';
import type { CommunityServerError } from '../core/errors';
import type { CoreFunction } from '../core/function';
import type { Page, PagePromise } from '../core/pagination';
import type { RequestOptions } from '../core/types';
import type { Resources } from '../resources/index';

/**
 * A key of this entry: `['community-server', scope, ...method path, ...arguments]`.
 * @example
 * const key: CommunityServerQueryKey = q.members.get(id).queryKey; // ['community-server', 'https://api.example.com#4fzyo82mvyr1', 'members', 'get', id]
 */
export type CommunityServerQueryKey = readonly ['community-server', string, ...unknown[]];

/**
 * What a query function here reads of TanStack's `QueryFunctionContext`: the query's `signal`
 * (and `pageParam` for pages, `client` and `queryKey` for live lists). Declared no wider, so the
 * context of every adapter fits, whatever it makes of the key's type (Vue's deep refs).
 * @example
 * const page = await q.members.listInfinite().queryFn({ signal: AbortSignal.timeout(5_000), pageParam: 2 });
 */
export interface QueryContext {
  /** Aborted when TanStack Query cancels the query. */
  readonly signal: AbortSignal;
}

/**
 * What the query options' `retry` is: the client already retries what is worth retrying (network
 * failures, timeouts, 408, 429, 5xx of a GET, `maxRetries` times), so a query does not retry
 * again on top; a refetch or a Retry button asks anew. It also tells TanStack Query the error
 * type, so `useQuery(...).error` is a `CommunityServerError`.
 * @example
 * const noRetry: QueryRetry = q.members.list().retry; // () => false
 */
export type QueryRetry = (failureCount: number, error: CommunityServerError) => boolean;

/**
 * Query options of one GET (`q.members.get(id)`): for `useQuery`, `QueryObserver`,
 * `queryClient.fetchQuery`… Spread them to add options of your own.
 * @example
 * const { data } = useQuery({ ...q.members.get(id), staleTime: 60_000 }); // data: Member | undefined
 * const cached = queryClient.getQueryData(q.members.get(id).queryKey);     // Member | undefined
 */
export interface EndpointQueryOptions<Data> {
  /** The call's key, tagged with its data and error types. */
  readonly queryKey: DataTag<CommunityServerQueryKey, Data, CommunityServerError>;
  /** Calls the client method, passing the query's `signal` (a cancelled query aborts its request). */
  readonly queryFn: (context: QueryContext) => Promise<Data>;
  /** Never: the client has retried already (see {@link QueryRetry}). */
  readonly retry: QueryRetry;
}

/**
 * The data of an infinite list (`useInfiniteQuery(q.members.listInfinite()).data`): its pages as
 * fetched, and `items`, every item of them once. A list that grows while it is paged, newest
 * first, shifts items of one page onto the next (ten members join: page 2 starts with ten of
 * page 1), so the pages repeat them; `items` shows each once. The list's total now is the newest
 * page's, `pages.at(-1).total` (the first page's is as old as the first page).
 * @example
 * const members = useInfiniteQuery(q.members.listInfinite({ pageSize: 50 }));
 * const rows = members.data?.items ?? [];
 * const summary = `${rows.length} of ${members.data?.pages.at(-1)?.total} members`;
 */
export interface InfiniteListData<Item> extends InfiniteData<Page<Item>, unknown> {
  /** Every item of the pages in order, each once (by the list's id field: `id`, `userId`…; the first copy wins). */
  readonly items: Item[];
}

/**
 * Infinite query options of a list (`q.members.listInfinite({ pageSize: 50 })`): page 1 (or
 * `params.page`) first, then each next page while the last one says there is one (its
 * `totalPages`, and an empty page ends it too): nothing is fetched past the end. The data is
 * the pages and their items, each once ({@link InfiniteListData}).
 * @example
 * const members = useInfiniteQuery(q.members.listInfinite({ pageSize: 50 }));
 * const rows = members.data?.items ?? [];
 * if (members.hasNextPage) await members.fetchNextPage();
 */
export interface EndpointInfiniteQueryOptions<Item> {
  /** The call's key, tagged with its data and error types. */
  readonly queryKey: DataTag<CommunityServerQueryKey, InfiniteData<Page<Item>, number>, CommunityServerError>;
  /** Calls the list method for page `pageParam`, passing the query's `signal`. */
  readonly queryFn: (context: QueryContext & { readonly pageParam: number }) => Promise<Page<Item>>;
  /** `params.page`, else 1. */
  readonly initialPageParam: number;
  /** The page after `lastPage`, or `undefined` at the end of the list. */
  readonly getNextPageParam: (lastPage: Page<Item>) => number | undefined;
  /**
   * The pages and every item of them once (see {@link InfiniteListData}). A `select` of your
   * own replaces it; `data.pages` is then what it is given.
   */
  readonly select: (data: InfiniteData<Page<Item>, unknown>) => InfiniteListData<Item>;
  /** Never: the client has retried already (see {@link QueryRetry}). */
  readonly retry: QueryRetry;
}

/**
 * How a live list follows its list: `intervalMs` between two polls of its watch.
 * @example
 * useQuery(q.logs.listLive({ pageSize: 50 }, { intervalMs: 5_000 }));
 */
export interface LiveOptions {
  /** Milliseconds between two polls of the watch (default 10,000). */
  intervalMs?: number | undefined;
}

/**
 * The data of a live list: the list's first page, newest first, with each item its watch has
 * found since put first, once each; the newest 200 are kept.
 * @example
 * const { data } = useQuery(q.logs.listLive());
 * for (const log of data?.data ?? []) console.log(log.username, log.text);
 */
export interface LiveData<Item> {
  /** Newest first, at most 200. */
  data: Item[];
}

/**
 * Query options of a live list (`q.logs.listLive(params, { intervalMs })`). The query reads the
 * list's first page; while the query has an observer (a mounted `useQuery`), one `watch()` of
 * the list puts each new item first. The watch starts with the fetch of an observed query and
 * stops, its request aborted, when the last observer leaves; the next observer's mount
 * refetches (a live query is stale at once, so keep `refetchOnMount`), which starts it again.
 * A refetch meanwhile reads the first page again and keeps the one watch.
 * @example
 * const logs = useQuery(q.logs.listLive({ pageSize: 25 }, { intervalMs: 5_000 }));
 * const lines = logs.data?.data.map((log) => `${log.username}: ${log.text}`) ?? [];
 */
export interface LiveQueryOptions<Item> {
  /** The call's key (live options included), tagged with its data and error types. */
  readonly queryKey: DataTag<CommunityServerQueryKey, LiveData<Item>, CommunityServerError>;
  /** Reads the first page, passing the query's `signal`, and starts the watch when observed. */
  readonly queryFn: (context: QueryContext & { readonly client: QueryClient; readonly queryKey: QueryKey }) => Promise<LiveData<Item>>;
  /** Never: the client has retried already (see {@link QueryRetry}). */
  readonly retry: QueryRetry;
}

/**
 * Mutation options of a write (`q.tokens.create()`, `q.tokens.deactivate()`): `mutate(variables)`
 * calls the client method, and a success invalidates the queries of the write's namespace
 * (`q.key('tokens')`) through the mutation's own `QueryClient`, the mutation staying pending
 * until they have refetched. Overriding `onSuccess` drops that; add behaviour with
 * `mutate(variables, { onSuccess })` or `onSettled` instead.
 * @example
 * const create = useMutation(q.tokens.create());
 * create.mutate({ name: 'ci', expiresInDays: 30 }, { onSuccess: (token) => copy(token.token) });
 */
export interface EndpointMutationOptions<Data, Variables> {
  /** The method's path under the scope, e.g. `['community-server', scope, 'tokens', 'create']`. */
  readonly mutationKey: CommunityServerQueryKey;
  /** Calls the client method with `variables` (its one argument, or all of them as a tuple). */
  readonly mutationFn: (variables: Variables) => Promise<Data>;
  /** Invalidates the namespace's queries through `context.client`. */
  readonly onSuccess: (data: Data, variables: Variables, onMutateResult: unknown, context: MutationFunctionContext) => Promise<void>;
  /** Never: writes are not retried (see {@link QueryRetry}). */
  readonly retry: QueryRetry;
}

type AnyMethod = (...args: never[]) => unknown;
/** A method's arguments without its last, optional `RequestOptions`. */
type WithoutOptions<Args extends readonly unknown[]> = Args extends readonly [...infer Head, (RequestOptions | undefined)?] ? Head : Args;
/** A method's arguments with live options where its `RequestOptions` were. */
type LiveArgs<Args extends readonly unknown[]> = [...WithoutOptions<Args>, live?: LiveOptions];
/** What `mutate()` takes: the one argument of the write, or its arguments as a tuple. */
type Variables<Args extends readonly unknown[]> = Args extends readonly [infer Only] ? Only : Args extends readonly [] ? void : Args;
type Resolved<Method> = Method extends (...args: never[]) => PromiseLike<infer Data> ? Data : never;
type ListItem<Method> = Method extends (...args: never[]) => PagePromise<infer Item> ? Item : never;

/** The tree's member for one endpoint line: query options of a GET, mutation options of a write. */
type EndpointMember<Method, Verb> = Method extends AnyMethod
  ? Verb extends 'GET'
    ? (...args: Parameters<Method>) => EndpointQueryOptions<Resolved<Method>>
    : () => EndpointMutationOptions<Resolved<Method>, Variables<WithoutOptions<Parameters<Method>>>>
  : never;

/** The names a table gives: each entry's own, and `xInfinite`, `xLive` beside each list `x`. */
type TreeNames<Table> = {
  [Name in keyof Table & string]: Table[Name] extends Endpoint<infer Method, 'GET'>
    ? [ListItem<Method>] extends [never]
      ? Name
      : Name | `${Name}Infinite` | `${Name}Live`
    : Name;
}[keyof Table & string];

type TreeMember<Table, Name extends string> = Name extends keyof Table
  ? Table[Name] extends Endpoint<infer Method, infer Verb>
    ? EndpointMember<Method, Verb>
    : QueryTree<Table[Name]>
  : Name extends `${infer List extends keyof Table & string}Infinite`
    ? Table[List] extends Endpoint<infer Method extends AnyMethod>
      ? (...args: Parameters<Method>) => EndpointInfiniteQueryOptions<ListItem<Method>>
      : never
    : Name extends `${infer List extends keyof Table & string}Live`
      ? Table[List] extends Endpoint<infer Method extends AnyMethod>
        ? (...args: LiveArgs<Parameters<Method>>) => LiveQueryOptions<ListItem<Method>>
        : never
      : never;

/**
 * The query options of a resource table, mirroring the client's methods.
 * @inline
 */
export type QueryTree<Table> = { readonly [Name in TreeNames<Table>]: TreeMember<Table, Name> };

type Paths<Tree> = {
  [Name in keyof Tree & string]: Tree[Name] extends AnyMethod ? Name : Name | `${Name}.${Paths<Tree[Name]>}`;
}[keyof Tree & string];

/**
 * A namespace or method of the tree, dotted, as `q.key()` takes it: `'members'`, `'members.get'`,
 * `'cad.calls'`, `'logs.listLive'`.
 * @example
 * const prefix: QueryKeyPrefix = 'cad.calls';
 * await queryClient.invalidateQueries({ queryKey: q.key(prefix) });
 */
export type QueryKeyPrefix = Paths<QueryTree<Resources>>;

/**
 * What {@link queries} returns: the client's namespaces, each GET method `x` giving query
 * options, each list also `xInfinite` and `xLive`, each write mutation options; and `key()`.
 * @example
 * const q: Queries = queries(client);
 * useQuery(q.members.get(id));
 * useInfiniteQuery(q.members.listInfinite({ pageSize: 50 }));
 * useQuery(q.logs.listLive({ pageSize: 50 }, { intervalMs: 5_000 }));
 * useMutation(q.tokens.create());
 */
export type Queries = QueryTree<Resources> & {
  /**
   * The key prefix of everything (no argument), of a namespace (`'members'`, `'cad.calls'`) or
   * of one method (`'members.get'`), for `invalidateQueries`, `removeQueries`, `getQueriesData`.
   * An unknown name throws `InvalidArgumentError`.
   * @example
   * await queryClient.invalidateQueries({ queryKey: q.key('members') }); // every members query of this scope
   */
  key(prefix?: QueryKeyPrefix): CommunityServerQueryKey;
};

/**
 * What `queries(core, tree)` takes: functions of `community-server-sdk/core`, any of them, each at
 * its client path (`membersGet` at `members.get`, `cadCallsList` at `cad.calls.list`).
 * @example
 * import { membersGet, membersList, serverInfo } from 'community-server-sdk/core';
 * const tree = { members: { get: membersGet, list: membersList }, server: { info: serverInfo } } satisfies CoreTree;
 */
export type CoreTree<Table = Resources> = {
  readonly [Name in keyof Table]?: Table[Name] extends Endpoint<infer Method> ? CoreFunction<Method> : CoreTree<Table[Name]>;
};

/** The lines of `Table` that `Tree` names. */
type Selected<Tree, Table> = {
  [Name in keyof Tree & keyof Table]: Table[Name] extends Endpoint ? Table[Name] : Selected<Tree[Name], Table[Name]>;
};

/** The namespaces and methods of a tree, dotted, with `xInfinite` and `xLive` beside each list `x`. */
type CoreKeyPrefix<Tree> = {
  [Name in keyof Tree & string]: Tree[Name] extends (core: never, ...args: never[]) => infer Result
    ? Result extends PagePromise<unknown>
      ? Name | `${Name}Infinite` | `${Name}Live`
      : Name
    : Name | `${Name}.${CoreKeyPrefix<Tree[Name]>}`;
}[keyof Tree & string];

/**
 * What `queries(core, tree)` returns: the part of {@link Queries} that `tree` names, typed as
 * `queries(client)` types it (query options of each GET, `xInfinite` and `xLive` beside each
 * list, mutation options of each write), and `key()` for its namespaces and methods.
 * @example
 * const q: CoreQueries<{ members: { get: typeof membersGet } }> = queries(core, { members: { get: membersGet } });
 * useQuery(q.members.get(id)); // data: Member | undefined
 */
export type CoreQueries<Tree> = QueryTree<Selected<Tree, Resources>> & {
  /**
   * The key prefix of everything (no argument), of a namespace or of one method of the tree,
   * as `Queries.key()` gives it. A name the tree does not have throws `InvalidArgumentError`.
   * @example
   * await queryClient.invalidateQueries({ queryKey: q.key('members') });
   */
  key(prefix?: CoreKeyPrefix<Tree>): CommunityServerQueryKey;
};
