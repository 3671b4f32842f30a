/**
 * Type-level contract, enforced by `npm run typecheck` (tsc over test/): a wrong type here fails
 * the build, and each `@ts-expect-error` fails it if the call it marks ever becomes legal.
 */
import {
  APIPromise,
  CommunityServerClient,
  PagePromise,
  type CadUnit,
  type ClientOptions,
  type DepartmentMember,
  type ListParams,
  type Logger,
  type LogLevel,
  type Member,
  type RateLimitMode,
  type RateLimitStore,
  type RequestOptions,
  type Token,
  type CallObserver,
  type Middleware,
} from 'community-server-sdk';
import { createCore, membersGet, membersList, withOptions, type Core, type CoreFunction } from 'community-server-sdk/core';
import * as core from 'community-server-sdk/core';
import { MemberSchema } from 'community-server-sdk/schemas';
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type * as sdk from 'community-server-sdk';

const client = new CommunityServerClient({ token: 'cs_test_types', baseUrl: 'https://api.test' });

describe('method signatures come from the endpoint tables', () => {
  it('get methods take their path ids, then options', () => {
    expectTypeOf(client.members.get).parameters.toEqualTypeOf<[memberId: string, options?: RequestOptions]>();
    expectTypeOf(client.members.get).returns.toEqualTypeOf<APIPromise<Member>>();
    expectTypeOf(client.departments.members.get).parameters.toEqualTypeOf<
      [departmentId: string, memberId: string, options?: RequestOptions]
    >();
    expectTypeOf(client.departments.members.get).returns.toEqualTypeOf<APIPromise<DepartmentMember>>();
    expectTypeOf(client.cad.units.get).parameters.toEqualTypeOf<[unitId: number, options?: RequestOptions]>();
    expectTypeOf(client.cad.units.get).returns.toEqualTypeOf<APIPromise<CadUnit>>();
  });

  it('list methods take their path ids, params, options, and return a PagePromise', () => {
    expectTypeOf(client.members.list).parameters.toEqualTypeOf<[params?: ListParams, options?: RequestOptions]>();
    expectTypeOf(client.members.list).returns.toEqualTypeOf<PagePromise<Member>>();
    expectTypeOf(client.departments.loas.byMember).parameters.toEqualTypeOf<
      [departmentId: string, memberId: string, params?: ListParams, options?: RequestOptions]
    >();
  });

  it('tokens.create takes its body; health.check answers text', () => {
    expectTypeOf(client.tokens.create).parameter(0).toEqualTypeOf<{ name: string; expiresInDays?: number | null | undefined }>();
    expectTypeOf(client.tokens.create).returns.toEqualTypeOf<APIPromise<Token>>();
    // issue 10 item 8: a created token's secret and its known fields read without a cast.
    expectTypeOf<Token['token']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Token['expiresAt']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<Token['permissions']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Token['active']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf(client.health.check).returns.toEqualTypeOf<APIPromise<string>>();
  });

  it('wrong calls do not compile', () => {
    const never = () => {
      // @ts-expect-error unitId is a number
      void client.cad.units.get('5');
      // @ts-expect-error memberId is required
      void client.members.get();
      // @ts-expect-error name is required
      void client.tokens.create({});
      // @ts-expect-error unknown list parameter
      void client.members.list({ pagesize: 5 });
      // @ts-expect-error options are not params
      void client.members.get('m1', { page: 2 });
    };
    expectTypeOf(never).toBeFunction();
  });
});

describe('results', () => {
  it('items keep unknown fields as unknown, and types match the schemas', () => {
    expectTypeOf<Member>().toMatchTypeOf<z.infer<typeof MemberSchema>>();
    expectTypeOf<Member['createdAt']>().toEqualTypeOf<number>();
    expectTypeOf<Member['anythingElse']>().toEqualTypeOf<unknown>();
  });

  it('awaiting, iterating and collecting give the item type', async () => {
    const walk = async () => {
      const page = await client.members.list();
      expectTypeOf(page.data).toEqualTypeOf<Member[]>();
      for await (const member of client.members.list()) expectTypeOf(member).toEqualTypeOf<Member>();
      expectTypeOf(await client.members.list().toArray()).toEqualTypeOf<Member[]>();
      const { data, response } = await client.members.get('m1').withResponse();
      expectTypeOf(data).toEqualTypeOf<Member>();
      expectTypeOf(response).toEqualTypeOf<Response>();
    };
    expectTypeOf(walk).toBeFunction();
  });
});

