/**
 * The seeded world: every row the mock serves, as a pure function of a seed. Nothing here reads
 * the clock or `Math.random`, so the same seed gives byte-identical JSON on every machine.
 *
 * Each data group draws from its own stream (`[seed, server, group]`), so asking for more logs
 * does not reshuffle the members. Rows carry the SDK's types; optional fields are filled in
 * realistic proportions: some present, some `null`, some absent.
 * @module
 */
import type { Faker } from '@faker-js/faker';
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import type {
  Application,
  ApplicationResponse,
  AuditLogEvent,
  CadCall,
  CadCallNote,
  CadCourtHearing,
  CadRecord,
  CadUnit,
  CadUnitGroup,
  Department,
  DepartmentMember,
  DepartmentRank,
  JoinRequest,
  Loa,
  Log,
  Member,
  Role,
  ServerInfo,
  Shift,
} from '../src/schemas/index';

/**
 * The first instant of the seeded world: every timestamp (Unix seconds) is at or after it,
 * 2023-01-01 UTC. Fixed, so a seed gives the same data whatever the clock says.
 * @example
 * const member = mock.store.main.members.all()[0]!;
 * expect(member.createdAt).toBeGreaterThanOrEqual(WORLD_START);
 */
export const WORLD_START = 1_672_531_200;
/**
 * The last instant of the seeded world, 2026-01-01 UTC: no seeded timestamp is later.
 * @example
 * const newest = mock.store.main.logs.all()[0]!; // lists are newest first
 * expect(newest.createdAt).toBeLessThanOrEqual(WORLD_END);
 */
export const WORLD_END = 1_767_225_600;

/**
 * A link between a member, their chat-platform account and (maybe) their game account: the
 * data behind `members.chatId`, `members.getByChatId` and both verification lookups.
 * @example
 * mock.store.main.links.insert({ memberId, chatId: '4242', gameId: null, createdAt: WORLD_START, lastUpdatedAt: WORLD_START });
 * await client.members.getByChatId('4242'); // that member; verification.gameByChatId('4242') is 404
 */
export interface AccountLink {
  /** The member (`members.get`) this account belongs to. */
  memberId: string;
  /** The chat-platform account id. */
  chatId: string;
  /** The game-platform account id, or `null` while the member has not verified one. */
  gameId: string | null;
  /** When the link was made, Unix seconds. */
  createdAt: number;
  /** When the link last changed, Unix seconds. */
  lastUpdatedAt: number;
}

/**
 * What the mock grants a token: read the server's data, and manage its tokens (`tokens.create`,
 * `tokens.deactivate`, `admin.rateLimit`). The seeded `readOnly` token has only `read`.
 * @example
 * const token = mock.store.tokens.where('secret', mock.tokens.readOnly)[0]!;
 * token.permissions; // ['read']
 */
export type Permission = 'read' | 'manage_tokens';

/**
 * A token as the mock stores it. `secret` is what a client sends; the API shows it once, on
 * creation, and never again.
 * @example
 * const [main] = mock.store.tokens.where('secret', mock.tokens.main);
 * mock.store.tokens.update(main!.id, { expiresAt: 0 }); // from now on, mock.tokens.main gets 401
 */
export interface TokenRecord {
  /** The id `tokens.deactivate(tokenId)` takes. */
  id: string;
  /** The name given at creation. */
  name: string;
  /** The server the token is scoped to. */
  serverId: string;
  /** The bearer token itself. */
  secret: string;
  /** What the token may do. */
  permissions: Permission[];
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds, or `null` for a token that does not expire. */
  expiresAt: number | null;
  /** Unix seconds of deactivation, or `null` while active. */
  deactivatedAt: number | null;
  /** Unix seconds of last use, or `null` when never used. */
  lastUsedAt: number | null;
}

/**
 * Server information as the mock stores it (what `server.info()` answers); `id` is always present.
 * @example
 * mock.store.main.info = { ...mock.store.main.info, name: 'Renamed' };
 * (await client.server.info()).name; // 'Renamed'
 */
export interface ServerRow extends ServerInfo {
  /** The server's id (what `admin.rateLimit(serverId)` takes). */
  id: string;
}
/**
 * A shift as the mock stores it (the spec leaves the fields open; these are the usual ones).
 * @example
 * const shifts = mock.store.main.shifts.where('memberId', memberId); // what shifts.byMember(memberId) pages through
 */
