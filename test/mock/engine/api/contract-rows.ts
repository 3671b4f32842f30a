/**
 * The 64 requests as rows for tests that call each one against the mock: the SDK method, its
 * arguments (ids picked from the mock's store so every list is non-empty), the answer the store
 * says it must be, and how each 404 the spec lists (and API.md's 403s) is provoked. Shared by the
 * contract, empty-world, list-order and OpenAPI suites.
 */
import type { CommunityServerClient } from 'community-server-sdk';
import type { Store } from 'community-server-sdk/mock';
import { expect } from 'vitest';
import { endpointsOf, type Endpoint } from '../../../../src/core/endpoint';
import { resources } from '../../../../src/resources/index';

/** A string id nothing has. */
export const MISSING = 'no-such-id';
/** An int32 id (`groupId`, `unitId`) nothing has. */
export const MISSING_INT32 = 999_999;

const endpoints = new Map(endpointsOf(resources).map(({ name, endpoint }) => [name, endpoint]));
/** A row's request in the SDK's resource table: its path parameters and their types, its kind. */
export const endpointOf = (row: Row): Endpoint => endpoints.get(row.name)!;

type Method = (...args: unknown[]) => PromiseLike<unknown>;
/** The SDK method named `name` (`cad.calls.list`), bound to its resource. */
export const method = (client: CommunityServerClient, name: string): Method => {
  const path = name.split('.');
  const owner = path.slice(0, -1).reduce<any>((node, key) => node[key], client);
  return owner[path.at(-1)!].bind(owner) as Method;
};

/** Ids of rows that exist in the seeded world, picked so every list below is non-empty. */
export function pick(store: Store) {
  const main = store.main;
  const cad = main.cad!;
  const link = main.links.all().find((l) => l.gameId !== null)!;
  const application = main.applications.all().find((a) => main.applicationResponses.where('applicationId', a.id).length > 0)!;
  const call = cad.calls.all().find((c) => cad.notes.where('callId', c.id).length > 0)!;
  const departmentId = main.departments.all()[0]!.id;
  const department = main.departmentData.get(departmentId)!;
  const departmentLink = department.members
    .all()
    .map((m) => main.links.get(m.id))
    .find(Boolean)!;
  const log = main.logs.all()[0]!;
  return {
    serverId: main.info.id,
    memberId: link.memberId,
    chatId: link.chatId,
    gameId: link.gameId!,
    unlinkedMemberId: main.members.all().find((m) => !main.links.get(m.id))!.id,
    userId: main.applicationResponses.all()[0]!.userId,
    applicationId: application.id,
    callId: call.id,
    noteId: cad.notes.where('callId', call.id)[0]!.id,
    hearingId: cad.courtHearings.all()[0]!.id,
    recordId: cad.records.all()[0]!.id,
    groupId: cad.unitGroups.all()[0]!.id,
    unitId: cad.units.all()[0]!.id,
    departmentId,
    deptJoinUserId: department.joinRequests.all()[0]!.userId,
    deptLoa: department.loas.all()[0]!,
    deptMemberId: departmentLink.memberId,
    deptChatId: departmentLink.chatId,
    deptUnlinkedMemberId: department.members.all().find((m) => !main.links.get(m.id))!.id,
    rankId: department.ranks.all()[0]!.id,
    deptShift: department.shifts.all()[0]!,
    joinUserId: main.joinRequests.all()[0]!.userId,
    loa: main.loas.all()[0]!,
    staffId: log.createdBy,
    username: log.username,
    logId: log.id,
    roleId: main.roles.all()[0]!.id,
    shift: main.shifts.all()[0]!,
    tokenId: store.tokens.all().find((t) => t.name === 'readOnly')!.id,
  };
}
export type Ids = ReturnType<typeof pick>;

/** How a row's 404 is provoked: the first id (a parent), the last id (the item), or CAD on `noCad`. */
export type Missing = 'first' | 'last' | 'cad';

