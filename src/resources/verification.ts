import { get } from '../core/endpoint';
import { Account, GameConnection } from './schemas';

export const verificationGameByChatId = /* @__PURE__ */ get(
  'verification.gameByChatId',
  '/api/v1/verification/chat/{chatId}/game',
  GameConnection,
);
export const verificationChatByGameId = /* @__PURE__ */ get(
  'verification.chatByGameId',
  '/api/v1/verification/game/{gameId}/chat',
  Account,
);

/** Links between chat-platform and game-platform accounts. */
export const verification = {
  /** #59: the game account linked to a chat account. */
  gameByChatId: verificationGameByChatId,
  /** #60: the chat account linked to a game account. */
  chatByGameId: verificationChatByGameId,
};
