import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { ChatIdResponse, Member } from './schemas';

/** #48's line, named here too: the list's items are what it answers. */
const member = get('/api/v1/server/members/{memberId}', Member);

/** Members of the server. */
export const members = {
  /** #46: members, paged. */
  list: list('/api/v1/server/members', Member, { ...created, itemGet: member }),
  /** #47: a member found by chat-platform id. */
  getByChatId: get('/api/v1/server/members/chat/{chatId}', Member),
  /** #48: one member. */
  get: member,
  /** #49: the chat-platform id of a member. */
  chatId: get('/api/v1/server/members/{memberId}/chat', ChatIdResponse),
};
