import { get, list } from '../core/endpoint';
import { joinRequest } from './watch-keys';
import { JoinRequest } from './schemas';

/** #38's line, named here too: the list's items are what it answers. */
const oneRequest = get('/api/v1/server/join-requests/{userId}', JoinRequest);

/** Requests to join the server. */
export const joinRequests = {
  /** #37: join requests, paged. */
  list: list('/api/v1/server/join-requests', JoinRequest, { ...joinRequest, itemGet: oneRequest }),
  /** #38: one user's join request. */
  get: oneRequest,
};
