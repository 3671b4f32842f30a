import { get, list } from '../core/endpoint';
import { createdListedOtherwise } from './watch-keys';
import { Role } from './schemas';

/** Roles of the server. */
export const roles = {
  /** #50: roles, paged. */
  list: list('/api/v1/server/roles', Role, createdListedOtherwise),
  /** #51: one role. */
  get: get('/api/v1/server/roles/{roleId}', Role),
};
