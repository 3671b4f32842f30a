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
import { fromCad, fromDepartment, fromServer, item, list, needs, ownServer, under, type Probe, type Route } from './context';
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
    list: list(applications),
    responsesByUser: list(fromServer('applicationResponses'), 'userId'),
    get: item(applications, 'application'),
    responses: list(under(applications, 'application', fromServer('applicationResponses')), 'applicationId'),
  },
  auditLogs: { list: list(fromServer('auditLogs')) },
  cad: {
    calls: {
      list: list(calls),
      get: item(calls, 'call'),
      notes: list(under(calls, 'call', fromCad('notes')), 'callId'),
      note: item(under(calls, 'call', fromCad('notes')), 'note', 'callId'),
    },
    courtHearings: { list: list(fromCad('courtHearings')), get: item(fromCad('courtHearings'), 'court_hearing') },
    records: { list: list(fromCad('records')), get: item(fromCad('records'), 'record') },
    unitGroups: { list: list(fromCad('unitGroups')), get: item(fromCad('unitGroups'), 'unit_group') },
    units: { list: list(fromCad('units')), get: item(fromCad('units'), 'unit') },
  },
  departments: {
    list: list(fromServer('departments')),
    get: item(fromServer('departments'), 'department'),
    auditLogs: list(fromDepartment('auditLogs')),
    joinRequests: { list: list(fromDepartment('joinRequests')), get: item(fromDepartment('joinRequests'), 'join_request') },
    loas: {
      list: list(fromDepartment('loas')),
      byMember: list(fromDepartment('loas'), 'memberId'),
      get: item(fromDepartment('loas'), 'loa'),
    },
    members: {
      list: list(fromDepartment('members')),
      getByChatId: view.byChatId(fromDepartment('members'), 'department'),
      get: item(fromDepartment('members'), 'member'),
      chatId: view.chatIdOf(fromDepartment('members')),
    },
    ranks: { list: list(fromDepartment('ranks')), get: item(fromDepartment('ranks'), 'rank') },
    shifts: {
      list: list(fromDepartment('shifts')),
      byMember: list(fromDepartment('shifts'), 'memberId'),
      get: item(fromDepartment('shifts'), 'shift'),
    },
  },
  server: { info: view.serverInfo },
  joinRequests: { list: list(fromServer('joinRequests')), get: item(fromServer('joinRequests'), 'join_request') },
  loas: { list: list(fromServer('loas')), byMember: list(fromServer('loas'), 'memberId'), get: item(fromServer('loas'), 'loa') },
  logs: {
    list: list(fromServer('logs')),
    byStaff: list(fromServer('logs'), 'createdBy'),
    byUser: list(fromServer('logs'), 'username'),
    get: item(fromServer('logs'), 'log'),
  },
  members: {
    list: list(fromServer('members')),
    getByChatId: view.byChatId(fromServer('members')),
    get: item(fromServer('members'), 'member'),
    chatId: view.chatIdOf(fromServer('members')),
  },
  roles: { list: list(fromServer('roles')), get: item(fromServer('roles'), 'role') },
  shifts: { list: list(fromServer('shifts')), byMember: list(fromServer('shifts'), 'memberId'), get: item(fromServer('shifts'), 'shift') },
  tokens: {
    list: view.ownTokens,
    create: needs('manage_tokens', view.createToken),
    current: view.currentToken,
    deactivate: needs('manage_tokens', view.deactivateToken),
  },
  verification: { gameByChatId: view.gameConnection, chatByGameId: view.chatAccount },
  health: { check: view.healthCheck, live: view.liveness, metrics: view.metrics, ready: view.readiness },
};
