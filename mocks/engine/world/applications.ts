/**
 * Applications of a server and the responses submitted to them.
 * @module
 */
import { ApplicationResponseSchema, ApplicationSchema, type Application, type ApplicationResponse } from '../../../src/schemas/index';
import { DEPARTMENT_KINDS } from './kinds';
import { byTime, type WorldTable } from './table';
import { aged, nullWhenUnset, openJson, spread } from './variety';

export const applicationsTable: WorldTable<Application> = {
  spec: byTime<Application>('createdAt'),
  schema: ApplicationSchema,
  references: { serverId: 'server', approvalRoles: ['role'], reviewerRoles: ['role'] },
  row: (d, { serverId, roleIds }, i) => {
    const f = d.f;
    const banAppeal = i % 6 === 5 ? 1 : 0;
    const createdAt = d.time();
    const application: Application = {
      id: d.uuid(),
      serverId,
      title: banAppeal ? 'Ban Appeal' : `${d.pick(DEPARTMENT_KINDS).name} Application`,
      createdAt,
      acceptingResponses: d.chance(0.7),
      questions: openJson(
        Array.from({ length: d.int(2, 6) }, () => ({
          id: d.uuid(),
          type: d.pick(['short', 'paragraph', 'choice']),
          label: `${f.lorem.sentence({ min: 3, max: 8 }).slice(0, -1)}?`,
        })),
        i,
        2,
      ),
      description: f.lorem.paragraph(),
      banAppeal,
      sections: openJson([{ id: d.uuid(), title: 'General' }], i, 3),
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
    // The fields added since: drawn aside, so the rows above keep their values.
    const a = d.aside;
    const roles = (drawn: unknown) => aged(drawn ?? a.some(roleIds, 0, 2), i);
    const checked = () => a.time(application.lastUpdated ?? createdAt, 30);
    return spread(application, i, {
      acceptanceRemoveRoles: roles,
      approvalRoles: roles,
      blockedChatRoles: roles,
      denialRemoveRoles: roles,
      denialRoles: roles,
      giveRolesOnApproval: roles,
      requiredChatRoles: roles,
      reviewOnlyRoles: roles,
      reviewerRoles: roles,
      submitMentionRoles: roles,
      presets: () => aged({ denyReasons: ['Too short', 'Missing information'], acceptMessage: 'Welcome aboard!' }, i),
      color: (drawn) => drawn ?? a.f.color.rgb(),
      slug: (drawn) => drawn ?? `${a.f.helpers.slugify(application.title.toLowerCase())}-${i + 1}`,
      cooldown: (drawn) => drawn ?? a.int(0, 14) * 86_400,
      appealCooldown: () => a.int(7, 90) * 86_400,
      allowMultipleSubmissions: (drawn) => drawn ?? a.chance(0.3),
      requireChatMember: (drawn) => drawn ?? a.chance(0.8),
      collectGameAccount: (drawn) => drawn ?? a.chance(0.5),
      quiz: (drawn) => drawn ?? a.chance(0.2),
      closedMessage: (drawn) => drawn ?? 'Applications are closed for now.',
      resultsChannelId: (drawn) => drawn ?? a.snowflake(),
      eventsChannelId: () => a.snowflake(),
      bannerKey: () => `banners/${a.uuid()}.png`,
      folderId: () => a.uuid(),
      orgType: () => a.pick(['department', 'staff', 'community']),
      sharing: () => a.pick(['private', 'server', 'public']),
      submissionMessage: () => 'Thanks for applying! Staff review applications within a week.',
      inviteOnApproval: () => a.chance(0.5),
      requireApprovedReason: () => a.chance(0.3),
      requiredDenialReason: () => a.chance(0.7),
      resultsMentionUser: () => a.chance(0.6),
      revealReviewer: () => a.chance(0.4),
      sendResponses: () => a.chance(0.5),
      stageResponses: () => a.chance(0.3),
      defaultQuestionPointValue: () => a.int(1, 5),
      guildMemberAge: () => a.int(0, 30) * 86_400,
      maxLogs: () => a.int(0, 10),
      quizAutoAcceptThreshold: () => a.int(70, 100),
      quizAutoDenyThreshold: () => a.int(0, 50),
      quizReleaseType: () => a.int(0, 2),
      type: (drawn) => drawn ?? a.int(0, 2),
      lastUpdated: (drawn) => drawn ?? a.time(createdAt, 300),
      internalLastChecked: checked,
      gameGroupId: () => a.f.string.numeric({ length: 8, allowLeadingZeros: false }),
    });
  },
};

export const applicationResponsesTable: WorldTable<ApplicationResponse> = {
  // `status`: the activity reviews pending responses.
  spec: byTime<ApplicationResponse>('createdAt', ['applicationId', 'userId', 'status']),
  schema: ApplicationResponseSchema,
  references: { serverId: 'server', applicationId: 'application' },
  row: (d, refs, i) => {
    const f = d.f;
    const application = d.pick(refs.applications);
    const createdAt = d.time(application.createdAt, 400);
    const status = d.int(0, 3);
    const response: ApplicationResponse = {
      id: d.uuid(),
      applicationId: application.id,
      createdAt,
      answers: openJson(
        (Array.isArray(application.questions) ? (application.questions as { id: string }[]) : []).map((question) => ({
          questionId: question.id,
          value: f.lorem.sentences({ min: 1, max: 3 }),
        })),
        i,
      ),
      userId: d.pick(refs.authorIds),
      status,
    };
    if (status > 0) {
      response.reviewedAt = d.time(createdAt, 7);
      response.reviewedBy = d.pick(refs.staffIds);
      d.optional(response, 'reason', () => f.lorem.sentence(), 0.6, 0.3);
    } else {
      d.optional(response, 'reviewedAt', () => null, 0, 0.5);
    }
    d.optional(response, 'gameId', () => f.string.numeric({ length: 9, allowLeadingZeros: false }), 0.5);
    d.optional(response, 'stagingStatus', () => d.int(0, 2), 0.3);
    // The fields added since: drawn aside, so the rows above keep their values.
    const a = d.aside;
    if (status > 0 && i % 3 !== 0) {
      response.finalizedAt = a.time(response.reviewedAt as number, 3);
      response.finalizedBy = response.reviewedBy;
    }
    nullWhenUnset(response, i, ['reviewedAt', 'reviewedBy', 'finalizedAt', 'finalizedBy']);
    return spread(response, i, {
      comments: () => aged([{ userId: a.pick(refs.staffIds), text: a.sentence(), at: a.time(createdAt, 7) }], i),
      flagged: () => aged(a.chance(0.1), i),
      scoreReleased: () => aged(a.chance(0.5), i),
      scoring: () => aged({ points: a.int(0, 20), max: 20 }, i),
      sectionsSorted: () => aged([a.uuid()], i),
      gameId: (drawn) => drawn ?? a.f.string.numeric({ length: 9, allowLeadingZeros: false }),
      stagingStatus: (drawn) => drawn ?? a.int(0, 2),
    });
  },
  needs: ['applications', 'authorIds'],
  // No application, no responses: there is nothing to respond to.
  *seed(d, refs, count) {
    if (refs.applications.length) for (let i = 0; i < count; i++) yield applicationResponsesTable.row(d, refs, i);
  },
};
