/**
 * One realistic, spec-shaped sample per resource (spec Part 2, plus the open ones). Each carries
 * every required field, several optional ones (some null), and one field the schemas do not name
 * (`futureField`), so tests can check that unknown fields reach the caller. Timestamps are Unix
 * seconds.
 */
import type {
  Account,
  Application,
  ApplicationResponse,
  AuditLogEvent,
  CadCall,
  CadCallNote,
  CadCourtHearing,
  CadRecord,
  CadUnit,
  CadUnitGroup,
  ChatIdResponse,
  Department,
  DepartmentMember,
  DepartmentRank,
  GameConnection,
  HealthStatus,
  JoinRequest,
  Loa,
  Log,
  Member,
  Metrics,
  RateLimitStatus,
  ReadinessStatus,
  Role,
  ServerInfo,
  Shift,
  Token,
} from 'community-server-sdk';
import type { PageEnvelope } from 'community-server-sdk/schemas';

const SERVER = 'srv_8f3a2c';
const T0 = 1763596800; // 2025-11-20T00:00:00Z
const future = { futureField: 'kept' } as const;

export const application = {
  id: 'app_whitelist',
  serverId: SERVER,
  title: 'Whitelist application',
  createdAt: T0 - 86_400 * 30,
  acceptingResponses: true,
  questions: [
    { id: 'q1', type: 'short', label: 'Game username', required: true },
    { id: 'q2', type: 'paragraph', label: 'Why do you want to join?', required: true },
  ],
  description: 'Apply to join the whitelisted roleplay server.',
  banAppeal: 0,
  sections: [{ id: 's1', title: 'About you', questions: ['q1', 'q2'] }],
  banAppealNote: false,
  approvalRoles: ['1183457720419139604'],
  reviewerRoles: ['1183457720419139611', '1183457720419139612'],
  allowMultipleSubmissions: false,
  appealCooldown: null,
  color: '#3b82f6',
  slug: 'whitelist',
  closedMessage: null,
  requireChatMember: true,
  cooldown: 7,
  quiz: null,
  lastUpdated: T0 - 3_600,
  gameGroupId: null,
  ...future,
} satisfies Application;

export const applicationResponse = {
  id: 'resp_01',
  applicationId: application.id,
  createdAt: T0 - 7_200,
  answers: { q1: 'RiverSide_42', q2: 'I enjoy serious roleplay.' },
  userId: '402915361736278017',
  status: 1,
  comments: [],
  finalizedAt: T0 - 600,
  finalizedBy: '298511134629183489',
  reason: null,
  reviewedAt: T0 - 900,
  gameId: null,
  stagingStatus: null,
  ...future,
} satisfies ApplicationResponse;

export const auditLogEvent = {
  id: 'audit_77',
  serverId: SERVER,
  timestamp: T0 - 120,
  userId: '298511134629183489',
  applicationId: application.id,
  description: 'Accepted response resp_01',
  type: null,
  ...future,
} satisfies AuditLogEvent;

export const cadCall = {
  id: 'call_1042',
  serverId: SERVER,
  type: 2,
  createdByUserId: '298511134629183489',
  createdAt: T0 - 1_800,
  status: 0,
  units: [3, 7],
  title: 'Traffic collision',
  description: 'Two vehicles, minor injuries, blocking the left lane.',
  records: [],
  panels: [],
  unitHistory: [{ unitId: 3, at: T0 - 1_700 }],
  address: '1200 Vinewood Blvd',
  code: '10-50',
  postal: '7012',
  priority: 'high',
  apiId: null,
  closedAt: null,
  loc: { x: 215.4, y: -810.2 },
  ...future,
} satisfies CadCall;

export const cadCallNote = {
  id: 'note_5',
  serverId: SERVER,
  callId: cadCall.id,
  createdByUserId: '298511134629183489',
  createdByUnit: { id: 3, number: '1-ADAM-12' },
  createdAt: T0 - 1_500,
  type: 0,
  data: { text: 'Fire department requested.' },
  mergedFrom: null,
  ...future,
} satisfies CadCallNote;

export const cadCourtHearing = {
  serverId: SERVER,
  id: 'hearing_12',
  status: 0,
  type: 1,
  recordId: 'rec_331',
  civId: 'civ_90',
  createdAt: T0 - 43_200,
  closedAt: null,
  processedBy: '298511134629183489',
  ...future,
} satisfies CadCourtHearing;

export const cadRecord = {
  id: 'rec_331',
  serverId: SERVER,
  createdByUserId: '298511134629183489',
  createdAt: T0 - 50_000,
  type: 1,
  label: 'Citation: speeding',
  data: { speed: 92, limit: 55 },
  templateId: 4,
  previewData: { fine: 250 },
  flags: [],
  meta: {},
  status: 1,
  objects: [{ kind: 'vehicle', plate: '8ABC123' }],
  agency: 'LSPD',
  noCharge: null,
  ...future,
} satisfies CadRecord;

export const cadUnit = {
  id: 3,
  serverId: SERVER,
  userId: '402915361736278017',
  status: 1,
  panic: false,
  number: '1-ADAM-12',
  agency: 'LSPD',
  loc: { x: 200.1, y: -790.5 },
  items: [],
  name: 'J. Rivera',
  rank: 'Officer II',
  customStatusId: null,
  subdivision: null,
  ...future,
} satisfies CadUnit;

