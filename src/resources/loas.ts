import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { Loa } from './schemas';

/** Leave-of-absence requests across the server. */
export const loas = {
  /** #39: LOAs, paged. */
  list: list('/api/v1/server/loas', Loa, created),
  /** #40: one member's LOAs, paged. */
  byMember: list('/api/v1/server/loas/user/{memberId}', Loa, created),
  /** #41: one LOA. */
  get: get('/api/v1/server/loas/{loaId}', Loa),
};
