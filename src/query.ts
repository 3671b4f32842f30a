/**
 * `community-server-sdk/query`: TanStack Query options for every request of a client, for
 * React, Vue, Solid, Svelte and Angular alike (they all run on `@tanstack/query-core`, an
 * optional peer dependency: install your framework's adapter). `queries(client)` mirrors the
 * client: each GET method `x` gives `{ queryKey, queryFn }` whose `queryFn` passes the query's
 * `signal` to the call; each list also gives `xInfinite` (pages 1..totalPages) and `xLive` (the
 * first page, kept current by `watch()` while observed); `tokens.create()` and
 * `tokens.deactivate()` give mutation options that invalidate the token queries. Keys start with
 * `['community-server', scope]` and never hold the token. Data and errors are typed from the
 * client's own types. `queries(core, tree)` gives the same for the functions of
 * `community-server-sdk/core` in `tree` (`{ members: { get: membersGet } }`), with the same keys,
 * so a page bundles only the requests it makes.
 * @example
 * import { QueryClient, QueryClientProvider, useQuery, useInfiniteQuery, useMutation } from '@tanstack/react-query';
 * import { CommunityServerClient } from 'community-server-sdk';
 * import { queries } from 'community-server-sdk/query';
 *
 * const q = queries(new CommunityServerClient({ token, baseUrl: 'https://api.example.com' }));
 * function Member({ id }: { id: string }) {
 *   const member = useQuery(q.members.get(id)); // member.data: Member | undefined
 *   return member.isPending ? 'Loading…' : member.isError ? member.error.message : member.data.username;
 * }
 * @module community-server-sdk/query
 */
import type { InfiniteData, MutationFunctionContext } from '@tanstack/query-core';
import type { ClientIntrospection, CommunityServerClient } from './client';
import type { Core } from './core/core';
import { checkOptions, checkTimeout, describe, isPlainObject } from './core/arguments';
import type { Endpoint } from './core/endpoint';
import { InvalidArgumentError } from './core/error-base';
import { linesOf } from './core/table';
import { tokenScope } from './core/identity';
import type { Page, PagePromise } from './core/pagination';
import type { ListParams, RequestOptions } from './core/types';
import { KEY_ROOT, keyOf } from './query/keys';
import { liveQueryFn } from './query/live';
import { onceEach } from './query/once';
import { functionsOf } from './query/tree';
import type { CoreQueries, CoreTree, LiveOptions, Queries } from './query/types';

export type {
  CommunityServerQueryKey,
  CoreQueries,
  CoreTree,
  EndpointInfiniteQueryOptions,
  EndpointMutationOptions,
  EndpointQueryOptions,
  InfiniteListData,
  LiveData,
  LiveOptions,
  LiveQueryOptions,
  Queries,
  QueryContext,
  QueryKeyPrefix,
  QueryRetry,
} from './query/types';

/**
 * Options of {@link queries}.
 * @example
 * const staging = queries(stagingClient, { scope: 'staging' }); // keys ['community-server', 'staging', …]
 */
export interface QueriesOptions {
  /**
   * The second element of every key, which keeps apart the data of two clients on one
   * `QueryClient`, e.g. two servers. Default: the client's base URL and a one-way digest of base
   * URL and token (`https://api.example.com#3f9a0c1d5e7b2a48`), the same for every client of that
   * base URL and token, in every process (a server render's dehydrated state hydrates under the
   * browser's keys). Never put a token in it.
   */
  scope?: string | undefined;
}

type Method = (...args: unknown[]) => unknown;
/** A method called with its arguments in one array. */
type Call = (args: unknown[]) => unknown;
type Node = Record<string, unknown>;
/** A core's `~scope`: what its keys are scoped by, from its base URL and token. */
type ScopeOf = (name: (shared: { baseUrl: string; token: string | undefined }) => string) => string;

/** The query's signal, joined with one the caller gave in the request options. */
function withSignal(options: unknown, signal: AbortSignal): RequestOptions {
  const { signal: given } = (options ?? {}) as RequestOptions;
  return { ...(options as RequestOptions), signal: given ? AbortSignal.any([given, signal]) : signal };
}

/** Positional arguments before the request options: path ids, then the body or the list params. */
const positionalCount = (endpoint: Endpoint) =>
  endpoint.parts.filter((part) => typeof part !== 'string').length + (endpoint.body ? 1 : 0) + (endpoint.kind === 'page' ? 1 : 0);

