import { toDate, InvalidArgumentError } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import * as schemas from 'community-server-sdk/schemas';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { mockClient } from '../helpers';

/** Spec Part 2, transcribed: each resource's R (required) fields, then every field it names. */
const spec: Record<string, { schema: z.ZodMiniObject; required: string; optional: string; requestBody?: true }> = {
  Application: {
    schema: schemas.ApplicationSchema,
    required: 'id serverId title createdAt acceptingResponses questions description banAppeal sections banAppealNote',
    optional:
      'acceptanceRemoveRoles approvalRoles blockedChatRoles allowMultipleSubmissions appealCooldown bannerKey closedMessage color eventsChannelId folderId orgType resultsChannelId sharing slug submissionMessage collectGameAccount inviteOnApproval quiz requireApprovedReason requireChatMember requiredDenialReason resultsMentionUser revealReviewer sendResponses stageResponses cooldown defaultQuestionPointValue guildMemberAge maxLogs quizAutoAcceptThreshold quizAutoDenyThreshold quizReleaseType type denialRemoveRoles denialRoles giveRolesOnApproval presets requiredChatRoles reviewOnlyRoles reviewerRoles submitMentionRoles internalLastChecked lastUpdated gameGroupId',
  },
  ApplicationResponse: {
    schema: schemas.ApplicationResponseSchema,
    required: 'id applicationId createdAt answers userId status',
    optional:
      'comments finalizedAt finalizedBy flagged reason reviewedAt reviewedBy gameId scoreReleased scoring sectionsSorted stagingStatus',
  },
  AuditLogEvent: {
    schema: schemas.AuditLogEventSchema,
    required: 'id serverId timestamp userId',
    optional: 'applicationId description type',
  },
  CadCall: {
    schema: schemas.CadCallSchema,
    required: 'id serverId type createdByUserId createdAt status units title description records panels unitHistory',
    optional: 'address apiId code origin postal priority closedAt createdByUnit loc primaryUnit',
  },
  CadCallNote: {
    schema: schemas.CadCallNoteSchema,
    required: 'id serverId callId createdByUserId createdByUnit createdAt type data',
    optional: 'mergedFrom',
  },
  CadCourtHearing: {
    schema: schemas.CadCourtHearingSchema,
    required: 'serverId id status type recordId civId createdAt',
    optional: 'closedAt processedBy',
  },
  CadRecord: {
    schema: schemas.CadRecordSchema,
    required: 'id serverId createdByUserId createdAt type label data templateId previewData flags meta status objects',
    optional: 'agency createdByUnit noCharge',
  },
  CadUnit: {
    schema: schemas.CadUnitSchema,
    required: 'id serverId userId status panic number agency loc items',
    optional: 'customStatusId location name rank subdivision',
  },
  CadUnitGroup: {
    schema: schemas.CadUnitGroupSchema,
    required: 'id serverId name units status panic premade',
    optional: 'customStatusId maxUnits restrictAgency',
  },
  Department: { schema: schemas.DepartmentSchema, required: 'id serverId name icon', optional: 'activated chatGuildId joinCode type' },
  DepartmentMember: {
    schema: schemas.DepartmentMemberSchema,
    required: 'id departmentId rankId createdAt rankPosition customColumnValues supportFlags roles',
    optional: 'inactive inactiveLastShift inactiveSince',
  },
  DepartmentRank: {
    schema: schemas.DepartmentRankSchema,
    required: 'id departmentId name permissions position',
    optional: 'colour linkedChatRoleId',
  },
  JoinRequest: { schema: schemas.JoinRequestSchema, required: 'userId serverId joinCode createdAt', optional: '' },
  Loa: {
    schema: schemas.LoaSchema,
    required: 'id serverId memberId createdAt status startType extensionRequests reasonHistory',
    optional: 'cancelledAt endAt endedAt expiredAt reviewedAt startAt startedAt denyReason endedBy reason reviewedBy',
  },
  Log: {
    schema: schemas.LogSchema,
    required: 'id serverId type text createdAt createdBy editedBy username proof',
    optional: 'completedBy deniedBy description hiddenBy expiredBy gameId typeId expired hidden tempBan expiredAt unbanAt',
  },
  Member: { schema: schemas.MemberSchema, required: 'id serverId roles createdAt', optional: '' },
  ChatIdResponse: { schema: schemas.ChatIdResponseSchema, required: 'chatId', optional: '' },
  Account: { schema: schemas.AccountSchema, required: 'providerAccountId', optional: 'userId' },
  // A request body: closed, so a misspelt field fails before sending instead of being dropped.
  CreateTokenRequest: { schema: schemas.CreateTokenRequestSchema, required: 'name', optional: 'expiresInDays', requestBody: true },
  HealthStatus: { schema: schemas.HealthStatusSchema, required: 'status', optional: '' },
  Metrics: { schema: schemas.MetricsSchema, required: 'status databasePoolSize', optional: '' },
  // Left open by the spec: the fields the live service is known to return, none required.
  Shift: {
    schema: schemas.ShiftSchema,
    required: '',
    optional: 'id serverId memberId type wave autoEnd breakTimestamps createdAt endedAt endedBy',
  },
  Role: {
    schema: schemas.RoleSchema,
    required: '',
    optional: 'id serverId name colour permissions extraPermissions linkedChatRoleId createdAt',
  },
  ServerInfo: { schema: schemas.ServerInfoSchema, required: '', optional: 'id name ownerId chatGuildId joinCode createdAt roles' },
  GameConnection: { schema: schemas.GameConnectionSchema, required: '', optional: 'gameId userId createdAt lastUpdatedAt' },
  // issue 10 item 8: what the service and the mock send for #55–#58 (`token`, the secret, on create only).
  Token: {
    schema: schemas.TokenSchema,
    required: '',
    optional: 'id name serverId permissions createdAt expiresAt deactivatedAt lastUsedAt active token',
  },
};

