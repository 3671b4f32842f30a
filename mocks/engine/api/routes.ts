/**
 * How the mock answers each of the 64 requests: a table with the client's shape
 * (`resources.members.get` ↔ `routes.members.get`), so a request without a route does not
 * compile, and each route typed by what the client parses its answer as, so a wrong body does not
 * compile either. Each entry is one declaration: where the rows are (`fromServer`, `fromCad`,
 * `fromDepartment`), the parent that must exist (`under`), the permission it needs (`needs`);
 * answers that are not a row or a page are named in `views.ts`. Auth, paging, rate limits and
 * error bodies are the pipeline's.
 *
 * A filter path (`/user/{userId}`, `/staff/{staffId}`) answers an empty page for an id it has
 * never seen; a parent path (`/applications/{id}/responses`, `/cad/calls/{id}/notes`,
 * `/departments/{id}/…`, and CAD itself) answers 404 for a parent that is not there.
 * @module
 */
import type { Endpoint } from '../../../src/core/endpoint';
import type { PagePromise } from '../../../src/core/pagination';
import type { APIPromise } from '../../../src/core/api-promise';
import type { Resources } from '../../../src/resources/index';
import type { PageEnvelope } from '../../../src/schemas/index';
import { fromCad, fromDepartment, fromServer, itemRoute, listRoute, needs, ownServer, under, type Probe, type Route } from './context';
import * as view from './views';

/** What the client parses an endpoint's answer as: the page envelope of a list, the value of the rest. */
type AnswerOf<Method> = Method extends (...args: never[]) => PagePromise<infer Item>
  ? PageEnvelope<Item>
  : Method extends (...args: never[]) => APIPromise<infer Out>
    ? Out
    : never;

/**
 * One route per endpoint of `Table`, nested the same way, each answering what its endpoint parses;
 * the `health` group's are probes, which see no token (they take none).
 */
export type RouteTable<Table, Entry extends 'route' | 'probe' = 'route'> = {
  readonly [Name in keyof Table]: Table[Name] extends Endpoint<infer Method>
    ? Entry extends 'probe'
      ? Probe<AnswerOf<Method>>
      : Route<AnswerOf<Method>>
    : RouteTable<Table[Name], Name extends 'health' ? 'probe' : Entry>;
};

const calls = fromCad('calls');
const applications = fromServer('applications');

export const routes: RouteTable<Resources> = {
  admin: { rateLimit: needs('manage_tokens', ownServer(view.rateLimitStatus)) },
  applications: {
    list: listRoute(applications),
    responsesByUser: listRoute(fromServer('applicationResponses'), 'userId'),
    get: itemRoute(applications, 'application'),
    responses: listRoute(under(applications, 'application', fromServer('applicationResponses')), 'applicationId'),
  },
  auditLogs: { list: listRoute(fromServer('auditLogs')) },
  cad: {
    calls: {
      list: listRoute(calls),
      get: itemRoute(calls, 'call'),
      notes: listRoute(under(calls, 'call', fromCad('notes')), 'callId'),
      note: itemRoute(under(calls, 'call', fromCad('notes')), 'note', 'callId'),
    },
    courtHearings: { list: listRoute(fromCad('courtHearings')), get: itemRoute(fromCad('courtHearings'), 'court_hearing') },
    records: { list: listRoute(fromCad('records')), get: itemRoute(fromCad('records'), 'record') },
    unitGroups: { list: listRoute(fromCad('unitGroups')), get: itemRoute(fromCad('unitGroups'), 'unit_group') },
    units: { list: listRoute(fromCad('units')), get: itemRoute(fromCad('units'), 'unit') },
  },
  departments: {
    list: listRoute(fromServer('departments')),
    get: itemRoute(fromServer('departments'), 'department'),
    auditLogs: listRoute(fromDepartment('auditLogs')),
    joinRequests: { list: listRoute(fromDepartment('joinRequests')), get: itemRoute(fromDepartment('joinRequests'), 'join_request') },
    loas: {
      list: listRoute(fromDepartment('loas')),
      byMember: listRoute(fromDepartment('loas'), 'memberId'),
      get: itemRoute(fromDepartment('loas'), 'loa'),
    },
    members: {
      list: listRoute(fromDepartment('members')),
      getByChatId: view.byChatId(fromDepartment('members'), 'department'),
      get: itemRoute(fromDepartment('members'), 'member'),
      chatId: view.chatIdOf(fromDepartment('members')),
    },
    ranks: { list: listRoute(fromDepartment('ranks')), get: itemRoute(fromDepartment('ranks'), 'rank') },
    shifts: {
      list: listRoute(fromDepartment('shifts')),
      byMember: listRoute(fromDepartment('shifts'), 'memberId'),
      get: itemRoute(fromDepartment('shifts'), 'shift'),
    },
  },
  server: { info: view.serverInfoView },
  joinRequests: { list: listRoute(fromServer('joinRequests')), get: itemRoute(fromServer('joinRequests'), 'join_request') },
  loas: {
    list: listRoute(fromServer('loas')),
    byMember: listRoute(fromServer('loas'), 'memberId'),
    get: itemRoute(fromServer('loas'), 'loa'),
  },
  logs: {
    list: listRoute(fromServer('logs')),
    byStaff: listRoute(fromServer('logs'), 'createdBy'),
    byUser: listRoute(fromServer('logs'), 'username'),
    get: itemRoute(fromServer('logs'), 'log'),
  },
  members: {
    list: listRoute(fromServer('members')),
    getByChatId: view.byChatId(fromServer('members')),
    get: itemRoute(fromServer('members'), 'member'),
    chatId: view.chatIdOf(fromServer('members')),
  },
  roles: { list: listRoute(fromServer('roles')), get: itemRoute(fromServer('roles'), 'role') },
  shifts: {
    list: listRoute(fromServer('shifts')),
    byMember: listRoute(fromServer('shifts'), 'memberId'),
    get: itemRoute(fromServer('shifts'), 'shift'),
  },
  tokens: {
    list: view.ownTokens,
    create: needs('manage_tokens', view.createToken),
    current: view.currentToken,
    deactivate: needs('manage_tokens', view.deactivateToken),
  },
  verification: { gameByChatId: view.gameConnection, chatByGameId: view.chatAccount },
  health: { check: view.healthCheckProbe, live: view.liveness, metrics: view.metrics, ready: view.readiness },
};
