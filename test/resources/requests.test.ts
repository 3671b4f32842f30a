/**
 * Contract test: one row per request #1..#64 of spec Part 4. Each row calls one client method
 * against a recording fetch double and checks the request on the wire (method, percent-encoded
 * path, query, auth, accept, body) and the result (Page, parsed object with unknown fields kept,
 * or text). Paths and queries below are written from the spec, not from src/.
 */
import { CommunityServerClient, Page } from 'community-server-sdk';
import type { PageEnvelope } from 'community-server-sdk/schemas';
import { describe, expect, it } from 'vitest';
import * as f from '../fixtures';
import { recordingFetch } from '../helpers';

interface Row {
  n: number;
  /** The method's path on the client, e.g. `members.list`; checked against what `call` uses. */
  name: string;
  call: (client: CommunityServerClient) => PromiseLike<unknown>;
  method?: 'POST' | 'DELETE';
  /** Expected path, percent-encoded, and query (with `?`, or none). */
  path: string;
  query?: string;
  /** Expected JSON request body. */
  body?: unknown;
  status?: number;
  reply: { page: PageEnvelope<unknown> } | { json: unknown } | { text: string };
}

// List parameters, and the query they must become.
const P = { page: 2, pageSize: 5, orderBy: 'createdAt', sort: 'desc' } as const;
const Q = '?page=2&pageSize=5&orderBy=createdAt&sort=desc';
const LIMIT = { limit: 25 } as const;
const QL = '?limit=25';
// Envelope numbers for: no params, P, LIMIT.
const M1 = { page: 1, pageSize: 10, total: 1, totalPages: 1 };
const M2 = { page: 2, pageSize: 5, total: 6, totalPages: 2 };
const ML = { page: 1, pageSize: 25, total: 1, totalPages: 1 };

// Ids that need percent-encoding, and their single-segment encodings.
const ID = 'a b/c';
const ENC = 'a%20b%2Fc';
const NAME = 'René 50%?#';
const NAME_ENC = 'Ren%C3%A9%2050%25%3F%23';

const S = '/api/v1/server';
const D = `${S}/departments/dept_lspd`;

