import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { Shift } from './schemas';

/** #54's line, named here too: the lists' items are what it answers. */
const shift = get('/api/v1/server/shifts/{shiftId}', Shift);

/** Duty shifts across the server. */
export const shifts = {
  /** #52: shifts, paged. */
  list: list('/api/v1/server/shifts', Shift, { ...created, itemGet: shift }),
  /** #53: one member's shifts, paged. */
  byMember: list('/api/v1/server/shifts/user/{memberId}', Shift, { ...created, itemGet: shift }),
  /** #54: one shift. */
  get: shift,
};
