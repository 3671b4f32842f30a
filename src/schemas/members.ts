import type * as z from 'zod/mini';
import { any, int64, looseObject, str } from './common';

/**
 * A member of the server.
 */
export const MemberSchema = /* @__PURE__ */ looseObject({
  id: str,
  serverId: str,
  roles: any,
  createdAt: int64,
});
/**
 * A member of the server.
 * @example
 * const member: Member = await client.members.get(memberId);
 * console.log(member.id, toDate(member.createdAt));
 */
export interface Member extends z.infer<typeof MemberSchema> {}

/**
 * The chat-platform id linked to a member.
 */
export const ChatIdResponseSchema = /* @__PURE__ */ looseObject({ chatId: str });
/**
 * The chat-platform id linked to a member.
 * @example
 * const { chatId } = await client.members.chatId(memberId);
 */
export interface ChatIdResponse extends z.infer<typeof ChatIdResponseSchema> {}