/** The page after `last`, or `undefined` at the end (read from its fields, so a page restored from JSON serves too). */
const nextPage = (last: Page<unknown>) => (last.data.length > 0 && last.page < last.totalPages ? last.page + 1 : undefined);

/** The client already retries what is worth retrying; a query does not retry again on top. */
const noRetry = () => false;

function checkLiveOptions(live: unknown): LiveOptions {
  checkOptions(live, ['intervalMs'], 'live');
  checkTimeout('intervalMs', live?.intervalMs);
  return live ?? {};
}

/**
 * Puts in `node` (its namespace) the options factories of one endpoint line, under the method's
 * name `own` (and `xInfinite`, `xLive` beside a list's); `path` names the namespace.
 */
function addFactories(node: Node, call: Call, root: readonly unknown[], path: string[], own: string, endpoint: Endpoint) {
  const count = positionalCount(endpoint);
  const infinite = `${own}Infinite`;
  const live = `${own}Live`;
  /** Keys of the factory `name` (the method's, its `xInfinite` or `xLive`), from the first `length` of a call's `args`. */
  const keys = (name: string) => {
    const head = [...root, ...path, name];
    return (args: readonly unknown[], length = count) => keyOf(head, args, length);
  };
  const ownKey = keys(own);
  /** The field that tells a list's items apart: its watch's. */
  const id = endpoint.watch?.id ?? 'id';
  /**
   * An infinite list's data: its pages, and every item of them once. A list that grows while it
   * is paged (newest first: members join) shifts items of a page onto the next, which repeats
   * them. One function per list, so TanStack Query reruns it only when the pages change.
   */
  const select = (data: InfiniteData<Page<unknown>>) => ({
    ...data,
    items: onceEach(
      data.pages.flatMap((page) => page.data),
      id,
    ),
  });

  if (endpoint.method !== 'GET') {
    node[own] = () => ({
      mutationKey: ownKey([]),
      mutationFn: (variables: unknown) => call(count === 1 ? [variables] : ((variables ?? []) as unknown[])),
      onSuccess: (_data: unknown, _variables: unknown, _result: unknown, context: MutationFunctionContext) =>
        context.client.invalidateQueries({ queryKey: [...root, path[0] ?? own] }),
      retry: noRetry,
    });
    return;
  }

  /**
   * Calls the method with `args` (its positional arguments, then any extra argument given: the
   * client refuses it), `options` standing where the request options go.
   */
  const send = (args: unknown[], options: unknown) => {
    const all = [...args];
    all[count] = options; // fewer arguments leave holes, which a call's spread reads as `undefined`
    return call(all);
  };
  /**
   * A factory of options from the method's arguments. A component makes options at every render
   * and runs its query far less often, so what only a run needs (the call's arguments) is made
   * when it runs.
   */
  const factory =
    (make: (args: unknown[]) => Record<string, unknown>) =>
    (...args: unknown[]) => {
      const options = make(args);
      options.retry = noRetry;
      return options;
    };

  node[own] = factory((args) => ({
    queryKey: ownKey(args),
    queryFn: ({ signal }: { signal: AbortSignal }) => send(args, withSignal(args[count], signal)),
  }));
  if (endpoint.kind !== 'page') return;

  const infiniteKey = keys(infinite);
  const liveKey = keys(live);
  node[infinite] = factory((args) => {
    const params = args[count - 1] as ListParams | undefined;
    return {
      queryKey: infiniteKey(args),
      queryFn: ({ signal, pageParam }: { signal: AbortSignal; pageParam: number }) => {
        const pageArgs = [...args];
        // Params that are not an object go to the client as they are, for it to refuse.
        pageArgs[count - 1] = params === undefined || isPlainObject(params) ? { ...params, page: pageParam } : params;
        return send(pageArgs, withSignal(args[count], signal));
      },
      initialPageParam: params?.page ?? 1, // a bad page is the client's to refuse, as for any call
      getNextPageParam: nextPage,
      select,
    };
  });
  node[live] = factory((args) => {
    const liveOptions = checkLiveOptions(args[count]); // live options stand where the request options would
    return {
      queryKey: liveKey(args, count + 1),
      queryFn: liveQueryFn({
        open: (signal) => send(args, { signal }) as PagePromise<unknown>,
        id,
        intervalMs: liveOptions.intervalMs,
      }),
    };
  });
}

