import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { Shift } from './schemas';

/** Duty shifts across the server. */
export const shifts = {
  /** #52: shifts, paged. */
  list: list('/api/v1/server/shifts', Shift, created),
  /** #53: one member's shifts, paged. */
  byMember: list('/api/v1/server/shifts/user/{memberId}', Shift, created),
  /** #54: one shift. */
  get: get('/api/v1/server/shifts/{shiftId}', Shift),
};