// One request a line: a table to read down, which Prettier would spread over five lines a row.
// prettier-ignore
const rows: Row[] = [
  { n: 1, name: 'admin.rateLimit', call: (c) => c.admin.rateLimit(ID), path: `/api/v1/admin/server/${ENC}/rate-limit`, reply: { json: f.rateLimitStatus } },
  { n: 2, name: 'applications.list', call: (c) => c.applications.list(P), path: `${S}/applications`, query: Q, reply: { page: f.page([f.application], M2) } },
  { n: 3, name: 'applications.responsesByUser', call: (c) => c.applications.responsesByUser(ID), path: `${S}/applications/user/${ENC}/responses`, reply: { page: f.page([f.applicationResponse], M1) } },
  { n: 4, name: 'applications.get', call: (c) => c.applications.get('app_whitelist'), path: `${S}/applications/app_whitelist`, reply: { json: f.application } },
  { n: 5, name: 'applications.responses', call: (c) => c.applications.responses('app_whitelist', P), path: `${S}/applications/app_whitelist/responses`, query: Q, reply: { page: f.page([f.applicationResponse], M2) } },
  { n: 6, name: 'auditLogs.list', call: (c) => c.auditLogs.list(), path: `${S}/audit-logs`, reply: { page: f.page([f.auditLogEvent], M1) } },
  { n: 7, name: 'cad.calls.list', call: (c) => c.cad.calls.list(LIMIT), path: `${S}/cad/calls`, query: QL, reply: { page: f.page([f.cadCall], ML) } },
  { n: 8, name: 'cad.calls.get', call: (c) => c.cad.calls.get('call_1042'), path: `${S}/cad/calls/call_1042`, reply: { json: f.cadCall } },
  { n: 9, name: 'cad.calls.notes', call: (c) => c.cad.calls.notes('call_1042'), path: `${S}/cad/calls/call_1042/notes`, reply: { page: f.page([f.cadCallNote], M1) } },
  { n: 10, name: 'cad.calls.note', call: (c) => c.cad.calls.note('call_1042', ID), path: `${S}/cad/calls/call_1042/notes/${ENC}`, reply: { json: f.cadCallNote } },
  { n: 11, name: 'cad.courtHearings.list', call: (c) => c.cad.courtHearings.list(P), path: `${S}/cad/court-hearings`, query: Q, reply: { page: f.page([f.cadCourtHearing], M2) } },
  { n: 12, name: 'cad.courtHearings.get', call: (c) => c.cad.courtHearings.get('hearing_12'), path: `${S}/cad/court-hearings/hearing_12`, reply: { json: f.cadCourtHearing } },
  { n: 13, name: 'cad.records.list', call: (c) => c.cad.records.list(), path: `${S}/cad/records`, reply: { page: f.page([f.cadRecord], M1) } },
  { n: 14, name: 'cad.records.get', call: (c) => c.cad.records.get('rec_331'), path: `${S}/cad/records/rec_331`, reply: { json: f.cadRecord } },
  { n: 15, name: 'cad.unitGroups.list', call: (c) => c.cad.unitGroups.list(), path: `${S}/cad/unit-groups`, reply: { page: f.page([f.cadUnitGroup], M1) } },
  { n: 16, name: 'cad.unitGroups.get', call: (c) => c.cad.unitGroups.get(7), path: `${S}/cad/unit-groups/7`, reply: { json: f.cadUnitGroup } },
  { n: 17, name: 'cad.units.list', call: (c) => c.cad.units.list(P), path: `${S}/cad/units`, query: Q, reply: { page: f.page([f.cadUnit], M2) } },
  { n: 18, name: 'cad.units.get', call: (c) => c.cad.units.get(3), path: `${S}/cad/units/3`, reply: { json: f.cadUnit } },
  { n: 19, name: 'departments.list', call: (c) => c.departments.list(), path: `${S}/departments`, reply: { page: f.page([f.department], M1) } },
  { n: 20, name: 'departments.get', call: (c) => c.departments.get(ID), path: `${S}/departments/${ENC}`, reply: { json: f.department } },
  { n: 21, name: 'departments.auditLogs', call: (c) => c.departments.auditLogs('dept_lspd', P), path: `${D}/audit-logs`, query: Q, reply: { page: f.page([f.auditLogEvent], M2) } },
  { n: 22, name: 'departments.joinRequests.list', call: (c) => c.departments.joinRequests.list('dept_lspd'), path: `${D}/join-requests`, reply: { page: f.page([f.joinRequest], M1) } },
  { n: 23, name: 'departments.joinRequests.get', call: (c) => c.departments.joinRequests.get('dept_lspd', '511234567890123456'), path: `${D}/join-requests/511234567890123456`, reply: { json: f.joinRequest } },
  { n: 24, name: 'departments.loas.list', call: (c) => c.departments.loas.list('dept_lspd', LIMIT), path: `${D}/loas`, query: QL, reply: { page: f.page([f.loa], ML) } },
  { n: 25, name: 'departments.loas.byMember', call: (c) => c.departments.loas.byMember('dept_lspd', ID, P), path: `${D}/loas/user/${ENC}`, query: Q, reply: { page: f.page([f.loa], M2) } },
  { n: 26, name: 'departments.loas.get', call: (c) => c.departments.loas.get('dept_lspd', 'loa_19'), path: `${D}/loas/loa_19`, reply: { json: f.loa } },
  { n: 27, name: 'departments.members.list', call: (c) => c.departments.members.list('dept_lspd', P), path: `${D}/members`, query: Q, reply: { page: f.page([f.departmentMember], M2) } },
  { n: 28, name: 'departments.members.getByChatId', call: (c) => c.departments.members.getByChatId('dept_lspd', '402915361736278017'), path: `${D}/members/chat/402915361736278017`, reply: { json: f.departmentMember } },
  { n: 29, name: 'departments.members.get', call: (c) => c.departments.members.get(ID, ID), path: `${S}/departments/${ENC}/members/${ENC}`, reply: { json: f.departmentMember } },
  { n: 30, name: 'departments.members.chatId', call: (c) => c.departments.members.chatId('dept_lspd', 'dm_402915361736278017'), path: `${D}/members/dm_402915361736278017/chat`, reply: { json: f.chatIdResponse } },
  { n: 31, name: 'departments.ranks.list', call: (c) => c.departments.ranks.list('dept_lspd'), path: `${D}/ranks`, reply: { page: f.page([f.departmentRank], M1) } },
  { n: 32, name: 'departments.ranks.get', call: (c) => c.departments.ranks.get('dept_lspd', 'rank_officer2'), path: `${D}/ranks/rank_officer2`, reply: { json: f.departmentRank } },
  { n: 33, name: 'departments.shifts.list', call: (c) => c.departments.shifts.list('dept_lspd'), path: `${D}/shifts`, reply: { page: f.page([f.shift], M1) } },
  { n: 34, name: 'departments.shifts.byMember', call: (c) => c.departments.shifts.byMember('dept_lspd', 'dm_402915361736278017', P), path: `${D}/shifts/user/dm_402915361736278017`, query: Q, reply: { page: f.page([f.shift], M2) } },
  { n: 35, name: 'departments.shifts.get', call: (c) => c.departments.shifts.get('dept_lspd', ID), path: `${D}/shifts/${ENC}`, reply: { json: f.shift } },
  { n: 36, name: 'server.info', call: (c) => c.server.info(), path: `${S}/info`, reply: { json: f.serverInfo } },
  { n: 37, name: 'joinRequests.list', call: (c) => c.joinRequests.list(P), path: `${S}/join-requests`, query: Q, reply: { page: f.page([f.joinRequest], M2) } },
  { n: 38, name: 'joinRequests.get', call: (c) => c.joinRequests.get('511234567890123456'), path: `${S}/join-requests/511234567890123456`, reply: { json: f.joinRequest } },
  { n: 39, name: 'loas.list', call: (c) => c.loas.list(), path: `${S}/loas`, reply: { page: f.page([f.loa], M1) } },
  { n: 40, name: 'loas.byMember', call: (c) => c.loas.byMember('dm_402915361736278017'), path: `${S}/loas/user/dm_402915361736278017`, reply: { page: f.page([f.loa], M1) } },
  { n: 41, name: 'loas.get', call: (c) => c.loas.get('loa_19'), path: `${S}/loas/loa_19`, reply: { json: f.loa } },
  { n: 42, name: 'logs.list', call: (c) => c.logs.list(P), path: `${S}/logs`, query: Q, reply: { page: f.page([f.log], M2) } },
  { n: 43, name: 'logs.byStaff', call: (c) => c.logs.byStaff('298511134629183489', LIMIT), path: `${S}/logs/staff/298511134629183489`, query: QL, reply: { page: f.page([f.log], ML) } },
  { n: 44, name: 'logs.byUser', call: (c) => c.logs.byUser(NAME), path: `${S}/logs/user/${NAME_ENC}`, reply: { page: f.page([f.log], M1) } },
  { n: 45, name: 'logs.get', call: (c) => c.logs.get('log_880'), path: `${S}/logs/log_880`, reply: { json: f.log } },
  { n: 46, name: 'members.list', call: (c) => c.members.list(P), path: `${S}/members`, query: Q, reply: { page: f.page([f.member], M2) } },
  { n: 47, name: 'members.getByChatId', call: (c) => c.members.getByChatId('402915361736278017'), path: `${S}/members/chat/402915361736278017`, reply: { json: f.member } },
  { n: 48, name: 'members.get', call: (c) => c.members.get(ID), path: `${S}/members/${ENC}`, reply: { json: f.member } },
  { n: 49, name: 'members.chatId', call: (c) => c.members.chatId('402915361736278017'), path: `${S}/members/402915361736278017/chat`, reply: { json: f.chatIdResponse } },
  { n: 50, name: 'roles.list', call: (c) => c.roles.list(), path: `${S}/roles`, reply: { page: f.page([f.role], M1) } },
  { n: 51, name: 'roles.get', call: (c) => c.roles.get('1183457720419139604'), path: `${S}/roles/1183457720419139604`, reply: { json: f.role } },
  { n: 52, name: 'shifts.list', call: (c) => c.shifts.list(P), path: `${S}/shifts`, query: Q, reply: { page: f.page([f.shift], M2) } },
  { n: 53, name: 'shifts.byMember', call: (c) => c.shifts.byMember(ID), path: `${S}/shifts/user/${ENC}`, reply: { page: f.page([f.shift], M1) } },
  { n: 54, name: 'shifts.get', call: (c) => c.shifts.get('shift_300'), path: `${S}/shifts/shift_300`, reply: { json: f.shift } },
  { n: 55, name: 'tokens.list', call: (c) => c.tokens.list(), path: '/api/v1/tokens', reply: { json: [f.token] } },
  { n: 56, name: 'tokens.create', call: (c) => c.tokens.create({ name: 'ci', expiresInDays: 30 }), method: 'POST', path: '/api/v1/tokens', body: { name: 'ci', expiresInDays: 30 }, status: 201, reply: { json: f.createdToken } },
  { n: 57, name: 'tokens.current', call: (c) => c.tokens.current(), path: '/api/v1/tokens/current', reply: { json: f.token } },
  { n: 58, name: 'tokens.deactivate', call: (c) => c.tokens.deactivate(ID), method: 'DELETE', path: `/api/v1/tokens/${ENC}`, reply: { json: f.deactivatedToken } },
  { n: 59, name: 'verification.gameByChatId', call: (c) => c.verification.gameByChatId('402915361736278017'), path: '/api/v1/verification/chat/402915361736278017/game', reply: { json: f.gameConnection } },
  { n: 60, name: 'verification.chatByGameId', call: (c) => c.verification.chatByGameId(ID), path: `/api/v1/verification/game/${ENC}/chat`, reply: { json: f.account } },
  { n: 61, name: 'health.check', call: (c) => c.health.check(), path: '/health', reply: { text: 'OK' } },
  { n: 62, name: 'health.live', call: (c) => c.health.live(), path: '/livez', reply: { json: f.healthStatus } },
  { n: 63, name: 'health.metrics', call: (c) => c.health.metrics(), path: '/metrics', reply: { json: f.metrics } },
  { n: 64, name: 'health.ready', call: (c) => c.health.ready(), path: '/readyz', reply: { json: f.readiness } },
];

