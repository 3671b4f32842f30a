import { get, list } from '../core/endpoint';
import { createdListedOtherwise } from './watch-keys';
import { Role } from './schemas';

/** #51's line, named here too: the list's items are what it answers. */
const role = get('/api/v1/server/roles/{roleId}', Role);

/** Roles of the server. */
export const roles = {
  /** #50: roles, paged. */
  list: list('/api/v1/server/roles', Role, { ...createdListedOtherwise, itemGet: role }),
  /** #51: one role. */
  get: role,
};
