/**
 * Type-level contract of `community-server-sdk/query`, enforced by `npm run typecheck`: data and
 * errors are inferred from the client's own types through TanStack's hooks (React's and Vue's)
 * with no annotation,
 * and each `@ts-expect-error` fails the build if the misuse it marks ever compiles. The hooks
 * are only type-checked here (they need a React render to run).
 */
import { QueryClient, type InfiniteData } from '@tanstack/query-core';
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { useInfiniteQuery as useVueInfiniteQuery, useMutation as useVueMutation, useQuery as useVueQuery } from '@tanstack/vue-query';
import {
  CommunityServerClient,
  InvalidArgumentError,
  type CommunityServerError,
  type CadUnit,
  type DepartmentMember,
  type Log,
  type Member,
  type Page,
  type Token,
} from 'community-server-sdk';
import { queries, type InfiniteListData, type LiveData, type QueryKeyPrefix } from 'community-server-sdk/query';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ref } from 'vue';

const client = new CommunityServerClient({ token: 'cs_test_types', baseUrl: 'https://api.test' });
const q = queries(client);
const queryClient = new QueryClient();

describe('data and errors are typed from the client', () => {
  it('useQuery(q.members.get(id)).data is a Member, its error a CommunityServerError', () => {
    const view = () => {
      const member = useQuery(q.members.get('m1'));
      expectTypeOf(member.data).toEqualTypeOf<Member | undefined>();
      expectTypeOf(member.error).toEqualTypeOf<CommunityServerError | null>();
      if (member.isSuccess) expectTypeOf(member.data.username).toEqualTypeOf<Member['username']>();
      const unit = useQuery(q.cad.units.get(7));
      expectTypeOf(unit.data).toEqualTypeOf<CadUnit | undefined>();
      const inDepartment = useQuery(q.departments.members.get('d1', 'm1'));
      expectTypeOf(inDepartment.data).toEqualTypeOf<DepartmentMember | undefined>();
      const text = useQuery(q.health.check());
      expectTypeOf(text.data).toEqualTypeOf<string | undefined>();
    };
    expectTypeOf(view).toBeFunction();
  });

  it('a list gives a Page, its infinite form pages of it, its live form { data: T[] }', () => {
    const view = () => {
      expectTypeOf(useQuery(q.members.list({ pageSize: 50 })).data).toEqualTypeOf<Page<Member> | undefined>();
      const infinite = useInfiniteQuery(q.members.listInfinite({ pageSize: 50 }));
      // The pages (page params `unknown`, the hook's own default, as for TanStack's
      // infiniteQueryOptions) and their items once each (issue 30, item 7: the options' select).
      expectTypeOf(infinite.data).toEqualTypeOf<InfiniteListData<Member> | undefined>();
      expectTypeOf(infinite.data!).toExtend<InfiniteData<Page<Member>, unknown>>();
      expectTypeOf(infinite.data!.pages[0]!.data).toEqualTypeOf<Member[]>();
      expectTypeOf(infinite.data!.items).toEqualTypeOf<Member[]>();
      // A select of one's own replaces it, and gets the pages.
      const own = useInfiniteQuery({ ...q.members.listInfinite(), select: (data) => data.pages.length });
      expectTypeOf(own.data).toEqualTypeOf<number | undefined>();
      expectTypeOf(infinite.error).toEqualTypeOf<CommunityServerError | null>();
      const live = useQuery(q.logs.listLive({ pageSize: 50 }, { intervalMs: 5_000 }));
      expectTypeOf(live.data).toEqualTypeOf<LiveData<Log> | undefined>();
      expectTypeOf(live.data!.data).toEqualTypeOf<Log[]>();
    };
    expectTypeOf(view).toBeFunction();
  });

  it('mutations take what the client method takes and give what it gives', () => {
    const view = () => {
      const create = useMutation(q.tokens.create());
      expectTypeOf(create.mutate).parameter(0).toEqualTypeOf<{ name: string; expiresInDays?: number | null | undefined }>();
      expectTypeOf(create.data).toEqualTypeOf<Token | undefined>();
      expectTypeOf(create.error).toEqualTypeOf<CommunityServerError | null>();
      const deactivate = useMutation(q.tokens.deactivate());
      expectTypeOf(deactivate.mutate).parameter(0).toEqualTypeOf<string>();
    };
    expectTypeOf(view).toBeFunction();
  });

  it('keys are tagged: getQueryData and fetchQuery know the data', () => {
    expectTypeOf(queryClient.getQueryData(q.members.get('m1').queryKey)).toEqualTypeOf<Member | undefined>();
    expectTypeOf(queryClient.getQueryData(q.members.listInfinite().queryKey)).toEqualTypeOf<
      InfiniteData<Page<Member>, number> | undefined
    >();
    expectTypeOf(queryClient.getQueryData(q.logs.listLive().queryKey)).toEqualTypeOf<LiveData<Log> | undefined>();
    const fetched = () => queryClient.fetchQuery(q.members.get('m1'));
    expectTypeOf(fetched).returns.resolves.toEqualTypeOf<Member>();
  });
});

