/**
 * Applications of a server and the responses submitted to them.
 * @module
 */
import { ApplicationResponseSchema, ApplicationSchema, type Application, type ApplicationResponse } from '../../src/schemas/index';
import { DEPARTMENT_KINDS } from './kinds';
import { byTime, type Table } from './table';

export const applications: Table<Application> = {
  spec: byTime<Application>('createdAt'),
  schema: ApplicationSchema,
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
      questions: Array.from({ length: d.int(2, 6) }, () => ({
        id: d.uuid(),
        type: d.pick(['short', 'paragraph', 'choice']),
        label: `${f.lorem.sentence({ min: 3, max: 8 }).slice(0, -1)}?`,
      })),
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
  },
};

export const applicationResponses: Table<ApplicationResponse> = {
  spec: byTime<ApplicationResponse>('createdAt', ['applicationId', 'userId']),
  schema: ApplicationResponseSchema,
  row: (d, refs) => {
    const f = d.f;
    const application = d.pick(refs.applications);
    const createdAt = d.time(application.createdAt, 400);
    const status = d.int(0, 3);
    const response: ApplicationResponse = {
      id: d.uuid(),
      applicationId: application.id,
      createdAt,
      answers: (application.questions as { id: string }[]).map((question) => ({
        questionId: question.id,
        value: f.lorem.sentences({ min: 1, max: 3 }),
      })),
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
    return response;
  },
  needs: ['applications', 'authorIds'],
  // No application, no responses: there is nothing to respond to.
  seed: (d, refs, count) => (refs.applications.length ? Array.from({ length: count }, (_, i) => applicationResponses.row(d, refs, i)) : []),
};
