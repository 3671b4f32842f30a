/**
 * What the dashboard calls an "open" CAD call and a "current" LOA. The spec leaves the meaning
 * of the integer `status` codes open, so both rules read the timestamps that record what
 * happened instead; a status code is never interpreted.
 * @module
 */
import type { CadCall, Loa } from 'community-server-sdk';

/** Absent and `null` both mean "has not happened" for the optional stage timestamps. */
const happened = (timestamp: number | null | undefined): boolean => timestamp !== undefined && timestamp !== null;

/** A call is open until it has been closed: it has no `closedAt`. */
export function isOpenCall(call: CadCall): boolean {
  return !happened(call.closedAt);
}

/**
 * A leave of absence is current once it has started (`startedAt`) and until it is ended,
 * cancelled or expired (`endedAt`, `cancelledAt`, `expiredAt`). The planned `endAt` is not
 * compared with the clock: a leave past its planned end that nobody closed is still on record
 * as running, and the dashboard shows what the service records.
 */
export function isCurrentLoa(loa: Loa): boolean {
  return happened(loa.startedAt) && !happened(loa.endedAt) && !happened(loa.cancelledAt) && !happened(loa.expiredAt);
}