export interface Row {
  n: number;
  name: string;
  args: (ids: Ids) => unknown[];
  /**
   * The answer as the store holds it once the call is made: the value for a single item, every
   * row of the list in its served order for a list (page 1 is the first ten). May hold
   * asymmetric matchers where the store cannot say the value (a time the mock stamps).
   */
  expect: (store: Store, ids: Ids) => unknown;
  missing?: Missing[];
  /** Codes of the 404s, in the order of `missing`. */
  codes?: string[];
  readOnly403?: true;
}

const main = (s: Store) => s.main;
type TokenRecord = ReturnType<Store['tokens']['all']>[number];
/** A token as the API shows it (#55, #57, #58): every stored field but the secret, and `active`. */
const tokenView = ({ secret: _secret, ...token }: TokenRecord) => ({ ...token, active: token.deactivatedAt === null });
/** A token's line in the admin rate-limit status of a mock without a rate limit. */
const unlimited = (token: TokenRecord) => ({
  tokenId: token.id,
  name: token.name,
  used: 0,
  remaining: null,
  resetAt: null,
  authFailures: 0,
  suspendedUntil: null,
});
const tokenNamed = (s: Store, name: string) => s.tokens.all().findLast((token) => token.name === name)!;

// One request a line, like the spec's table.
// prettier-ignore
export const rows: Row[] = [
  // A mock without a rate limit: no window, and counters at zero for each of the server's tokens.
  { n: 1, name: 'admin.rateLimit', args: (i) => [i.serverId], expect: (s, i) => ({ serverId: i.serverId, enabled: false, limit: null, windowSeconds: null, tokens: s.tokens.where('serverId', i.serverId).map(unlimited) }), readOnly403: true, missing: ['last'], codes: ['server_not_found'] },
  { n: 2, name: 'applications.list', args: () => [], expect: (s) => main(s).applications.all() },
  { n: 3, name: 'applications.responsesByUser', args: (i) => [i.userId], expect: (s, i) => main(s).applicationResponses.where('userId', i.userId) },
  { n: 4, name: 'applications.get', args: (i) => [i.applicationId], expect: (s, i) => main(s).applications.get(i.applicationId), missing: ['last'], codes: ['application_not_found'] },
  { n: 5, name: 'applications.responses', args: (i) => [i.applicationId], expect: (s, i) => main(s).applicationResponses.where('applicationId', i.applicationId) },
  { n: 6, name: 'auditLogs.list', args: () => [], expect: (s) => main(s).auditLogs.all() },
  { n: 7, name: 'cad.calls.list', args: () => [], expect: (s) => main(s).cad!.calls.all(), missing: ['cad'], codes: ['cad_not_found'] },
  { n: 8, name: 'cad.calls.get', args: (i) => [i.callId], expect: (s, i) => main(s).cad!.calls.get(i.callId), missing: ['cad', 'last'], codes: ['cad_not_found', 'call_not_found'] },
  { n: 9, name: 'cad.calls.notes', args: (i) => [i.callId], expect: (s, i) => main(s).cad!.notes.where('callId', i.callId), missing: ['cad'], codes: ['cad_not_found'] },
  { n: 10, name: 'cad.calls.note', args: (i) => [i.callId, i.noteId], expect: (s, i) => main(s).cad!.notes.get(i.noteId), missing: ['cad', 'last'], codes: ['cad_not_found', 'note_not_found'] },
  { n: 11, name: 'cad.courtHearings.list', args: () => [], expect: (s) => main(s).cad!.courtHearings.all(), missing: ['cad'], codes: ['cad_not_found'] },
  { n: 12, name: 'cad.courtHearings.get', args: (i) => [i.hearingId], expect: (s, i) => main(s).cad!.courtHearings.get(i.hearingId), missing: ['cad', 'last'], codes: ['cad_not_found', 'court_hearing_not_found'] },
  { n: 13, name: 'cad.records.list', args: () => [], expect: (s) => main(s).cad!.records.all(), missing: ['cad'], codes: ['cad_not_found'] },
  { n: 14, name: 'cad.records.get', args: (i) => [i.recordId], expect: (s, i) => main(s).cad!.records.get(i.recordId), missing: ['cad', 'last'], codes: ['cad_not_found', 'record_not_found'] },
  { n: 15, name: 'cad.unitGroups.list', args: () => [], expect: (s) => main(s).cad!.unitGroups.all(), missing: ['cad'], codes: ['cad_not_found'] },
  { n: 16, name: 'cad.unitGroups.get', args: (i) => [i.groupId], expect: (s, i) => main(s).cad!.unitGroups.get(i.groupId), missing: ['cad', 'last'], codes: ['cad_not_found', 'unit_group_not_found'] },
  { n: 17, name: 'cad.units.list', args: () => [], expect: (s) => main(s).cad!.units.all(), missing: ['cad'], codes: ['cad_not_found'] },
  { n: 18, name: 'cad.units.get', args: (i) => [i.unitId], expect: (s, i) => main(s).cad!.units.get(i.unitId), missing: ['cad', 'last'], codes: ['cad_not_found', 'unit_not_found'] },
  { n: 19, name: 'departments.list', args: () => [], expect: (s) => main(s).departments.all() },
  { n: 20, name: 'departments.get', args: (i) => [i.departmentId], expect: (s, i) => main(s).departments.get(i.departmentId), missing: ['last'], codes: ['department_not_found'] },
  { n: 21, name: 'departments.auditLogs', args: (i) => [i.departmentId], expect: (s, i) => main(s).departmentData.get(i.departmentId)!.auditLogs.all(), missing: ['first'], codes: ['department_not_found'] },
  { n: 22, name: 'departments.joinRequests.list', args: (i) => [i.departmentId], expect: (s, i) => main(s).departmentData.get(i.departmentId)!.joinRequests.all(), missing: ['first'], codes: ['department_not_found'] },
  { n: 23, name: 'departments.joinRequests.get', args: (i) => [i.departmentId, i.deptJoinUserId], expect: (s, i) => main(s).departmentData.get(i.departmentId)!.joinRequests.get(i.deptJoinUserId), missing: ['first', 'last'], codes: ['department_not_found', 'join_request_not_found'] },
  { n: 24, name: 'departments.loas.list', args: (i) => [i.departmentId], expect: (s, i) => main(s).departmentData.get(i.departmentId)!.loas.all(), missing: ['first'], codes: ['department_not_found'] },
  { n: 25, name: 'departments.loas.byMember', args: (i) => [i.departmentId, i.deptLoa.memberId], expect: (s, i) => main(s).departmentData.get(i.departmentId)!.loas.where('memberId', i.deptLoa.memberId), missing: ['first'], codes: ['department_not_found'] },
  { n: 26, name: 'departments.loas.get', args: (i) => [i.departmentId, i.deptLoa.id], expect: (_s, i) => i.deptLoa, missing: ['first', 'last'], codes: ['department_not_found', 'loa_not_found'] },
  { n: 27, name: 'departments.members.list', args: (i) => [i.departmentId], expect: (s, i) => main(s).departmentData.get(i.departmentId)!.members.all(), missing: ['first'], codes: ['department_not_found'] },
  { n: 28, name: 'departments.members.getByChatId', args: (i) => [i.departmentId, i.deptChatId], expect: (s, i) => main(s).departmentData.get(i.departmentId)!.members.get(i.deptMemberId), missing: ['first', 'last'], codes: ['department_not_found', 'member_not_found'] },
  { n: 29, name: 'departments.members.get', args: (i) => [i.departmentId, i.deptMemberId], expect: (s, i) => main(s).departmentData.get(i.departmentId)!.members.get(i.deptMemberId), missing: ['first', 'last'], codes: ['department_not_found', 'member_not_found'] },
  { n: 30, name: 'departments.members.chatId', args: (i) => [i.departmentId, i.deptMemberId], expect: (_s, i) => ({ chatId: i.deptChatId }), missing: ['first', 'last'], codes: ['department_not_found', 'member_not_found'] },
  { n: 31, name: 'departments.ranks.list', args: (i) => [i.departmentId], expect: (s, i) => main(s).departmentData.get(i.departmentId)!.ranks.all(), missing: ['first'], codes: ['department_not_found'] },
  { n: 32, name: 'departments.ranks.get', args: (i) => [i.departmentId, i.rankId], expect: (s, i) => main(s).departmentData.get(i.departmentId)!.ranks.get(i.rankId), missing: ['first', 'last'], codes: ['department_not_found', 'rank_not_found'] },
  { n: 33, name: 'departments.shifts.list', args: (i) => [i.departmentId], expect: (s, i) => main(s).departmentData.get(i.departmentId)!.shifts.all(), missing: ['first'], codes: ['department_not_found'] },
  { n: 34, name: 'departments.shifts.byMember', args: (i) => [i.departmentId, i.deptShift.memberId], expect: (s, i) => main(s).departmentData.get(i.departmentId)!.shifts.where('memberId', i.deptShift.memberId), missing: ['first'], codes: ['department_not_found'] },
  { n: 35, name: 'departments.shifts.get', args: (i) => [i.departmentId, i.deptShift.id], expect: (_s, i) => i.deptShift, missing: ['first', 'last'], codes: ['department_not_found', 'shift_not_found'] },
  { n: 36, name: 'server.info', args: () => [], expect: (s) => ({ ...main(s).info, memberCount: main(s).members.size, roles: main(s).roles.all().map((role) => role.id) }),
  },
  { n: 37, name: 'joinRequests.list', args: () => [], expect: (s) => main(s).joinRequests.all() },
  { n: 38, name: 'joinRequests.get', args: (i) => [i.joinUserId], expect: (s, i) => main(s).joinRequests.get(i.joinUserId), missing: ['last'], codes: ['join_request_not_found'] },
  { n: 39, name: 'loas.list', args: () => [], expect: (s) => main(s).loas.all() },
  { n: 40, name: 'loas.byMember', args: (i) => [i.loa.memberId], expect: (s, i) => main(s).loas.where('memberId', i.loa.memberId) },
  { n: 41, name: 'loas.get', args: (i) => [i.loa.id], expect: (_s, i) => i.loa, missing: ['last'], codes: ['loa_not_found'] },
  { n: 42, name: 'logs.list', args: () => [], expect: (s) => main(s).logs.all() },
  { n: 43, name: 'logs.byStaff', args: (i) => [i.staffId], expect: (s, i) => main(s).logs.where('createdBy', i.staffId) },
  { n: 44, name: 'logs.byUser', args: (i) => [i.username], expect: (s, i) => main(s).logs.where('username', i.username) },
  { n: 45, name: 'logs.get', args: (i) => [i.logId], expect: (s, i) => main(s).logs.get(i.logId), missing: ['last'], codes: ['log_not_found'] },
  { n: 46, name: 'members.list', args: () => [], expect: (s) => main(s).members.all() },
  { n: 47, name: 'members.getByChatId', args: (i) => [i.chatId], expect: (s, i) => main(s).members.get(i.memberId), missing: ['last'], codes: ['member_not_found'] },
  { n: 48, name: 'members.get', args: (i) => [i.memberId], expect: (s, i) => main(s).members.get(i.memberId), missing: ['last'], codes: ['member_not_found'] },
  { n: 49, name: 'members.chatId', args: (i) => [i.memberId], expect: (_s, i) => ({ chatId: i.chatId }), missing: ['last'], codes: ['member_not_found'] },
  { n: 50, name: 'roles.list', args: () => [], expect: (s) => main(s).roles.all() },
  { n: 51, name: 'roles.get', args: (i) => [i.roleId], expect: (s, i) => main(s).roles.get(i.roleId), missing: ['last'], codes: ['role_not_found'] },
  { n: 52, name: 'shifts.list', args: () => [], expect: (s) => main(s).shifts.all() },
  { n: 53, name: 'shifts.byMember', args: (i) => [i.shift.memberId], expect: (s, i) => main(s).shifts.where('memberId', i.shift.memberId) },
  { n: 54, name: 'shifts.get', args: (i) => [i.shift.id], expect: (_s, i) => i.shift, missing: ['last'], codes: ['shift_not_found'] },
  // The server's tokens, none with its secret; the main token's lastUsedAt is this call's.
  { n: 55, name: 'tokens.list', args: () => [], expect: (s) => s.tokens.where('serverId', main(s).info.id).map(tokenView) },
  // The stored token, and its secret (shown this once).
  { n: 56, name: 'tokens.create', args: () => [{ name: 'contract' }], expect: (s) => ({ ...tokenView(tokenNamed(s, 'contract')), token: tokenNamed(s, 'contract').secret }), readOnly403: true },
  { n: 57, name: 'tokens.current', args: () => [], expect: (s) => tokenView(tokenNamed(s, 'main')) },
  // Inactive from now: not read back from the store alone, which a no-op would leave as it was.
  { n: 58, name: 'tokens.deactivate', args: (i) => [i.tokenId], expect: (s, i) => ({ ...tokenView(s.tokens.get(i.tokenId)!), active: false, deactivatedAt: expect.any(Number) }), readOnly403: true, missing: ['last'], codes: ['token_not_found'] },
  { n: 59, name: 'verification.gameByChatId', args: (i) => [i.chatId], expect: (s, i) => ({ ...main(s).links.get(i.memberId), userId: i.memberId, memberId: undefined }), missing: ['last'], codes: ['game_connection_not_found'] },
  { n: 60, name: 'verification.chatByGameId', args: (i) => [i.gameId], expect: (_s, i) => ({ providerAccountId: i.chatId, userId: i.memberId }), missing: ['last'], codes: ['account_not_found'] },
  { n: 61, name: 'health.check', args: () => [], expect: () => 'OK' },
  { n: 62, name: 'health.live', args: () => [], expect: () => ({ status: 'ok' }) },
  // Spec Part 2 (status; databasePoolSize, an int32 of at least 0, here a live pool), and the mock's request counts.
  { n: 63, name: 'health.metrics', args: () => [], expect: () => ({ status: 'ok', databasePoolSize: expect.toSatisfy((size: number) => Number.isInteger(size) && size > 0), requestsServed: expect.any(Object) }) },
  { n: 64, name: 'health.ready', args: () => [], expect: () => ({ status: 'ready', checks: { database: 'ok', cache: 'ok', service: 'ok' } }) },
];

