import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { Loa } from './schemas';

/** #41's line, named here too: the lists' items are what it answers. */
const loa = get('/api/v1/server/loas/{loaId}', Loa);

/** Leave-of-absence requests across the server. */
export const loas = {
  /** #39: LOAs, paged. */
  list: list('/api/v1/server/loas', Loa, { ...created, itemGet: loa }),
  /** #40: one member's LOAs, paged. */
  byMember: list('/api/v1/server/loas/user/{memberId}', Loa, { ...created, itemGet: loa }),
  /** #41: one LOA. */
  get: loa,
};
