import { InvalidArgumentError } from './core/error-classes';

/** Below this, a timestamp is read as seconds: 1e11 s is the year 5138, 1e11 ms is March 1973. */
const SECONDS_BELOW = 1e11;

/**
 * Turns an integer timestamp of the API into a `Date`, whether it counts Unix seconds (what the
 * service publishes) or milliseconds (what some deployments send). `null` and `undefined` pass
 * through, for optional timestamps.
 * @example
 * toDate(member.createdAt).toISOString();
 * toDate(loa.endedAt); // Date, or null when the LOA has not ended
 */
export function toDate(timestamp: number): Date;
export function toDate(timestamp: number | null | undefined): Date | null;
export function toDate(timestamp: number | null | undefined): Date | null {
  if (timestamp === null || timestamp === undefined) return null;
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) {
    throw new InvalidArgumentError(`toDate needs a finite number of seconds or milliseconds, got ${String(timestamp)}`);
  }
  return new Date(Math.abs(timestamp) < SECONDS_BELOW ? timestamp * 1000 : timestamp);
}
