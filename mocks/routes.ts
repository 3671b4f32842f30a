/**
 * How the mock answers each of the 64 requests: a table with the client's shape
 * (`resources.members.get` ↔ `routes.members.get`), so a request without a route does not
 * compile. Each entry only says where the data is; auth, paging, rate limits and error bodies
 * are the pipeline's.
 *
 * Parents are checked where the path names one (`/applications/{id}/responses`,
 * `/cad/calls/{id}/notes`, `/departments/{id}/…`, and CAD itself); a filter path
 * (`/user/{userId}`, `/staff/{staffId}`) answers an empty page for an id it has never seen.
 * @module
 */
import type { Endpoint } from '../src/core/endpoint';
import type { Resources } from '../src/resources/index';
import { CreateTokenRequestSchema } from '../src/schemas/tokens';
import { cad, department, fail, item, list, parent, type Route, type RouteContext } from './context';
import { json, missingLink, notFound, text } from './replies';
import { readJsonBody } from './request-body';
import type { TokenRecord } from './world';

/** One route per endpoint of `Table`, nested the same way. */
export type RouteTable<Table> = { readonly [Name in keyof Table]: Table[Name] extends Endpoint ? Route : RouteTable<Table[Name]> };

/** A token as the API shows it: never its secret. */
const tokenView = ({ secret: _secret, deactivatedAt, ...token }: TokenRecord) => ({ ...token, deactivatedAt, active: deactivatedAt === null });

const linkByChatId = (c: RouteContext, chatId: string | number) => c.server.links.where('chatId', chatId)[0];

/** #30 and #49: the chat id of a member that exists; a member without a chat link is a 404 that says so. */
const memberChatId = (c: RouteContext, memberId: string | number) => {
  const link = c.server.links.get(memberId) ?? fail(missingLink('chat_id_not_found', `member ${JSON.stringify(memberId)} has no chat link`));
  return { chatId: link.chatId };
};

/** #28 and #47: the id looked up is a chat id, not a member's, so the 404 says whose link is missing. */
const noMemberWithChatId = (chatId: string | number, within = '') => missingLink('member_not_found', `no member${within} has the chat id ${JSON.stringify(chatId)}`);