export interface ShiftRow extends Shift {
  /** The id `shifts.get(shiftId)` takes. */
  id: string;
  /** The member on shift. */
  memberId: string;
  /** When the shift started, Unix seconds. */
  createdAt: number;
}
/**
 * A role as the mock stores it.
 * @example
 * mock.store.main.roles.insert({ id: 'r-new', name: 'Dispatcher', createdAt: WORLD_END });
 */
export interface RoleRow extends Role {
  /** The id `roles.get(roleId)` takes. */
  id: string;
  /** Unix seconds; roles list oldest first. */
  createdAt: number;
}

export interface DepartmentWorld {
  department: Department;
  ranks: DepartmentRank[];
  members: DepartmentMember[];
  shifts: ShiftRow[];
  loas: Loa[];
  joinRequests: JoinRequest[];
  auditLogs: AuditLogEvent[];
}

export interface CadWorld {
  calls: CadCall[];
  notes: CadCallNote[];
  records: CadRecord[];
  courtHearings: CadCourtHearing[];
  units: CadUnit[];
  unitGroups: CadUnitGroup[];
}

export interface ServerWorld {
  info: ServerRow;
  members: Member[];
  links: AccountLink[];
  roles: RoleRow[];
  applications: Application[];
  applicationResponses: ApplicationResponse[];
  auditLogs: AuditLogEvent[];
  logs: Log[];
  joinRequests: JoinRequest[];
  loas: Loa[];
  shifts: ShiftRow[];
  departments: DepartmentWorld[];
  /** `null` on a server without CAD: every CAD request answers 404. */
  cad: CadWorld | null;
}

export interface World {
  main: ServerWorld;
  noCad: ServerWorld;
  tokens: TokenRecord[];
  /** The five tokens' secrets by role. */
  secrets: { main: string; noCad: string; readOnly: string; expired: string; revoked: string };
}

/**
 * How many rows of each server-wide group the `main` server gets (`createMockApi({ counts })`).
 * Growing one group leaves the rows of the others as they were. Any group may be 0, all of them
 * at once too: its lists answer empty pages and its ids 404. With no members, the rows members
 * write (logs, shifts, CAD…) name a few former members, as an old server's history does.
 * @example
 * const big = createMockApi({ seed: 1, counts: { members: 100_000 } });
 * const empty = createMockApi({ counts: { members: 0, logs: 0 } }); // client.members.list(): total 0
 */
export interface WorldCounts {
  /** Members of the server. */
  members: number;
  /** Roles. */
  roles: number;
  /** Applications. */
  applications: number;
  /** Responses, spread over the applications. */
  applicationResponses: number;
  /** Events of the server's audit log. */
  auditLogs: number;
  /** Moderation logs. */
  logs: number;
  /** Server-wide join requests. */
  joinRequests: number;
  /** Server-wide LOAs. */
  loas: number;
  /** Server-wide shifts. */
  shifts: number;
  /** Departments, each with its own ranks, members, shifts, LOAs, join requests and audit log. */
  departments: number;
  /** CAD calls, each with notes. */
  calls: number;
  /** CAD records; some have court hearings. */
  records: number;
  /** CAD units. */
  units: number;
  /** CAD unit groups. */
  unitGroups: number;
}

/**
 * The default row counts: enough that every list spans several pages at the default page size
 * of 10.
 * @example
 * const mock = createMockApi();
 * mock.store.main.members.size === DEFAULT_COUNTS.members; // true
 */
export const DEFAULT_COUNTS: WorldCounts = {
  members: 250,
  roles: 14,
  applications: 24,
  applicationResponses: 320,
  auditLogs: 180,
  logs: 400,
  joinRequests: 36,
  loas: 60,
  shifts: 300,
  departments: 5,
  calls: 60,
  records: 80,
  units: 32,
  unitGroups: 8,
};

/** The smaller `noCad` server: every group except CAD. */
const NO_CAD_COUNTS: WorldCounts = {
  ...DEFAULT_COUNTS,
  members: 40,
  roles: 6,
  applications: 4,
  applicationResponses: 30,
  auditLogs: 20,
  logs: 30,
  joinRequests: 5,
  loas: 8,
  shifts: 25,
  departments: 2,
  calls: 0,
  records: 0,
  units: 0,
  unitGroups: 0,
};