describe('the same options fit @tanstack/vue-query', () => {
  it('queries, a getter that follows a ref, infinite and live lists, mutations', () => {
    const setup = () => {
      const member = useVueQuery(q.members.get('m1'));
      expectTypeOf(member.data.value).toEqualTypeOf<Member | undefined>();
      expectTypeOf(member.error.value).toEqualTypeOf<CommunityServerError | null>();
      const id = ref('m1');
      expectTypeOf(useVueQuery(() => q.members.get(id.value)).data.value).toEqualTypeOf<Member | undefined>();
      expectTypeOf(useVueInfiniteQuery(q.members.listInfinite({ pageSize: 50 })).data.value?.pages[0]?.data).toEqualTypeOf<
        Member[] | undefined
      >();
      expectTypeOf(useVueInfiniteQuery(q.members.listInfinite({ pageSize: 50 })).data.value?.items).toEqualTypeOf<Member[] | undefined>();
      expectTypeOf(useVueQuery(q.logs.listLive({ pageSize: 25 }, { intervalMs: 5_000 })).data.value).toEqualTypeOf<
        LiveData<Log> | undefined
      >();
      const create = useVueMutation(q.tokens.create());
      expectTypeOf(create.data.value).toEqualTypeOf<Token | undefined>();
      // @ts-expect-error a token needs a name
      create.mutate({});
    };
    expectTypeOf(setup).toBeFunction();
  });
});

describe('misuse does not compile', () => {
  it('wrong arguments', () => {
    // @ts-expect-error a member id is a string
    q.members.get(42);
    // @ts-expect-error the department id is missing
    q.departments.members.get('m1');
    // @ts-expect-error a unit id is an int32, a number
    q.cad.units.get('7');
    // @ts-expect-error an unknown list parameter
    q.members.list({ pageSze: 50 });
    // @ts-expect-error live options where the request options would be: not request options
    expect(() => q.logs.listLive({ pageSize: 5 }, { timeout: 5_000 })).toThrow(InvalidArgumentError); // at run time too
    // @ts-expect-error too many arguments
    q.members.get('m1', {}, 'extra');
  });

  it('methods that do not exist, or are not what they are taken for', () => {
    // @ts-expect-error no such method
    void q.members.remove;
    // @ts-expect-error a GET that is not a list has no infinite form
    void q.members.getInfinite;
    // @ts-expect-error nor a live one
    void q.tokens.listLive;
    // @ts-expect-error a write gives mutation options, with no arguments of its own
    q.tokens.create({ name: 'x' });
    const view = () => {
      // @ts-expect-error a mutation's variables are the method's: a token needs a name
      useMutation(q.tokens.create()).mutate({});
      // @ts-expect-error mutation options are not query options
      useQuery(q.tokens.create());
    };
    expectTypeOf(view).toBeFunction();
  });

  it('q.key() takes the tree’s namespaces and methods only', () => {
    q.key();
    q.key('members');
    q.key('cad.calls.list');
    q.key('logs.listLive');
    expectTypeOf<'members.get'>().toExtend<QueryKeyPrefix>();
    // @ts-expect-error a typo (refused at run time too)
    expect(() => q.key('membrs')).toThrow(InvalidArgumentError);
    // @ts-expect-error a method that does not exist
    expect(() => q.key('members.nope')).toThrow(InvalidArgumentError);
  });

  it('the data is what the method returns, never any', () => {
    const view = () => {
      expectTypeOf(useQuery(q.members.get('m1')).data).not.toBeAny();
      expectTypeOf(useQuery(q.logs.listLive()).data!.data[0]).not.toBeAny();
      // @ts-expect-error a Member is not a Log
      const log: Log | undefined = useQuery(q.members.get('m1')).data;
      return log;
    };
    expectTypeOf(view).toBeFunction();
  });
});