export const routes: RouteTable<Resources> = {
  admin: {
    rateLimit: (c) => {
      c.mock.gate.require(c.token, 'manage_tokens');
      const serverId = c.params[0] as string;
      // A token sees only its own server; any other id is unknown to it.
      if (serverId !== c.token.serverId) throw notFound('server', serverId);
      const { rateLimit, gate, store, now } = c.mock;
      return {
        serverId,
        enabled: rateLimit !== undefined,
        limit: rateLimit?.limit ?? null,
        windowSeconds: rateLimit ? rateLimit.windowMs / 1000 : null,
        tokens: gate.report(store.tokens.where('serverId', serverId), now()),
      };
    },
  },
  applications: {
    list: list((c) => c.server.applications),
    responsesByUser: list((c) => c.server.applicationResponses, 'userId'),
    get: item((c) => c.server.applications, 'application'),
    responses: list((c) => (parent(c.server.applications, 'application', c), c.server.applicationResponses), 'applicationId'),
  },
  auditLogs: { list: list((c) => c.server.auditLogs) },
  cad: {
    calls: {
      list: list((c) => cad(c).calls),
      get: item((c) => cad(c).calls, 'call'),
      notes: list((c) => (parent(cad(c).calls, 'call', c), cad(c).notes), 'callId'),
      note: item((c) => (parent(cad(c).calls, 'call', c), cad(c).notes), 'note', 'callId'),
    },
    courtHearings: { list: list((c) => cad(c).courtHearings), get: item((c) => cad(c).courtHearings, 'court_hearing') },
    records: { list: list((c) => cad(c).records), get: item((c) => cad(c).records, 'record') },
    unitGroups: { list: list((c) => cad(c).unitGroups), get: item((c) => cad(c).unitGroups, 'unit_group') },
    units: { list: list((c) => cad(c).units), get: item((c) => cad(c).units, 'unit') },
  },
  departments: {
    list: list((c) => c.server.departments),
    get: item((c) => c.server.departments, 'department'),
    auditLogs: list((c) => department(c).auditLogs),
    joinRequests: {
      list: list((c) => department(c).joinRequests),
      get: item((c) => department(c).joinRequests, 'join_request'),
    },
    loas: {
      list: list((c) => department(c).loas),
      byMember: list((c) => department(c).loas, 'memberId'),
      get: item((c) => department(c).loas, 'loa'),
    },
    members: {
      list: list((c) => department(c).members),
      getByChatId: (c) => {
        const members = department(c).members;
        const chatId = c.params[1]!;
        const link = linkByChatId(c, chatId);
        return (link && members.get(link.memberId)) ?? fail(noMemberWithChatId(chatId, ` of department ${JSON.stringify(c.params[0])}`));
      },
      get: item((c) => department(c).members, 'member'),
      chatId: (c) => {
        const memberId = c.params[1]!;
        department(c).members.get(memberId) ?? fail(notFound('member', memberId));
        return memberChatId(c, memberId);
      },
    },
    ranks: {
      list: list((c) => department(c).ranks),
      get: item((c) => department(c).ranks, 'rank'),
    },
    shifts: {
      list: list((c) => department(c).shifts),
      byMember: list((c) => department(c).shifts, 'memberId'),
      get: item((c) => department(c).shifts, 'shift'),
    },
  },
  server: {
    info: (c) => ({ ...c.server.info, memberCount: c.server.members.size }),
  },
  joinRequests: {
    list: list((c) => c.server.joinRequests),
    get: item((c) => c.server.joinRequests, 'join_request'),
  },
  loas: {
    list: list((c) => c.server.loas),
    byMember: list((c) => c.server.loas, 'memberId'),
    get: item((c) => c.server.loas, 'loa'),
  },
  logs: {
    list: list((c) => c.server.logs),
    byStaff: list((c) => c.server.logs, 'createdBy'),
    byUser: list((c) => c.server.logs, 'username'),
    get: item((c) => c.server.logs, 'log'),
  },
  members: {
    list: list((c) => c.server.members),
    getByChatId: (c) => {
      const chatId = c.params[0]!;
      const link = linkByChatId(c, chatId);
      return (link && c.server.members.get(link.memberId)) ?? fail(noMemberWithChatId(chatId));
    },
    get: item((c) => c.server.members, 'member'),
    chatId: (c) => {
      const memberId = c.params[0]!;
      c.server.members.get(memberId) ?? fail(notFound('member', memberId));
      return memberChatId(c, memberId);
    },
  },
  roles: {
    list: list((c) => c.server.roles),
    get: item((c) => c.server.roles, 'role'),
  },
  shifts: {
    list: list((c) => c.server.shifts),
    byMember: list((c) => c.server.shifts, 'memberId'),
    get: item((c) => c.server.shifts, 'shift'),
  },
  tokens: {
    list: (c) => c.mock.store.tokens.where('serverId', c.token.serverId).map(tokenView),
    create: async (c) => {
      c.mock.gate.require(c.token, 'manage_tokens');
      const { name, expiresInDays } = await readJsonBody(c.request, CreateTokenRequestSchema);
      const createdAt = Math.floor(c.mock.now() / 1000);
      // The new token inherits its creator's server and permissions (spec Part 5).
      const token = c.mock.store.tokens.insert({
        id: c.mock.newId(),
        name,
        serverId: c.token.serverId,
        secret: c.mock.newSecret(),
        permissions: [...c.token.permissions],
        createdAt,
        expiresAt: expiresInDays == null ? null : createdAt + expiresInDays * 86_400,
        deactivatedAt: null,
        lastUsedAt: null,
      });
      return json(201, { ...tokenView(token), token: token.secret });
    },
    current: (c) => tokenView(c.token),
    deactivate: (c) => {
      c.mock.gate.require(c.token, 'manage_tokens');
      const tokenId = c.params[0]!;
      const { tokens } = c.mock.store;
      const token = tokens.get(tokenId);
      if (!token || token.serverId !== c.token.serverId) throw notFound('token', tokenId);
      const deactivated = token.deactivatedAt === null ? tokens.update(tokenId, { deactivatedAt: Math.floor(c.mock.now() / 1000) })! : token;
      return tokenView(deactivated);
    },
  },
  verification: {
    gameByChatId: (c) => {
      const chatId = c.params[0]!;
      const link = linkByChatId(c, chatId);
      if (!link?.gameId) throw missingLink('game_connection_not_found', `the chat id ${JSON.stringify(chatId)} has no game connection`);
      return { gameId: link.gameId, userId: link.memberId, chatId: link.chatId, createdAt: link.createdAt, lastUpdatedAt: link.lastUpdatedAt };
    },
    chatByGameId: (c) => {
      const gameId = c.params[0]!;
      const link = c.server.links.where('gameId', gameId)[0] ?? fail(missingLink('account_not_found', `the game id ${JSON.stringify(gameId)} has no linked chat account`));
      return { providerAccountId: link.chatId, userId: link.memberId };
    },
  },
  health: {
    check: ({ mock: { health } }) => {
      const down = [!health.database && 'database', !health.cache && 'cache'].filter(Boolean);
      return down.length ? text(503, `${down.join(' and ')} unavailable`) : text(200, 'OK');
    },
    live: () => ({ status: 'ok' }),
    metrics: ({ mock }) => ({
      status: mock.health.database && mock.health.cache ? 'ok' : 'degraded',
      databasePoolSize: mock.health.database ? 10 : 0,
      requestsServed: Object.fromEntries([...mock.served].sort(([a], [b]) => a - b)),
    }),
    ready: ({ mock: { health } }) => {
      const checks = { database: health.database ? 'ok' : 'unavailable', cache: health.cache ? 'ok' : 'unavailable', service: health.ready ? 'ok' : 'starting' };
      const ready = health.database && health.cache && health.ready;
      return json(ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks });
    },
  },
};