/** How many former members' ids a server without members draws for the rows they wrote. */
const FORMER_MEMBERS = 20;

/** A private faker, so seeding it never disturbs a caller's own `faker`. */
function createFaker(): Faker {
  // The `Faker` class is only exported by the package root, which loads every locale (~200 ms in
  // Node); the English instance's constructor is the same class.
  const FakerClass = englishFaker.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
  return new FakerClass({ locale: englishFaker.rawDefinitions });
}

/** Draws from a seeded faker with the few shapes the rows need (the world's, and the activity's). */
export class Draw {
  constructor(readonly f: Faker) {}
  uuid = () => this.f.string.uuid();
  int = (min: number, max: number) => this.f.number.int({ min, max });
  chance = (p: number) => this.f.number.float({ min: 0, max: 1 }) < p;
  pick = <T>(items: readonly T[]): T => this.f.helpers.arrayElement(items);
  some = <T>(items: readonly T[], min: number, max: number): T[] =>
    items.length === 0 ? [] : this.f.helpers.arrayElements(items, { min: Math.min(min, items.length), max: Math.min(max, items.length) });
  snowflake = () => this.f.string.numeric({ length: 18, allowLeadingZeros: false });
  /** A timestamp anywhere in the world's range, or after `from` within `spanDays`; never past its end. */
  time = (from = WORLD_START, spanDays = (WORLD_END - WORLD_START) / 86_400) =>
    this.int(Math.min(from, WORLD_END), Math.min(WORLD_END, from + Math.round(spanDays * 86_400)));
  sentence = () => this.f.lorem.sentence();
  /**
   * Sets an optional field the way a real service fills it: mostly a value, sometimes `null`,
   * sometimes absent.
   */
  optional<T extends object, K extends keyof T>(row: T, key: K, value: () => T[K], present = 0.7, nul = 0.15): void {
    const roll = this.f.number.float({ min: 0, max: 1 });
    if (roll < present) row[key] = value();
    else if (roll < present + nul) row[key] = null as T[K];
  }
}

const ROLE_NAMES = ['Owner', 'Admin', 'Moderator', 'Trial Moderator', 'Staff', 'Developer', 'Event Team', 'Verified', 'Member', 'Civilian', 'Muted', 'Nitro Booster', 'Content Creator', 'Partner', 'Retired Staff', 'Recruit'];
const DEPARTMENTS = [
  { name: 'State Police', icon: 'shield', agency: 'SP' },
  { name: 'Sheriff Office', icon: 'star', agency: 'SO' },
  { name: 'Fire & Rescue', icon: 'flame', agency: 'FD' },
  { name: 'Emergency Medical Services', icon: 'ambulance', agency: 'EMS' },
  { name: 'Communications', icon: 'radio', agency: 'DISPATCH' },
  { name: 'Civilian Operations', icon: 'user', agency: 'CIV' },
];
const RANKS = ['Cadet', 'Probationary Officer', 'Officer', 'Senior Officer', 'Corporal', 'Sergeant', 'Lieutenant', 'Captain'];
export const CALL_TITLES = ['Traffic stop', 'Robbery in progress', 'Shots fired', 'Medical emergency', 'Structure fire', 'Suspicious vehicle', 'Noise complaint', 'Vehicle pursuit', 'Welfare check', 'Domestic disturbance'];
export const LOG_REASONS = ['Random deathmatch', 'Failure to roleplay', 'Vehicle deathmatch', 'Exploiting', 'Harassment', 'Combat logging', 'Trolling', 'Fear RP violation', 'Meta gaming', 'New life rule'];
export const SHIFT_TYPES = ['Patrol', 'Traffic', 'Dispatch', 'Training', 'Supervisor'];