export const cadUnitGroup = {
  id: 7,
  serverId: SERVER,
  name: 'Highway patrol',
  units: [3],
  status: 1,
  panic: false,
  premade: true,
  maxUnits: 4,
  restrictAgency: null,
  ...future,
} satisfies CadUnitGroup;

export const department = {
  id: 'dept_lspd',
  serverId: SERVER,
  name: 'Los Santos Police Department',
  icon: 'https://cdn.example.com/icons/lspd.png',
  activated: true,
  joinCode: 'LSPD-2025',
  chatGuildId: null,
  type: 1,
  ...future,
} satisfies Department;

export const departmentMember = {
  id: 'dm_402915361736278017',
  departmentId: department.id,
  rankId: 'rank_officer2',
  createdAt: T0 - 86_400 * 90,
  rankPosition: 3,
  customColumnValues: { callsign: '1-ADAM-12' },
  supportFlags: [],
  roles: ['1183457720419139604'],
  inactive: false,
  inactiveSince: null,
  ...future,
} satisfies DepartmentMember;

export const departmentRank = {
  id: 'rank_officer2',
  departmentId: department.id,
  name: 'Officer II',
  permissions: '0',
  position: 3,
  colour: '#1d4ed8',
  linkedChatRoleId: null,
  ...future,
} satisfies DepartmentRank;

export const joinRequest = {
  userId: '511234567890123456',
  serverId: SERVER,
  joinCode: 'LSPD-2025',
  createdAt: T0 - 300,
  ...future,
} satisfies JoinRequest;

export const loa = {
  id: 'loa_19',
  serverId: SERVER,
  memberId: departmentMember.id,
  createdAt: T0 - 86_400 * 3,
  status: 1,
  startType: 0,
  extensionRequests: [],
  reasonHistory: [{ reason: 'Exams', at: T0 - 86_400 * 3 }],
  startAt: T0,
  endAt: T0 + 86_400 * 14,
  reviewedAt: T0 - 86_400,
  reviewedBy: '298511134629183489',
  reason: 'Exams',
  denyReason: null,
  cancelledAt: null,
  ...future,
} satisfies Loa;

export const log = {
  id: 'log_880',
  serverId: SERVER,
  type: 2,
  text: 'Failure to roleplay',
  createdAt: T0 - 10_000,
  createdBy: '298511134629183489',
  editedBy: [],
  username: 'RiverSide_42',
  proof: ['https://cdn.example.com/proof/880.png'],
  tempBan: true,
  unbanAt: T0 + 86_400,
  hidden: false,
  description: null,
  gameId: '1029384756',
  ...future,
} satisfies Log;

export const member = {
  id: '402915361736278017',
  serverId: SERVER,
  roles: ['1183457720419139604', '1183457720419139611'],
  createdAt: T0 - 86_400 * 200,
  ...future,
} satisfies Member;

export const chatIdResponse = { chatId: '402915361736278017', ...future } satisfies ChatIdResponse;

export const account = { providerAccountId: '402915361736278017', userId: null, ...future } satisfies Account;

// Resources whose fields the spec leaves open.

export const shift = {
  id: 'shift_300',
  serverId: SERVER,
  memberId: departmentMember.id,
  type: 'patrol',
  wave: 2,
  autoEnd: false,
  breakTimestamps: [[T0 - 3_000, T0 - 2_400]],
  createdAt: T0 - 7_200,
  endedAt: null,
  ...future,
} satisfies Shift;

export const role = {
  id: '1183457720419139604',
  serverId: SERVER,
  name: 'Whitelisted',
  colour: '#22c55e',
  permissions: '0',
  linkedChatRoleId: null,
  createdAt: T0 - 86_400 * 365,
  ...future,
} satisfies Role;

export const serverInfo = {
  id: SERVER,
  name: 'Los Santos Roleplay',
  ownerId: '298511134629183489',
  joinCode: 'LSRP',
  chatGuildId: null,
  createdAt: T0 - 86_400 * 500,
  roles: [role.id],
  ...future,
} satisfies ServerInfo;

export const gameConnection = {
  gameId: '1029384756',
  userId: '402915361736278017',
  createdAt: T0 - 86_400 * 60,
  lastUpdatedAt: null,
  ...future,
} satisfies GameConnection;

export const token = {
  id: 'tok_01',
  name: 'ci',
  createdAt: T0,
  expiresAt: T0 + 86_400 * 30,
  lastUsedAt: null,
  active: true,
  ...future,
} satisfies Token;

/** The 201 answer of token creation: shows the secret once. */
export const createdToken = { ...token, token: 'cs_live_4f9a1c7e2b' } satisfies Token;

export const deactivatedToken = { id: token.id, active: false, deactivatedAt: T0 + 60, ...future } satisfies Token;

export const rateLimitStatus = {
  serverId: SERVER,
  limit: 120,
  remaining: 117,
  reset: T0 + 60,
  suspended: false,
  ...future,
} satisfies RateLimitStatus;

export const healthStatus = { status: 'ok', ...future } satisfies HealthStatus;

export const metrics = { status: 'ok', databasePoolSize: 10, ...future } satisfies Metrics;

export const readiness = { status: 'ready', database: true, cache: true, ...future } satisfies ReadinessStatus;

/** The list envelope of spec Part 2 around `items`. */
export function page<T>(
  items: T[],
  { page, pageSize, total, totalPages }: { page: number; pageSize: number; total: number; totalPages: number },
): PageEnvelope<T> {
  return { data: items, page, pageSize, total, totalPages };
}
