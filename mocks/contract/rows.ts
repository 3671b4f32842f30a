/**
 * The rows the mock keeps whose shape the spec leaves open, as far as the contract names them
 * (an activity event's row): the engine's tables hold them, the contract's events carry them.
 * @module
 */
import type { Shift } from '../../src/schemas/index';

/**
 * A shift as the mock stores it (the spec leaves the fields open; these are the usual ones).
 * @example
 * const shifts = mock.store.main.shifts.where('memberId', memberId); // what shifts.byMember(memberId) pages through
 */
export interface ShiftRow extends Shift {
  /** The id `shifts.get(shiftId)` takes. */
  id: string;
  /** The member on shift. */
  memberId: string;
  /** When the shift started, Unix seconds. */
  createdAt: number;
}