function buildServer(seed: number, serverIndex: number, counts: WorldCounts, withCad: boolean): ServerWorld {
  const f = createFaker();
  const d = new Draw(f);
  // Each group starts its own stream, so one group's size never shifts another's values.
  const group = (n: number) => f.seed([seed, serverIndex, n]);

  group(0);
  const serverId = d.uuid();
  const info: ServerRow = {
    id: serverId,
    name: `${f.location.city()} ${d.pick(['Roleplay', 'RP', 'Community', 'State RP'])}`,
    ownerId: d.snowflake(),
    chatGuildId: d.snowflake(),
    joinCode: f.string.alphanumeric({ length: 8, casing: 'lower' }),
    createdAt: WORLD_START,
  };

  group(1);
  const roles: RoleRow[] = Array.from({ length: counts.roles }, (_, i) => {
    const role: RoleRow = {
      id: d.uuid(),
      serverId,
      name: ROLE_NAMES[i % ROLE_NAMES.length] + (i >= ROLE_NAMES.length ? ` ${Math.floor(i / ROLE_NAMES.length) + 1}` : ''),
      permissions: String(d.int(0, 2 ** 31 - 1)),
      createdAt: d.time(WORLD_START, 60),
    };
    d.optional(role, 'colour', () => f.color.rgb());
    d.optional(role, 'linkedChatRoleId', d.snowflake, 0.6, 0.3);
    return role;
  });
  const roleIds = roles.map((role) => role.id);

  group(2);
  const members: Member[] = Array.from({ length: counts.members }, () => ({
    id: d.uuid(),
    serverId,
    roles: d.some(roleIds, 0, 3),
    createdAt: d.time(),
    username: f.internet.username(),
  }));
  const memberIds = members.map((member) => member.id);
  // With no members, the rows members write (logs, shifts, LOAs, CAD…) name people who have left
  // the server, as a live server's history does: a few ids, drawn only when it has none.
  const authorIds = memberIds.length ? memberIds : Array.from({ length: FORMER_MEMBERS }, () => d.uuid());
  const staffIds = authorIds.slice(0, Math.max(1, Math.ceil(authorIds.length / 20)));

  group(3);
  const links: AccountLink[] = [];
  for (const member of members) {
    if (!d.chance(0.85)) continue; // a member without a linked chat account: chatId lookups 404
    const createdAt = d.time(member.createdAt, 30);
    links.push({
      memberId: member.id,
      chatId: d.snowflake(),
      gameId: d.chance(0.75) ? f.string.numeric({ length: d.int(8, 10), allowLeadingZeros: false }) : null,
      createdAt,
      lastUpdatedAt: d.time(createdAt, 200),
    });
  }

  group(4);
  const applications: Application[] = Array.from({ length: counts.applications }, (_, i) => {
    const banAppeal = i % 6 === 5 ? 1 : 0;
    const createdAt = d.time();
    const application: Application = {
      id: d.uuid(),
      serverId,
      title: banAppeal ? 'Ban Appeal' : `${d.pick(DEPARTMENTS).name} Application`,
      createdAt,
      acceptingResponses: d.chance(0.7),
      questions: Array.from({ length: d.int(2, 6) }, () => ({ id: d.uuid(), type: d.pick(['short', 'paragraph', 'choice']), label: `${f.lorem.sentence({ min: 3, max: 8 }).slice(0, -1)}?` })),
      description: f.lorem.paragraph(),
      banAppeal,
      sections: [{ id: d.uuid(), title: 'General' }],
      banAppealNote: banAppeal === 1 && d.chance(0.5),
      approvalRoles: d.some(roleIds, 0, 2),
      reviewerRoles: d.some(roleIds, 1, 2),
    };
    d.optional(application, 'color', () => f.color.rgb());
    d.optional(application, 'slug', () => f.helpers.slugify(application.title.toLowerCase()) + `-${i + 1}`);
    d.optional(application, 'cooldown', () => d.int(0, 14) * 86_400);
    d.optional(application, 'allowMultipleSubmissions', () => d.chance(0.3));
    d.optional(application, 'requireChatMember', () => d.chance(0.8));
    d.optional(application, 'collectGameAccount', () => d.chance(0.5));
    d.optional(application, 'quiz', () => d.chance(0.2), 0.5);
    d.optional(application, 'closedMessage', () => 'Applications are closed for now.', 0.4);
    d.optional(application, 'resultsChannelId', d.snowflake, 0.5);
    d.optional(application, 'lastUpdated', () => d.time(createdAt, 300));
    d.optional(application, 'type', () => d.int(0, 2));
    return application;
  });

  group(5);
  const applicationResponses: ApplicationResponse[] = applications.length
    ? Array.from({ length: counts.applicationResponses }, () => {
        const application = d.pick(applications);
        const createdAt = d.time(application.createdAt, 400);
        const status = d.int(0, 3);
        const response: ApplicationResponse = {
          id: d.uuid(),
          applicationId: application.id,
          createdAt,
          answers: (application.questions as { id: string }[]).map((question) => ({ questionId: question.id, value: f.lorem.sentences({ min: 1, max: 3 }) })),
          userId: d.pick(authorIds),
          status,
        };
        if (status > 0) {
          response.reviewedAt = d.time(createdAt, 7);
          response.reviewedBy = d.pick(staffIds);
          d.optional(response, 'reason', () => f.lorem.sentence(), 0.6, 0.3);
        } else {
          d.optional(response, 'reviewedAt', () => null, 0, 0.5);
        }
        d.optional(response, 'gameId', () => f.string.numeric({ length: 9, allowLeadingZeros: false }), 0.5);
        d.optional(response, 'stagingStatus', () => d.int(0, 2), 0.3);
        return response;
      })
    : [];

  group(6);
  const auditLogs: AuditLogEvent[] = Array.from({ length: counts.auditLogs }, () => {
    const event: AuditLogEvent = { id: d.uuid(), serverId, timestamp: d.time(), userId: d.pick(authorIds) };
    if (applications.length) d.optional(event, 'applicationId', () => d.pick(applications).id, 0.6, 0.2);
    d.optional(event, 'description', () => f.lorem.sentence(), 0.7, 0.1);
    d.optional(event, 'type', () => d.int(0, 12), 0.8, 0.1);
    return event;
  });

  group(7);
  const usernames = Array.from({ length: Math.max(1, Math.ceil(counts.logs / 3)) }, () => f.internet.username());
  const logs: Log[] = Array.from({ length: counts.logs }, () => {
    const createdAt = d.time();
    const type = d.int(0, 4);
    const log: Log = {
      id: d.uuid(),
      serverId,
      type,
      text: d.pick(LOG_REASONS),
      createdAt,
      createdBy: d.pick(staffIds),
      editedBy: d.chance(0.1) ? [d.pick(staffIds)] : [],
      username: d.pick(usernames),
      proof: d.chance(0.6) ? [f.internet.url()] : [],
    };
    d.optional(log, 'description', () => f.lorem.sentence(), 0.5);
    d.optional(log, 'gameId', () => f.string.numeric({ length: 9, allowLeadingZeros: false }), 0.6);
    if (type === 3) {
      log.tempBan = d.chance(0.5);
      d.optional(log, 'unbanAt', () => d.time(createdAt, 30), 0.6, 0.4);
    }
    d.optional(log, 'hidden', () => d.chance(0.05), 0.4, 0.3);
    return log;
  });

  const joinCodes = [info.joinCode as string];
  group(8);
  const joinRequests: JoinRequest[] = d.some(authorIds, counts.joinRequests, counts.joinRequests).map((userId) => ({
    userId,
    serverId,
    joinCode: d.pick(joinCodes),
    createdAt: d.time(),
  }));

  group(9);
  const loas = Array.from({ length: counts.loas }, () => makeLoa(d, serverId, d.pick(authorIds), staffIds));

  group(10);
  const shifts = Array.from({ length: counts.shifts }, () => makeShift(d, serverId, d.pick(authorIds)));

  const departments: DepartmentWorld[] = [];
  for (let i = 0; i < counts.departments; i++) {
    group(100 + i);
    departments.push(makeDepartment(d, serverId, DEPARTMENTS[i % DEPARTMENTS.length]!, members, staffIds, i));
  }

  let cad: CadWorld | null = null;
  if (withCad) {
    group(11);
    cad = makeCad(d, serverId, counts, authorIds, departments);
  }

  return { info, members, links, roles, applications, applicationResponses, auditLogs, logs, joinRequests, loas, shifts, departments, cad };
}