/** What the service answers for `row`. */
const answer = (row: Row) => {
  const status = row.status ?? 200;
  return 'text' in row.reply
    ? new Response(row.reply.text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } })
    : Response.json('page' in row.reply ? row.reply.page : row.reply.json, { status });
};

/** The client seen through a proxy that records which method path the caller reaches. */
function tracing(client: CommunityServerClient, reached: string[]): CommunityServerClient {
  const wrap = (target: object, path: string[]): object =>
    new Proxy(target, {
      get(object, key) {
        const value: unknown = Reflect.get(object, key, object); // receiver: the real object (private fields)
        if (typeof key !== 'string') return value;
        if (typeof value === 'function') reached.push([...path, key].join('.'));
        return typeof value === 'object' && value !== null ? wrap(value, [...path, key]) : value;
      },
    });
  return wrap(client, []) as CommunityServerClient;
}

/** Every method reachable on a client, by path: `members.list`, `cad.units.get`, … */
function methodsOf(value: object, prefix = ''): string[] {
  const keys =
    value instanceof CommunityServerClient
      ? // The namespaces are the client's getters; its own methods (`on`) and `cache` are not requests.
        Object.getOwnPropertyNames(CommunityServerClient.prototype).filter(
          (key) => key !== 'cache' && Object.getOwnPropertyDescriptor(CommunityServerClient.prototype, key)?.get !== undefined,
        )
      : Object.keys(value);
  return keys.flatMap((key) => {
    const member: unknown = (value as Record<string, unknown>)[key];
    if (typeof member === 'function') return [prefix + key];
    return typeof member === 'object' && member !== null ? methodsOf(member, `${prefix}${key}.`) : [];
  });
}

