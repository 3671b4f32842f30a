/**
 * The mock's route table is typed by the client (issue 12): each route answers what its endpoint's
 * schema parses, so a route serving the wrong table, a body of the wrong shape, or a `json()`
 * reply with the wrong body does not compile. Enforced by tsc over test/ (`tsconfig.test.json`):
 * each `@ts-expect-error` fails the build if the mistake it marks ever becomes legal.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Log, Member, PageEnvelope, ServerInfo, Token } from '../../../../src/schemas/index';
import type { Resources } from '../../../../src/resources/index';
import { fromServer, itemRoute, listRoute, needs, type Probe, type Route } from '../../../../mocks/engine/api/context';
import { json, textReply } from '../../../../mocks/engine/replies';
import type { RouteTable } from '../../../../mocks/engine/api/routes';

type Routes = RouteTable<Resources>;

describe('each route answers what the client parses', () => {
  it('a row route answers the resource; a list route its page envelope', () => {
    expectTypeOf<Routes['members']['get']>().toEqualTypeOf<Route<Member>>();
    expectTypeOf<Routes['logs']['list']>().toEqualTypeOf<Route<PageEnvelope<Log>>>();
    expectTypeOf<Routes['server']['info']>().toEqualTypeOf<Route<ServerInfo>>();
    expectTypeOf<Routes['tokens']['create']>().toEqualTypeOf<Route<Token>>();
    expectTypeOf<Routes['health']['check']>().toEqualTypeOf<Probe<string>>();
  });

  it('a route over the wrong table, or with the wrong body, does not compile', () => {
    const logsGet: Routes['logs']['get'] = itemRoute(fromServer('logs'), 'log');
    // @ts-expect-error members are not logs
    const wrongTable: Routes['logs']['get'] = itemRoute(fromServer('members'), 'log');
    // @ts-expect-error a list route answers a page, not a row
    const rowForPage: Routes['logs']['list'] = itemRoute(fromServer('logs'), 'log');
    // @ts-expect-error ServerInfo's name is a string
    const wrongField: Routes['server']['info'] = () => ({ name: 5 });
    // @ts-expect-error json() carries its body's type: a token's id is a string
    const wrongReply: Routes['tokens']['create'] = needs('manage_tokens', () => json(201, { id: 5, name: 'bot' }));
    // @ts-expect-error a plain Response says nothing of its body, so a route may not answer one
    const untyped: Routes['health']['live'] = () => new Response('{}');
    const textProbe: Routes['health']['check'] = () => textReply(200, 'OK');
    const logsList: Routes['logs']['list'] = listRoute(fromServer('logs'), 'createdBy');
    expectTypeOf([logsGet, wrongTable, rowForPage, wrongField, wrongReply, untyped, textProbe, logsList]).toBeArray();
  });

  it('a health probe sees no token (it takes none), and so no server; every other route does (issue 19)', () => {
    // @ts-expect-error a probe's context has no token
    const readsToken: Routes['health']['live'] = (c) => ({ status: c.token.name });
    // @ts-expect-error nor a server, which is the token's
    const readsServer: Routes['health']['live'] = (c) => ({ status: c.server.info.id });
    const probe: Routes['health']['live'] = (c) => ({ status: c.mock.health.database ? 'ok' : 'down' });
    const current: Routes['tokens']['current'] = (c) => ({ ...c.token, active: true });
    expectTypeOf([readsToken, readsServer, probe, current]).toBeArray();
  });
});