function makeLoa(d: Draw, serverId: string, memberId: string, staffIds: readonly string[]): Loa {
  const createdAt = d.time();
  const status = d.int(0, 4);
  const loa: Loa = {
    id: d.uuid(),
    serverId,
    memberId,
    createdAt,
    status,
    startType: d.int(0, 1),
    extensionRequests: [],
    reasonHistory: [{ reason: d.f.lorem.sentence(), at: createdAt }],
    startAt: d.time(createdAt, 14),
    reason: d.f.lorem.sentence(),
  };
  loa.endAt = d.time(loa.startAt as number, 30);
  if (status >= 1) {
    loa.reviewedAt = d.time(createdAt, 3);
    loa.reviewedBy = d.pick(staffIds);
  }
  if (status === 1) loa.startedAt = loa.startAt ?? null;
  if (status === 2) {
    loa.denyReason = 'Insufficient notice';
  }
  if (status === 3) {
    loa.startedAt = loa.startAt ?? null;
    loa.endedAt = loa.endAt;
    loa.endedBy = memberId;
  }
  if (status === 4) loa.cancelledAt = d.time(createdAt, 5);
  d.optional(loa, 'expiredAt', () => null, 0, 0.3);
  return loa;
}

function makeShift(d: Draw, serverId: string, memberId: string, departmentId?: string): ShiftRow {
  const createdAt = d.time();
  const shift: ShiftRow = {
    id: d.uuid(),
    serverId,
    memberId,
    ...(departmentId === undefined ? {} : { departmentId }),
    type: d.pick(SHIFT_TYPES),
    createdAt,
    breakTimestamps: d.chance(0.3) ? [[createdAt + 1800, createdAt + 2400]] : [],
  };
  const ended = d.chance(0.9);
  shift.endedAt = ended ? Math.min(WORLD_END, createdAt + d.int(900, 6 * 3600)) : null;
  d.optional(shift, 'wave', () => d.int(1, 4), 0.5);
  d.optional(shift, 'autoEnd', () => d.chance(0.1), 0.6);
  if (ended) d.optional(shift, 'endedBy', () => memberId, 0.6);
  return shift;
}

