/**
 * The answers that are not a row or a page of a table: views over rows (a token without its
 * secret, a member's chat id, a game connection), the token writes, the rate-limit report and the
 * health probes. Each is one named route, typed by what the client parses it as; permissions,
 * parents and scopes are declared where the route table uses them, not checked here.
 * @module
 */
import type {
  Account,
  ChatIdResponse,
  GameConnection,
  HealthStatus,
  Metrics,
  RateLimitStatus,
  ReadinessStatus,
  ServerInfo,
  Token,
} from '../../../src/schemas/index';
import { fail, type Probe, type Route, type RouteContext, type RowScope } from './context';
import { json, missingLink, notFound, textReply, type Reply } from '../replies';
import { readJsonBody } from '../rows/request-body';
import { CreateTokenRequestSchema } from '../../../src/schemas/tokens';
import type { TokenRecord } from '../world';

/** A token as the API shows it: never its secret. */
const tokenView = ({ secret: _secret, deactivatedAt, ...token }: TokenRecord): Token => ({
  ...token,
  deactivatedAt,
  active: deactivatedAt === null,
});

/** #36: the server, with its member count and its roles' ids. */
export const serverInfoView: Route<ServerInfo> = (c) => ({
  ...c.server.info,
  memberCount: c.server.members.size,
  roles: c.server.roles.all().map((role) => role.id),
});

/** #55: the tokens of the token's server. */
export const ownTokens: Route<Token[]> = (c) => c.mock.store.tokens.where('serverId', c.token.serverId).map(tokenView);

/** #57: the token in use. */
export const currentToken: Route<Token> = (c) => tokenView(c.token);

/** #56: a new token of the creator's server, with the creator's permissions (spec Part 5); its secret is shown this once. */
export const createToken: Route<Token> = (c): Reply<Token> => {
  const { name, expiresInDays } = readJsonBody(c.body, CreateTokenRequestSchema);
  const createdAt = Math.floor(c.mock.now() / 1000);
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
};

/** #58: deactivates a token of the same server (deactivating twice changes nothing). */
export const deactivateToken: Route<Token> = (c) => {
  const tokenId = c.params[0]!;
  const { tokens } = c.mock.store;
  const token = tokens.get(tokenId);
  if (!token || token.serverId !== c.token.serverId) throw notFound('token', tokenId);
  return tokenView(token.deactivatedAt === null ? tokens.update(tokenId, { deactivatedAt: Math.floor(c.mock.now() / 1000) })! : token);
};

/** #1: the rate limit of the token's server and where each of its tokens stands. */
export const rateLimitStatus: Route<RateLimitStatus> = (c) => {
  const { admission, store } = c.mock;
  const { rateLimit } = admission;
  return {
    serverId: c.token.serverId,
    enabled: rateLimit !== undefined,
    limit: rateLimit?.limit ?? null,
    windowSeconds: rateLimit ? rateLimit.windowMs / 1000 : null,
    tokens: admission.report(store.tokens.where('serverId', c.token.serverId), c.mock.now()),
  };
};

const linkByChatId = (c: RouteContext, chatId: string | number) => c.server.links.where('chatId', chatId)[0];

/**
 * #28 and #47: the member of `scope` whose linked chat account is the last path parameter. The
 * id looked up is a chat id, not a member's, so the 404 says whose link is missing; `within`
 * names the scope in it (`department`: "no member of department "…" has the chat id …").
 */
export const byChatId =
  <Row extends object>(scope: RowScope<Row>, within?: 'department'): Route<Row> =>
  (c) => {
    const chatId = c.params[c.params.length - 1]!;
    const link = linkByChatId(c, chatId);
    const where = within ? ` of ${within} ${JSON.stringify(c.params[0])}` : '';
    return (
      (link && scope(c).get(link.memberId)) ??
      fail(missingLink('member_not_found', `no member${where} has the chat id ${JSON.stringify(chatId)}`))
    );
  };

/** #30 and #49: the chat id of a member of `scope` (404 if none); a member without a chat link is a 404 that says so. */
export const chatIdOf =
  <Row extends object>(scope: RowScope<Row>): Route<ChatIdResponse> =>
  (c) => {
    const memberId = c.params[c.params.length - 1]!;
    scope(c).get(memberId) ?? fail(notFound('member', memberId));
    const link =
      c.server.links.get(memberId) ?? fail(missingLink('chat_id_not_found', `member ${JSON.stringify(memberId)} has no chat link`));
    return { chatId: link.chatId };
  };

/** #59: the game account linked to a chat account. */
export const gameConnection: Route<GameConnection> = (c) => {
  const chatId = c.params[0]!;
  const link = linkByChatId(c, chatId);
  if (!link?.gameId) throw missingLink('game_connection_not_found', `the chat id ${JSON.stringify(chatId)} has no game connection`);
  return { gameId: link.gameId, userId: link.memberId, chatId: link.chatId, createdAt: link.createdAt, lastUpdatedAt: link.lastUpdatedAt };
};

/** #60: the chat account linked to a game account. */
export const chatAccount: Route<Account> = (c) => {
  const gameId = c.params[0]!;
  const link =
    c.server.links.where('gameId', gameId)[0] ??
    fail(missingLink('account_not_found', `the game id ${JSON.stringify(gameId)} has no linked chat account`));
  return { providerAccountId: link.chatId, userId: link.memberId };
};

/** #61: "OK", or 503 naming what is down. */
export const healthCheckProbe: Probe<string> = ({ mock: { health } }) => {
  const down = [!health.database && 'database', !health.cache && 'cache'].filter(Boolean);
  return down.length ? textReply(503, `${down.join(' and ')} unavailable`) : textReply(200, 'OK');
};

/** #62: alive while the process is. */
export const liveness: Probe<HealthStatus> = () => ({ status: 'ok' });

/** #63: the service's state and the requests answered by status since the last reset. */
export const metrics: Probe<Metrics> = ({ mock }) => ({
  status: mock.health.database && mock.health.cache ? 'ok' : 'degraded',
  databasePoolSize: mock.health.database ? 10 : 0,
  requestsServed: Object.fromEntries([...mock.served].sort(([a], [b]) => a - b)),
});

/** #64: ready when the database, the cache and the service are; 503 with the same shape otherwise. */
export const readiness: Probe<ReadinessStatus> = ({ mock: { health } }) => {
  const checks = {
    database: health.database ? 'ok' : 'unavailable',
    cache: health.cache ? 'ok' : 'unavailable',
    service: health.ready ? 'ok' : 'starting',
  };
  const ready = health.database && health.cache && health.ready;
  return json(ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks });
};
