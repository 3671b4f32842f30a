/**
 * Members of a server, and the chat and game accounts linked to them.
 * @module
 */
import * as z from 'zod/mini';
import { int64, str } from '../../../src/schemas/common';
import { MemberSchema, type Member } from '../../../src/schemas/index';
import { byTime, type WorldTable } from './table';
import { toArray } from '../rows/sequence';
import type { Draw } from './draw';
import { openJson } from './variety';

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

export const membersTable: WorldTable<Member> = {
  spec: byTime<Member>('createdAt'),
  schema: MemberSchema,
  references: { serverId: 'server', roles: ['role'] },
  row: (d, { serverId, roleIds }, i) => ({
    id: d.uuid(),
    serverId,
    roles: openJson(d.some(roleIds, 0, 3), i, 2),
    createdAt: d.time(),
    username: d.f.internet.username(),
  }),
};

/** The link of `member`, made within a month of their joining. */
function linkOf(d: Draw, member: Member): AccountLink {
  const createdAt = d.time(member.createdAt, 30);
  return {
    memberId: member.id,
    chatId: d.snowflake(),
    gameId: d.chance(0.75) ? d.f.string.numeric({ length: d.int(8, 10), allowLeadingZeros: false }) : null,
    createdAt,
    lastUpdatedAt: d.time(createdAt, 200),
  };
}

export const linksTable: WorldTable<AccountLink> = {
  spec: { key: 'memberId', indexes: ['chatId', 'gameId'], orderBy: ['createdAt', 'memberId'], sort: 'desc' },
  references: { memberId: 'member' },
  // The mock's own bookkeeping: the API serves parts of it (chat ids, game connections), never a row.
  schema: z.object({
    memberId: str,
    chatId: str,
    gameId: z.nullable(str),
    createdAt: int64,
    lastUpdatedAt: int64,
  }) satisfies z.ZodMiniType<AccountLink>,
  row: (d, { unlinked }) => linkOf(d, d.pick(unlinked)),
  needs: ['unlinked'],
  // Most members link an account; the rest answer 404 to chat-id lookups.
  *seed(d, { members }) {
    for (const member of toArray(members)) if (d.chance(0.85)) yield linkOf(d, member);
  },
};
