import { get, list } from '../core/endpoint';
import { joinRequest } from './watch-keys';
import { JoinRequest } from './schemas';

/** Requests to join the server. */
export const joinRequests = {
  /** #37: join requests, paged. */
  list: list('/api/v1/server/join-requests', JoinRequest, joinRequest),
  /** #38: one user's join request. */
  get: get('/api/v1/server/join-requests/{userId}', JoinRequest),
};