const words = (text: string) => text.split(' ').filter(Boolean).sort();
/** A value that passes `key`'s schema: tries the kinds of value the spec uses. */
function sampleFor(schema: z.ZodMiniObject, key: string): unknown {
  const field = schema.def.shape[key] as z.ZodMiniType;
  return ['x', 1, true, null, [], {}].find((value) => field.safeParse(value).success);
}

/** A valid object with every field the schema names. */
const fullSample = (schema: z.ZodMiniObject) =>
  Object.fromEntries(Object.keys(schema.def.shape).map((key) => [key, sampleFor(schema, key)]));

/** Keys the schema insists on, found by leaving each out of a valid object in turn. */
function requiredKeys(schema: z.ZodMiniObject): string[] {
  const sample = fullSample(schema);
  expect(schema.safeParse(sample).success).toBe(true);
  return Object.keys(sample)
    .filter((key) => {
      const { [key]: _, ...without } = sample;
      return !schema.safeParse(without).success;
    })
    .sort();
}

describe.each(Object.entries(spec))('%s', (_, { schema, required, optional, requestBody }) => {
  it("requires exactly the spec's R fields and names exactly its fields", () => {
    expect(requiredKeys(schema)).toEqual(words(required));
    expect(Object.keys(schema.def.shape).sort()).toEqual(words(`${required} ${optional}`));
  });

  it(requestBody ? 'refuses unknown fields (request body)' : 'keeps unknown fields (response: loose)', () => {
    const withExtra = { ...fullSample(schema), notInSpec: { kept: true } };
    expect(schema.safeParse(withExtra)).toMatchObject(
      requestBody ? { success: false } : { success: true, data: { notInSpec: { kept: true } } },
    );
  });
});

