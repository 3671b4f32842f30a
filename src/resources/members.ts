import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { ChatIdResponse, Member } from './schemas';

export const membersGet = /* @__PURE__ */ get('members.get', '/api/v1/server/members/{memberId}', Member);
export const membersList = /* @__PURE__ */ list('members.list', '/api/v1/server/members', Member, created, membersGet);
export const membersGetByChatId = /* @__PURE__ */ get('members.getByChatId', '/api/v1/server/members/chat/{chatId}', Member);
export const membersChatId = /* @__PURE__ */ get('members.chatId', '/api/v1/server/members/{memberId}/chat', ChatIdResponse);

/** Members of the server. */
export const members = {
  /** #46: members, paged. */
  list: membersList,
  /** #47: a member found by chat-platform id. */
  getByChatId: membersGetByChatId,
  /** #48: one member. */
  get: membersGet,
  /** #49: the chat-platform id of a member. */
  chatId: membersChatId,
};