function makeDepartment(d: Draw, serverId: string, spec: (typeof DEPARTMENTS)[number], members: Member[], staffIds: readonly string[], index: number): DepartmentWorld {
  const f = d.f;
  const departmentId = d.uuid();
  const department: Department = { id: departmentId, serverId, name: spec.name, icon: spec.icon };
  d.optional(department, 'activated', () => index !== 4 || d.chance(0.5), 0.9, 0.05);
  d.optional(department, 'chatGuildId', d.snowflake, 0.5);
  d.optional(department, 'joinCode', () => f.string.alphanumeric({ length: 6, casing: 'upper' }), 0.7);
  d.optional(department, 'type', () => index, 0.8);

  const ranks: DepartmentRank[] = RANKS.slice(0, d.int(5, RANKS.length)).map((name, position) => {
    const rank: DepartmentRank = { id: d.uuid(), departmentId, name, permissions: String(d.int(0, 255)), position };
    d.optional(rank, 'colour', () => f.color.rgb());
    d.optional(rank, 'linkedChatRoleId', d.snowflake, 0.5);
    return rank;
  });

  const roster = d.some(members, Math.min(20, members.length), Math.min(60, members.length));
  const departmentMembers: DepartmentMember[] = roster.map((member) => {
    const rank = d.pick(ranks);
    const row: DepartmentMember = {
      id: member.id,
      departmentId,
      rankId: rank.id,
      createdAt: d.time(member.createdAt, 300),
      rankPosition: rank.position,
      customColumnValues: { callsign: `${spec.agency}-${d.int(100, 999)}` },
      supportFlags: 0,
      roles: [],
    };
    const inactive = d.chance(0.1);
    d.optional(row, 'inactive', () => inactive, 0.8);
    if (inactive) row.inactiveSince = d.time(row.createdAt, 200);
    d.optional(row, 'inactiveLastShift', () => d.time(row.createdAt, 200), 0.4);
    return row;
  });
  const rosterIds = roster.map((member) => member.id);
  const outsiders = members.filter((member) => !rosterIds.includes(member.id)).map((member) => member.id);

  const shifts = Array.from({ length: roster.length * 2 }, () => makeShift(d, serverId, d.pick(rosterIds), departmentId));
  const loas = Array.from({ length: Math.ceil(roster.length / 4) }, () => ({ ...makeLoa(d, serverId, d.pick(rosterIds), staffIds), departmentId }));
  const joinRequests: JoinRequest[] = d.some(outsiders, 3, 8).map((userId) => ({
    userId,
    serverId,
    joinCode: department.joinCode ?? 'open',
    createdAt: d.time(),
    departmentId,
  }));
  const auditLogs: AuditLogEvent[] = Array.from({ length: roster.length }, () => {
    const event: AuditLogEvent = { id: d.uuid(), serverId, timestamp: d.time(), userId: d.pick(rosterIds), departmentId };
    d.optional(event, 'description', () => d.pick(['Promoted', 'Demoted', 'Rank changed', 'Member added', 'Member removed', 'Strike issued']), 0.9, 0.05);
    d.optional(event, 'type', () => d.int(0, 5), 0.8);
    return event;
  });
  return { department, ranks, members: departmentMembers, shifts, loas, joinRequests, auditLogs };
}