/**
 * TanStack Query options for the functions of `community-server-sdk/core` given in `tree`, called
 * on `core`: the tree `queries(client)` gives, with only those methods, each at its client path
 * (`{ members: { get: membersGet } }` gives `q.members.get(id)`), so a bundle holds only the
 * functions it uses. Keys are exactly those of `queries(client)` for a client of the same base URL
 * and token, so both share a `QueryClient`'s cache. `InvalidArgumentError`, before anything is
 * sent, if `core` is not what `createCore()` returns, a function is not at its own path
 * (`membersGet` at `members.get`), an entry is not a `/core` function or a namespace of them, or
 * an option is bad. (Declared before `queries(client)`, so `ReturnType<typeof queries>` stays `Queries`.)
 * @example
 * import { createCore, membersGet, membersList, tokensCreate } from 'community-server-sdk/core';
 * const core = createCore({ token, baseUrl: 'https://api.example.com' });
 * const q = queries(core, { members: { get: membersGet, list: membersList }, tokens: { create: tokensCreate } });
 * useQuery(q.members.get(id));
 * useInfiniteQuery(q.members.listInfinite({ pageSize: 50 }));
 * useMutation(q.tokens.create());
 * await queryClient.invalidateQueries({ queryKey: q.key('members') });
 */
export function queries<const Tree extends object>(core: Core, tree: Tree & CoreTree, options?: QueriesOptions): CoreQueries<Tree>;
/**
 * TanStack Query options for every request of `client` (see {@link Queries}). Built from the
 * client's own endpoint table; cheap, so call it once per client, beside the client.
 * `InvalidArgumentError` if `client` is not a `CommunityServerClient` or an option is bad.
 * @example
 * const client = new CommunityServerClient({ token, baseUrl: 'https://api.example.com' });
 * const q = queries(client);
 * const member = await queryClient.fetchQuery(q.members.get(id));
 * useInfiniteQuery(q.members.listInfinite({ pageSize: 50 }));
 * useQuery(q.logs.listLive({ pageSize: 50 }, { intervalMs: 5_000 }));
 * useMutation(q.tokens.create());
 * await queryClient.invalidateQueries({ queryKey: q.key('members') });
 */
export function queries(client: CommunityServerClient, options?: QueriesOptions): Queries;
export function queries(source: unknown, second?: unknown, third?: QueriesOptions): unknown {
  // A client is read through its clearly internal `~introspect`, a core through its `~scope` and
  // its functions' `~endpoint` (string keys both builds find), so neither entry bundles the
  // other: the table is the client's, never imported here. The scope's digest is computed here,
  // so a client or a core without queries holds none of it.
  const introspect = (source as { '~introspect'?: unknown } | null | undefined)?.['~introspect'];
  const introspection = typeof introspect === 'function' ? (introspect as () => ClientIntrospection).call(source) : undefined;
  const core = (introspection?.core ?? source) as { '~scope'?: ScopeOf } | null | undefined;
  const scopeOf = core?.['~scope'];
  if (typeof scopeOf !== 'function') throw new InvalidArgumentError(`queries() takes a CommunityServerClient, got ${describe(source)}`);
  const options: unknown = introspection ? second : third;
  checkOptions(options, ['scope'], 'queries');
  const scope = (options as QueriesOptions | undefined)?.scope ?? scopeOf.call(core, ({ baseUrl, token }) => tokenScope(baseUrl, token));
  if (!scope || typeof scope != 'string') throw new InvalidArgumentError(`scope must be a non-empty string, got ${describe(scope)}`);

  const root = [KEY_ROOT, scope];
  const tree: Node = {};
  const lines: { name: string; endpoint: Endpoint; call?: Method }[] = introspection
    ? linesOf<Endpoint>(introspection.resources)
    : functionsOf(second);
  for (const { name, endpoint, call } of lines) {
    const path = name.split('.');
    const own = path.pop()!;
    addFactories(
      path.reduce((parent, segment) => (parent[segment] ??= {}) as Node, tree),
      call
        ? (args) => call(source, ...args)
        : (args) => (path.reduce<Node>((node, key) => node[key] as Node, source as never)[own] as Method)(...args),
      root,
      path,
      own,
      endpoint,
    );
  }
  const key = (prefix?: string) => {
    const path = prefix?.split('.') ?? [];
    // Only a namespace or a method of the tree: a typo would address nothing, silently.
    if (
      path.reduce<unknown>((node, segment) => Object.hasOwn(Object(node) as object, segment) && (node as Node)[segment], tree) === false
    ) {
      throw new InvalidArgumentError(`q.key(): no namespace or method ${describe(prefix)}`);
    }
    return [...root, ...path];
  };
  return { ...tree, key };
}
