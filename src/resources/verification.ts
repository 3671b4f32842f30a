import { get } from '../core/endpoint';
import { Account, GameConnection } from './schemas';

/** Links between chat-platform and game-platform accounts. */
export const verification = {
  /** #59: the game account linked to a chat account. */
  gameByChatId: get('/api/v1/verification/chat/{chatId}/game', GameConnection),
  /** #60: the chat account linked to a game account. */
  chatByGameId: get('/api/v1/verification/game/{gameId}/chat', Account),
};