describe('client options', () => {
  it('name their types: RateLimitMode, LogLevel, Logger (which console is)', () => {
    expectTypeOf<ClientOptions['rateLimit']>().toEqualTypeOf<RateLimitMode | undefined>();
    expectTypeOf<RateLimitMode>().toEqualTypeOf<'wait' | 'off' | RateLimitStore>();
    expectTypeOf<ClientOptions['logLevel']>().toEqualTypeOf<LogLevel | undefined>();
    expectTypeOf<LogLevel>().toEqualTypeOf<'off' | 'error' | 'warn' | 'info' | 'debug'>();
    expectTypeOf<ClientOptions['logger']>().toEqualTypeOf<Logger | undefined>();
    expectTypeOf(console).toMatchTypeOf<Logger>();
    const never = () => {
      // @ts-expect-error not a level
      void new CommunityServerClient({ logLevel: 'verbose' });
      // @ts-expect-error a logger needs all four methods
      void new CommunityServerClient({ logger: { warn: () => {} } });
    };
    expectTypeOf(never).toBeFunction();
  });
});

describe('the main entry exports what users need, not the internals', () => {
  it("the event payloads are exported; the resource tables' watch keys and the error target are not", () => {
    expectTypeOf<sdk.ClientEvents['response']>().toEqualTypeOf<sdk.ResponseEvent>();
    expectTypeOf<Parameters<sdk.ClientListener<'retry'>>[0]>().toEqualTypeOf<sdk.RetryEvent>();
    // @ts-expect-error WatchKeys describes the endpoint tables; a caller never writes one
    expectTypeOf<sdk.WatchKeys>().toBeObject();
    // @ts-expect-error RequestTarget is the method and path ApiErrorInit already names
    expectTypeOf<sdk.RequestTarget>().toBeObject();
  });
});

describe('the functions of /core are the client methods with a core first (issue 31)', () => {
  it('same parameters after the core, same results', () => {
    expectTypeOf(membersGet).parameters.toEqualTypeOf<[core: Core, memberId: string, options?: RequestOptions]>();
    expectTypeOf(membersGet).returns.toEqualTypeOf<APIPromise<Member>>();
    expectTypeOf(membersList).parameters.toEqualTypeOf<[core: Core, params?: ListParams, options?: RequestOptions]>();
    expectTypeOf(membersList).returns.toEqualTypeOf<PagePromise<Member>>();
    expectTypeOf(core.cadUnitsGet).parameters.toEqualTypeOf<[core: Core, unitId: number, options?: RequestOptions]>();
    expectTypeOf(core.cadUnitsGet).returns.toEqualTypeOf<APIPromise<CadUnit>>();
    expectTypeOf(core.departmentsMembersGet).toEqualTypeOf<CoreFunction<typeof client.departments.members.get>>();
    const never = () => {
      // @ts-expect-error unitId is a number
      void core.cadUnitsGet(createCore(), '5');
      // @ts-expect-error the core comes first
      void membersGet('m1');
    };
    expectTypeOf(never).toBeFunction();
  });

  it('middleware, deadline, withOptions, observe are typed as API.md gives them', () => {
    expectTypeOf<Middleware>().toEqualTypeOf<(request: Request, next: (request: Request) => Promise<Response>) => Promise<Response>>();
    expectTypeOf<Parameters<CommunityServerClient['withOptions']>[0]>().toHaveProperty('deadline').toEqualTypeOf<number | undefined>();
    expectTypeOf(client.withOptions({ deadline: 5_000 })).toEqualTypeOf<CommunityServerClient>();
    expectTypeOf(withOptions).returns.toEqualTypeOf<Core>();
    expectTypeOf<RequestOptions['deadline']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Parameters<CommunityServerClient['observe']>[0]>().toEqualTypeOf<CallObserver>();
    expectTypeOf<ReturnType<CommunityServerClient['observe']>>().toEqualTypeOf<() => void>();
  });
});
