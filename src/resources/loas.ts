import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { Loa } from './schemas';

export const loasGet = /* @__PURE__ */ get('loas.get', '/api/v1/server/loas/{loaId}', Loa);
export const loasList = /* @__PURE__ */ list('loas.list', '/api/v1/server/loas', Loa, created, loasGet);
export const loasByMember = /* @__PURE__ */ list('loas.byMember', '/api/v1/server/loas/user/{memberId}', Loa, created, loasGet);

/** Leave-of-absence requests across the server. */
export const loas = {
  /** #39: LOAs, paged. */
  list: loasList,
  /** #40: one member's LOAs, paged. */
  byMember: loasByMember,
  /** #41: one LOA. */
  get: loasGet,
};
