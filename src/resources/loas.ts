import { get, list } from '../core/endpoint';
import { Loa } from './schemas';

/** Leave-of-absence requests across the server. */
export const loas = {
  /** #39: LOAs, paged. */
  list: list('/api/v1/server/loas', Loa),
  /** #40: one member's LOAs, paged. */
  byMember: list('/api/v1/server/loas/user/{memberId}', Loa),
  /** #41: one LOA. */
  get: get('/api/v1/server/loas/{loaId}', Loa),
};