const envelopeOf = ({ data, page, pageSize, total, totalPages }: Page<unknown>) => ({ data, page, pageSize, total, totalPages });

describe('requests #1..#64', () => {
  it.each(rows)('#$n $name', async (row) => {
    const { fetch, requests } = recordingFetch(() => answer(row));
    const reached: string[] = [];
    const client = tracing(new CommunityServerClient({ token: 'test-token', baseUrl: 'https://api.test', fetch }), reached);

    const result = await row.call(client);

    expect(reached).toEqual([row.name]);
    expect(requests).toHaveLength(1);
    const [request] = requests as [Request];
    const url = new URL(request.url);
    expect(request.method).toBe(row.method ?? 'GET');
    expect(url.origin).toBe('https://api.test');
    expect(url.pathname).toBe(row.path);
    expect(url.search).toBe(row.query ?? '');
    expect(request.headers.get('authorization')).toBe(row.n <= 60 ? 'Bearer test-token' : null); // spec Part 5: requests 1 to 60
    expect(request.headers.get('accept')).toBe('text' in row.reply ? 'text/plain' : 'application/json');
    // A JSON body only where the row has one; none at all (not even an empty JSON) elsewhere.
    const body = await request.text();
    const sent = { body: body === '' ? undefined : JSON.parse(body), type: request.headers.get('content-type') };
    expect(sent).toStrictEqual(row.body === undefined ? { body: undefined, type: null } : { body: row.body, type: 'application/json' });

    // A list's Page carries the envelope's fields; anything else is the parsed body as sent.
    const reply = 'page' in row.reply ? row.reply.page : 'json' in row.reply ? row.reply.json : row.reply.text;
    expect(result instanceof Page).toBe('page' in row.reply);
    expect(result instanceof Page ? envelopeOf(result) : result).toStrictEqual(reply);
  });

  it('covers 64 distinct requests and every method of the client', () => {
    expect(rows.map((row) => row.n)).toStrictEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    const methods = methodsOf(new CommunityServerClient({ token: 'test-token', baseUrl: 'https://api.test' }));
    expect(new Set(methods).size).toBe(methods.length);
    expect(rows.map((row) => row.name).sort()).toStrictEqual(methods.sort());
    const namespaces = new Set(methods.map((method) => method.split('.').slice(0, -1).join('.')));
    expect([...namespaces].sort()).toStrictEqual(
      [
        'admin',
        'applications',
        'auditLogs',
        'cad.calls',
        'cad.courtHearings',
        'cad.records',
        'cad.unitGroups',
        'cad.units',
        'departments',
        'departments.joinRequests',
        'departments.loas',
        'departments.members',
        'departments.ranks',
        'departments.shifts',
        'server',
        'joinRequests',
        'loas',
        'logs',
        'members',
        'roles',
        'shifts',
        'tokens',
        'verification',
        'health',
      ].sort(),
    );
  });
});