describe('field types', () => {
  const unit = { id: 1, serverId: 's', userId: 'u', status: 1, panic: false, number: '1A', agency: 'PD', loc: null, items: [] };
  it('int32 fields reject values past 32 bits and fractions', () => {
    expect(schemas.CadUnitSchema.safeParse(unit).success).toBe(true);
    expect(schemas.CadUnitSchema.safeParse({ ...unit, id: 2 ** 31 }).success).toBe(false);
    expect(schemas.CadUnitSchema.safeParse({ ...unit, id: -(2 ** 31) }).success).toBe(true);
    expect(schemas.CadUnitSchema.safeParse({ ...unit, status: 1.5 }).success).toBe(false);
  });
  it('"X or null" optional fields accept null and absence but not another type', () => {
    expect(schemas.CadUnitSchema.safeParse({ ...unit, name: null }).success).toBe(true);
    expect(schemas.CadUnitSchema.safeParse({ ...unit, name: 5 }).success).toBe(false);
  });
  it('required "any" fields must be present, with any value', () => {
    expect(schemas.CadUnitSchema.safeParse({ ...unit, loc: { x: 1 } }).success).toBe(true);
    const { loc: _, ...noLoc } = unit;
    expect(schemas.CadUnitSchema.safeParse(noLoc).success).toBe(false);
  });
  it('metrics databasePoolSize is at least 0', () => {
    expect(schemas.MetricsSchema.safeParse({ status: 'ok', databasePoolSize: 0 }).success).toBe(true);
    expect(schemas.MetricsSchema.safeParse({ status: 'ok', databasePoolSize: -1 }).success).toBe(false);
  });
  it('PageSchema wraps any item schema', () => {
    const MemberPage = schemas.PageSchema(schemas.MemberSchema);
    expect(MemberPage.safeParse({ data: [], page: 1, pageSize: 10, total: 0, totalPages: 0 }).success).toBe(true);
    expect(MemberPage.safeParse({ data: [{}], page: 1, pageSize: 10, total: 0, totalPages: 0 }).success).toBe(false);
    expect(MemberPage.safeParse({ data: [], page: 1 }).success).toBe(false);
  });
  it("the token list accepts an array or an object; the error schema is the spec's", () => {
    expect(schemas.TokenListSchema.safeParse([{ id: 't' }]).success).toBe(true);
    expect(schemas.TokenListSchema.safeParse({ tokens: [] }).success).toBe(true);
    expect(schemas.ErrorResponseSchema.safeParse({ error: { code: 'x', message: 'y' } }).success).toBe(true);
    expect(schemas.ErrorResponseSchema.safeParse({ error: 'text' }).success).toBe(false);
  });
});

describe('toDate', () => {
  it('reads Unix seconds and milliseconds alike', () => {
    expect(toDate(1763596800).toISOString()).toBe('2025-11-20T00:00:00.000Z');
    expect(toDate(1763596800000).toISOString()).toBe('2025-11-20T00:00:00.000Z');
    expect(toDate(0).toISOString()).toBe('1970-01-01T00:00:00.000Z');
  });
  it('passes null and undefined through, and refuses what is not a finite number', () => {
    expect(toDate(null)).toBeNull();
    expect(toDate(undefined)).toBeNull();
    expect(() => toDate(Number.NaN)).toThrow(InvalidArgumentError);
    expect(() => toDate('1763596800' as unknown as number)).toThrow(InvalidArgumentError);
  });
});

describe('issue 10 hardening: client — item 8: token responses are typed', () => {
  it("the mock's answers to #55–#58 parse with their fields typed and unknown fields kept; create's secret is usable", async () => {
    const mock = createMockApi({ seed: 2 });
    const client = mockClient(mock);
    const created = await client.tokens.create({ name: 'ci bot', expiresInDays: 7 });
    const secret: string | undefined = created.token; // no cast
    expect(secret).toEqual(expect.any(String));
    expect(created).toMatchObject({ name: 'ci bot', active: true, deactivatedAt: null, permissions: expect.any(Array) });
    expect(created.expiresAt! - created.createdAt!).toBe(7 * 86_400);
    const asNew = mockClient(mock, { token: secret });
    const current = await asNew.tokens.current();
    expect(current.id).toBe(created.id);
    expect(current.token).toBeUndefined(); // the secret is shown once
    const list = await client.tokens.list();
    expect(Array.isArray(list) && list.some((token) => token.id === created.id && token.name === 'ci bot')).toBe(true);
    const deactivated = await client.tokens.deactivate(created.id!);
    expect(deactivated).toMatchObject({ id: created.id, active: false, deactivatedAt: expect.any(Number) });
    expect(schemas.TokenSchema.parse({ ...created, addedLater: 1 })).toMatchObject({ addedLater: 1 });
    expect(schemas.TokenSchema.safeParse({ expiresAt: 'never' }).success).toBe(false);
  });
});