function makeCad(d: Draw, serverId: string, counts: WorldCounts, memberIds: readonly string[], departments: DepartmentWorld[]): CadWorld {
  const f = d.f;
  const agencies = DEPARTMENTS.map((department) => department.agency);

  const units: CadUnit[] = Array.from({ length: counts.units }, (_, i) => {
    const agency = d.pick(agencies);
    const unit: CadUnit = {
      id: i + 1,
      serverId,
      userId: d.pick(memberIds),
      status: d.int(0, 6),
      panic: d.chance(0.03),
      number: `${d.int(1, 9)}-${f.string.alpha({ length: 1, casing: 'upper' })}-${d.int(10, 99)}`,
      agency,
      loc: d.chance(0.7) ? { x: d.int(-3000, 3000), y: d.int(-3000, 3000) } : null,
      items: [],
    };
    d.optional(unit, 'name', () => f.person.fullName(), 0.8);
    d.optional(unit, 'location', () => f.location.street(), 0.5);
    d.optional(unit, 'rank', () => d.pick(RANKS), 0.6);
    d.optional(unit, 'subdivision', () => d.pick(['Patrol', 'Highway', 'K9', 'SWAT']), 0.3);
    return unit;
  });
  const unitIds = units.map((unit) => unit.id);

  const unitGroups: CadUnitGroup[] = Array.from({ length: counts.unitGroups }, (_, i) => {
    const group: CadUnitGroup = {
      id: i + 1,
      serverId,
      name: `${d.pick(['Adam', 'Boy', 'Charles', 'David', 'Edward', 'Frank', 'George', 'Henry'])}-${i + 1}`,
      units: d.some(unitIds, 0, 4),
      status: d.int(0, 3),
      panic: false,
      premade: d.chance(0.5),
    };
    d.optional(group, 'maxUnits', () => d.int(2, 6), 0.6);
    d.optional(group, 'restrictAgency', () => d.pick(agencies), 0.3);
    return group;
  });

  const records: CadRecord[] = Array.from({ length: counts.records }, () => {
    const type = d.int(0, 3);
    const record: CadRecord = {
      id: d.uuid(),
      serverId,
      createdByUserId: d.pick(memberIds),
      createdAt: d.time(),
      type,
      label: d.pick(['Citation', 'Arrest report', 'Warrant', 'Written warning']),
      data: { charges: Array.from({ length: d.int(1, 3) }, () => d.pick(['Speeding', 'Reckless driving', 'Evading', 'Assault', 'Trespassing'])) },
      templateId: type,
      previewData: { subject: f.person.fullName() },
      flags: [],
      meta: {},
      status: d.int(0, 2),
      objects: [],
    };
    d.optional(record, 'noCharge', () => d.chance(0.2), 0.5);
    d.optional(record, 'agency', () => d.pick(agencies), 0.6);
    return record;
  });

  const courtHearings: CadCourtHearing[] = d.some(records, Math.floor(records.length / 3), Math.floor(records.length / 3)).map((record) => {
    const hearing: CadCourtHearing = {
      serverId,
      id: d.uuid(),
      status: d.int(0, 2),
      type: d.int(0, 1),
      recordId: record.id,
      civId: d.uuid(),
      createdAt: d.time(record.createdAt, 30),
    };
    if (hearing.status === 2) hearing.closedAt = d.time(hearing.createdAt, 10);
    d.optional(hearing, 'processedBy', () => d.pick(memberIds), 0.5);
    return hearing;
  });

  const calls: CadCall[] = [];
  const notes: CadCallNote[] = [];
  for (let i = 0; i < counts.calls; i++) {
    const createdAt = d.time();
    const open = d.chance(0.35);
    const callUnits = d.some(unitIds, 0, 3);
    const call: CadCall = {
      id: d.uuid(),
      serverId,
      type: d.int(0, 3),
      createdByUserId: d.pick(memberIds),
      createdAt,
      status: open ? 0 : 1,
      units: callUnits,
      title: d.pick(CALL_TITLES),
      description: f.lorem.sentence(),
      records: d.some(records.map((record) => record.id), 0, 2),
      panels: [],
      unitHistory: callUnits.map((unitId) => ({ unitId, at: createdAt + 60 })),
      code: `10-${d.int(10, 99)}`,
    };
    d.optional(call, 'address', () => f.location.streetAddress(), 0.8);
    d.optional(call, 'postal', () => String(d.int(100, 999)), 0.6);
    d.optional(call, 'priority', () => d.pick(['1', '2', '3']), 0.7);
    d.optional(call, 'origin', () => d.pick(['911', 'officer', 'api']), 0.5);
    if (!open) call.closedAt = d.time(createdAt, 1);
    if (callUnits[0] !== undefined) call.primaryUnit = callUnits[0];
    calls.push(call);
    for (let n = d.int(0, 6); n > 0; n--) {
      const note: CadCallNote = {
        id: d.uuid(),
        serverId,
        callId: call.id,
        createdByUserId: d.pick(memberIds),
        createdByUnit: callUnits.length ? d.pick(callUnits) : null,
        createdAt: d.time(createdAt, 1),
        type: d.int(0, 1),
        data: { text: f.lorem.sentence() },
      };
      d.optional(note, 'mergedFrom', () => null, 0, 0.4);
      notes.push(note);
    }
  }
  void departments;
  return { calls, notes, records, courtHearings, units, unitGroups };
}