/** What a list's page 1 must be, from every row of the list in its served order. */
export const firstPage = (all: unknown[], pageSize = 10) => ({
  data: all.slice(0, pageSize),
  page: 1,
  pageSize,
  total: all.length,
  totalPages: Math.ceil(all.length / pageSize),
});

/** An answer as plain JSON, as a caller would log or send it on (a `Page` by its fields). */
export const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const indexOf = (args: readonly unknown[], at: 'first' | 'last') => (at === 'first' ? 0 : args.length - 1);

/** `args` with the first or last id replaced by one nothing has, of the type its path parameter takes. */
export function replaceArg(args: unknown[], at: 'first' | 'last', row: Row): unknown[] {
  const copy = [...args];
  const index = indexOf(copy, at);
  const parameter = endpointOf(row).parts.filter((part) => typeof part !== 'string')[index];
  if (parameter === undefined) throw new Error(`#${row.n} ${row.name} has no path parameter ${index + 1}`);
  copy[index] = parameter.kind === 'int32' ? MISSING_INT32 : MISSING;
  return copy;
}

/**
 * Whether the call must be a 404: one of `args` is an id nothing has, and it addresses something
 * (an item, or a list's parent) rather than filtering a list by a person (`…/user/{memberId}`,
 * `…/staff/{staffId}`), which answers an empty page.
 */
export function addressesMissing(row: Row, args: readonly unknown[]): boolean {
  const { kind, parts } = endpointOf(row);
  const filters = parts.flatMap((part, at) =>
    typeof part === 'string' ? [] : [kind === 'page' && /\/(user|staff)\/$/.test(parts[at - 1] as string)],
  );
  return args.some((arg, index) => !filters[index] && (arg === MISSING || arg === MISSING_INT32));
}
