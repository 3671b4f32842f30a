import { get, list } from '../core/endpoint';
import { createdListedOtherwise } from './watch-keys';
import { Role } from './schemas';

export const rolesGet = /* @__PURE__ */ get('roles.get', '/api/v1/server/roles/{roleId}', Role);
export const rolesList = /* @__PURE__ */ list('roles.list', '/api/v1/server/roles', Role, createdListedOtherwise, rolesGet);

/** Roles of the server. */
export const roles = {
  /** #50: roles, paged. */
  list: rolesList,
  /** #51: one role. */
  get: rolesGet,
};
