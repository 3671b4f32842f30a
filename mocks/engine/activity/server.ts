/**
 * Happenings of the server as a whole: members joining, moderation logs, and application
 * responses submitted and reviewed.
 * @module
 */
import type { ApplicationResponse, Log, Member } from '../../../src/schemas/index';
import { LOG_REASONS, type AccountLink } from '../world';
import { mapped } from '../rows/sequence';
import {
  audit,
  enter,
  entry,
  memberOf,
  membersOf,
  pickWhere,
  recent,
  serverAudit,
  staffMember,
  timeAfter,
  timeIn,
  type Happening,
} from './moment';

const DAY = 86_400;
/** A temporary ban logged now is lifted within this many days. */
export const TEMP_BAN_LONGEST_DAYS = 30;

const usernameOf = (member: Member) => (typeof member['username'] === 'string' ? member['username'] : undefined);
/** The member's verified game account, if their chat account is linked to one. */
const gameIdOf = (moment: Parameters<Happening>[0], memberId: string) => moment.server.links.get(memberId)?.gameId ?? undefined;

/** Someone joins the server (most link their chat account); the audit log records it next. */
export const memberJoined: Happening = (moment) => {
  const { draw, server } = moment;
  const member: Member = {
    id: draw.uuid(),
    serverId: server.info.id,
    roles: draw.some(
      mapped(server.roles.sequence(), (role) => role.id),
      0,
      2,
    ),
    createdAt: timeIn(moment, server.members, 'createdAt'),
    username: draw.f.internet.username(),
  };
  let link: AccountLink | undefined;
  if (draw.chance(0.85)) {
    const gameId = draw.chance(0.5) ? draw.f.string.numeric({ length: draw.int(8, 10), allowLeadingZeros: false }) : null;
    link = { memberId: member.id, chatId: draw.snowflake(), gameId, createdAt: member.createdAt, lastUpdatedAt: member.createdAt };
  }
  moment.then((next) =>
    next.server.members.get(member.id)
      ? audit(next, serverAudit(next.server), { userId: member.id, what: 'joined', after: member.createdAt })
      : undefined,
  );
  const joined = enter('members', server.members, member);
  // Linked once a member: a link must name a member who exists.
  if (link) server.links.insert(link);
  return joined;
};

/** A staff member logs a warning, kick or ban against another member, by username. */
export const logCreated: Happening = (moment) => {
  const { draw, server } = moment;
  const target = memberOf(moment, membersOf(server), (member) => usernameOf(member) !== undefined);
  if (!target) return undefined;
  const author = staffMember(moment, (member) => member.id !== target.id);
  if (!author) return undefined; // nobody to moderate the only member
  const createdAt = timeIn(moment, server.logs, 'createdAt', target.createdAt, author.createdAt);
  const type = draw.int(0, 4);
  const log: Log = {
    id: draw.uuid(),
    serverId: server.info.id,
    type,
    text: draw.pick(LOG_REASONS),
    createdAt,
    createdBy: author.id,
    editedBy: [],
    username: usernameOf(target)!,
    proof: draw.chance(0.6) ? [draw.f.internet.url()] : [],
  };
  draw.optional(log, 'description', () => draw.sentence(), 0.5);
  const gameId = gameIdOf(moment, target.id);
  if (gameId) log.gameId = gameId;
  if (type === 3) {
    log.tempBan = draw.chance(0.5);
    if (log.tempBan) log.unbanAt = createdAt + draw.int(1, TEMP_BAN_LONGEST_DAYS) * DAY;
  }
  return enter('logs', server.logs, log);
};

/** A member answers an application that accepts responses; the audit log records it next. */
export const responseSubmitted: Happening = (moment) => {
  const { draw, server } = moment;
  const application = pickWhere(draw, server.applications.sequence(), (candidate) => candidate.acceptingResponses === true);
  const user = application && memberOf(moment, membersOf(server));
  if (!application || !user) return undefined;
  const questions = Array.isArray(application.questions) ? (application.questions as unknown[]) : [];
  const response: ApplicationResponse = {
    id: draw.uuid(),
    applicationId: application.id,
    createdAt: timeIn(moment, server.applicationResponses, 'createdAt', application.createdAt, user.createdAt),
    answers: questions.flatMap((question) => {
      const questionId = (question as { id?: unknown } | null)?.id;
      return typeof questionId === 'string' ? [{ questionId, value: draw.f.lorem.sentences({ min: 1, max: 3 }) }] : [];
    }),
    userId: user.id,
    status: 0,
    reviewedAt: null,
  };
  const gameId = gameIdOf(moment, user.id);
  if (gameId) response.gameId = gameId;
  moment.then((next) =>
    next.server.applicationResponses.get(response.id) && next.server.members.get(user.id)
      ? audit(next, serverAudit(next.server), {
          userId: user.id,
          what: 'submitted',
          applicationId: application.id,
          after: response.createdAt,
        })
      : undefined,
  );
  return enter('applicationResponses', server.applicationResponses, response);
};

/** Staff accept or deny a pending response; the audit log records it. */
export const responseReviewed: Happening = (moment) => {
  const { draw, server } = moment;
  const pending = recent(server.applicationResponses, { field: 'status', value: 0 }, (response) =>
    Boolean(server.applications.get(response.applicationId)),
  );
  if (!pending.length) return undefined;
  const response = draw.pick(pending);
  const reviewer = staffMember(moment);
  if (!reviewer) return undefined;
  const reviewedAt = timeAfter(moment, response.createdAt);
  const accepted = draw.chance(0.6);
  const patch: Partial<ApplicationResponse> = { status: accepted ? 1 : 2, reviewedAt, reviewedBy: reviewer.id };
  if (draw.chance(0.5)) patch.reason = draw.sentence();
  const updated = server.applicationResponses.update(response.id, patch)!;
  return audit(moment, serverAudit(server), {
    userId: reviewer.id,
    what: accepted ? 'accepted' : 'denied',
    applicationId: response.applicationId,
    after: reviewedAt,
    updated: entry('applicationResponses', updated),
  });
};
