import { get, list } from '../core/endpoint';
import { joinRequest } from './watch-keys';
import { JoinRequest } from './schemas';

export const joinRequestsGet = /* @__PURE__ */ get('joinRequests.get', '/api/v1/server/join-requests/{userId}', JoinRequest);
export const joinRequestsList = /* @__PURE__ */ list(
  'joinRequests.list',
  '/api/v1/server/join-requests',
  JoinRequest,
  joinRequest,
  joinRequestsGet,
);

/** Requests to join the server. */
export const joinRequests = {
  /** #37: join requests, paged. */
  list: joinRequestsList,
  /** #38: one user's join request. */
  get: joinRequestsGet,
};