function makeTokens(seed: number, main: ServerWorld, noCad: ServerWorld): { tokens: TokenRecord[]; secrets: World['secrets'] } {
  const f = createFaker();
  f.seed([seed, 9, 0]);
  const d = new Draw(f);
  const token = (name: string, serverId: string, permissions: Permission[], extra: Partial<TokenRecord> = {}): TokenRecord => ({
    id: d.uuid(),
    name,
    serverId,
    secret: tokenSecret(f),
    permissions,
    createdAt: d.time(WORLD_START, 700),
    expiresAt: null,
    deactivatedAt: null,
    lastUsedAt: null,
    ...extra,
  });
  const all = [
    token('main', main.info.id, ['read', 'manage_tokens']),
    token('noCad', noCad.info.id, ['read', 'manage_tokens']),
    token('readOnly', main.info.id, ['read']),
    token('expired', main.info.id, ['read', 'manage_tokens'], { expiresAt: WORLD_START + 400 * 86_400 }),
    token('revoked', main.info.id, ['read', 'manage_tokens'], { deactivatedAt: WORLD_START + 500 * 86_400 }),
  ] as const;
  const [mainToken, noCadToken, readOnly, expired, revoked] = all;
  return {
    tokens: [...all],
    secrets: { main: mainToken.secret, noCad: noCadToken.secret, readOnly: readOnly.secret, expired: expired.secret, revoked: revoked.secret },
  };
}

/** A token secret: a recognisable prefix and 40 random characters. */
export function tokenSecret(f: Faker): string {
  return `cst_${f.string.alphanumeric(40)}`;
}

/** Builds the whole world for `seed`. `counts` sizes the `main` server's groups. */
export function buildWorld(seed: number, counts: Partial<WorldCounts> = {}): World {
  const main = buildServer(seed, 0, { ...DEFAULT_COUNTS, ...counts }, true);
  const noCad = buildServer(seed, 1, NO_CAD_COUNTS, false);
  return { main, noCad, ...makeTokens(seed, main, noCad) };
}

/** A seeded faker stream for values the mock makes at run time (new tokens, latency jitter). */
export function runtimeFaker(seed: number): Faker {
  const f = createFaker();
  f.seed([seed, 10, 0]);
  return f;
}
