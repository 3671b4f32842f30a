import type * as z from 'zod/mini';
import { any, anyOpt, bool, int32, int64, looseObject, maybe, str } from './common';

/**
 * An application form of the server (spec Part 2, "Application").
 */
export const ApplicationSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: str,
    serverId: str,
    title: str,
    createdAt: int64,
    acceptingResponses: bool,
    questions: any,
    description: str,
    banAppeal: int32,
    sections: any,
    banAppealNote: bool,
    // Role lists: identifiers as strings, typed open as the spec does.
    acceptanceRemoveRoles: anyOpt,
    approvalRoles: anyOpt,
    blockedChatRoles: anyOpt,
    denialRemoveRoles: anyOpt,
    denialRoles: anyOpt,
    giveRolesOnApproval: anyOpt,
    presets: anyOpt,
    requiredChatRoles: anyOpt,
    reviewOnlyRoles: anyOpt,
    reviewerRoles: anyOpt,
    submitMentionRoles: anyOpt,
    allowMultipleSubmissions: maybe(bool),
    appealCooldown: maybe(int32),
    bannerKey: maybe(str),
    closedMessage: maybe(str),
    color: maybe(str),
    eventsChannelId: maybe(str),
    folderId: maybe(str),
    orgType: maybe(str),
    resultsChannelId: maybe(str),
    sharing: maybe(str),
    slug: maybe(str),
    submissionMessage: maybe(str),
    collectGameAccount: maybe(bool),
    inviteOnApproval: maybe(bool),
    quiz: maybe(bool),
    requireApprovedReason: maybe(bool),
    requireChatMember: maybe(bool),
    requiredDenialReason: maybe(bool),
    resultsMentionUser: maybe(bool),
    revealReviewer: maybe(bool),
    sendResponses: maybe(bool),
    stageResponses: maybe(bool),
    cooldown: maybe(int32),
    defaultQuestionPointValue: maybe(int32),
    guildMemberAge: maybe(int32),
    maxLogs: maybe(int32),
    quizAutoAcceptThreshold: maybe(int32),
    quizAutoDenyThreshold: maybe(int32),
    quizReleaseType: maybe(int32),
    type: maybe(int32),
    internalLastChecked: maybe(int64),
    lastUpdated: maybe(int64),
    gameGroupId: maybe(str),
  }))();
/**
 * An application form of the server.
 * @example
 * const application: Application = await client.applications.get(applicationId);
 * const open = (await client.applications.list({ limit: 100 }).toArray()).filter((a) => a.acceptingResponses);
 */
export interface Application extends z.infer<typeof ApplicationSchema> {}

/**
 * A response submitted to an application (spec Part 2, "Application response").
 */
export const ApplicationResponseSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: str,
    applicationId: str,
    createdAt: int64,
    answers: any,
    userId: str,
    status: int32,
    comments: anyOpt,
    finalizedAt: maybe(int64),
    finalizedBy: maybe(str),
    flagged: anyOpt,
    reason: maybe(str),
    reviewedAt: maybe(int64),
    reviewedBy: maybe(str),
    gameId: maybe(str),
    scoreReleased: anyOpt,
    scoring: anyOpt,
    sectionsSorted: anyOpt,
    stagingStatus: maybe(int32),
  }))();
/**
 * A response submitted to an application.
 * @example
 * for await (const response of client.applications.responses(applicationId)) {
 *   if (response.reviewedAt == null) console.log(`${response.userId} awaits review`);
 * }
 */
export interface ApplicationResponse extends z.infer<typeof ApplicationResponseSchema> {}
