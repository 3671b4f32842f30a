import type * as z from 'zod/mini';
import { looseObject, maybe, str } from './common';

/**
 * The chat-platform account linked to a game-platform account (the game-to-chat lookup).
 */
export const AccountSchema = /* @__PURE__ */ (() =>
  looseObject({
    providerAccountId: str,
    userId: maybe(str),
  }))();
/**
 * The chat-platform account linked to a game-platform account.
 * @example
 * const { providerAccountId, userId } = await client.verification.chatByGameId(gameId);
 */
export interface Account extends z.infer<typeof AccountSchema> {}

export { GameConnectionSchema, type GameConnection } from './open';
