import * as z from 'zod/mini';
import { any, int64, str } from './common';

/** A member of the server. */
export const MemberSchema = z.looseObject({
  id: str,
  serverId: str,
  roles: any,
  createdAt: int64,
});
/** A member of the server. */
export interface Member extends z.infer<typeof MemberSchema> {}

/** The chat-platform id linked to a member. */
export const ChatIdResponseSchema = z.looseObject({ chatId: str });
/** The chat-platform id linked to a member. */
export interface ChatIdResponse extends z.infer<typeof ChatIdResponseSchema> {}
