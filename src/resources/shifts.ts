import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { Shift } from './schemas';

export const shiftsGet = /* @__PURE__ */ get('shifts.get', '/api/v1/server/shifts/{shiftId}', Shift);
export const shiftsList = /* @__PURE__ */ list('shifts.list', '/api/v1/server/shifts', Shift, created, shiftsGet);
export const shiftsByMember = /* @__PURE__ */ list('shifts.byMember', '/api/v1/server/shifts/user/{memberId}', Shift, created, shiftsGet);

/** Duty shifts across the server. */
export const shifts = {
  /** #52: shifts, paged. */
  list: shiftsList,
  /** #53: one member's shifts, paged. */
  byMember: shiftsByMember,
  /** #54: one shift. */
  get: shiftsGet,
};
