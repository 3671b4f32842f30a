/**
 * The one retry policy: what failure is worth another try, how long to wait before it (capped
 * exponential backoff with jitter, or what `Retry-After` asks), and how `Retry-After` is read.
 * The transport applies it to each attempt of a call, `watch()` to each poll; they differ only
 * in the numbers they pass.
 * @module
 */
import { describe } from './describe';

/** Why an attempt failed, as the policy sees it. */
export type Failure =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter: string | undefined }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'network'; readonly detail: string };

/** The numbers of one user of the policy. */
export interface RetryPolicy {
  /** The first backoff, before jitter; each later one doubles. */
  readonly firstMs: number;
  /** The longest backoff, before jitter (the cap applies first, so a capped wait still varies). */
  readonly maxMs: number;
  /** The longest `Retry-After` obeyed. */
  readonly maxRetryAfterMs: number;
  /**
   * What a longer `Retry-After` does: `'give-up'` (a call reports the error, for its caller to
   * decide) or `'cap'` (a watch, which must go on, waits `maxRetryAfterMs`).
   */
  readonly overlong: 'give-up' | 'cap';
  /**
   * Whether `Retry-After` replaces the backoff (a call: the service said when) or only lengthens
   * it (a watch: a service answering `Retry-After: 0` to every poll must not be polled in a loop).
   */
  readonly retryAfterReplacesBackoff: boolean;
}

/** Statuses worth another try: timeouts, rate limits and server errors (spec: every 5xx). */
export const isRetryStatus = (status: number): boolean => status === 408 || status === 429 || (status >= 500 && status <= 599);

/** Whether `failure` is transient: a network error, a timeout, or a status worth another try. */
export const isTransient = (failure: Failure): boolean => failure.kind !== 'status' || isRetryStatus(failure.status);

/** RFC 9110 delay-seconds (a fraction tolerated, rounded up). */
const DELAY_SECONDS = /^\d+(?:\.\d+)?$/;

/**
 * A header's number as HTTP writes one: decimal digits, a fraction tolerated, around them only
 * blanks; anything else is `NaN`, never a guess (`Number` reads `''` as 0, `0x10` as 16, `3e1` as 30).
 */
export const readDecimal = (value: string | null | undefined): number => {
  const text = value?.trim() ?? '';
  return DELAY_SECONDS.test(text) ? Number(text) : Number.NaN;
};
/**
 * RFC 9110's three HTTP-date forms all start with the day's name and hold an hh:mm:ss time;
 * what `Date.parse` would otherwise guess at (`Sun 2030` is a year to it) stays unread.
 */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun).* \d\d:\d\d:\d\d\b/;

/**
 * `Retry-After` as whole seconds from now: delay-seconds or an HTTP-date (one in the past is 0).
 * Anything else (`tomorrow`, `-5`, `1e999`, a bare number `Date.parse` would guess at) is null,
 * as if absent, so it gets the normal backoff rather than a guess. More digits than a number
 * holds are still a wait, longer than any: held at 2^31 as RFC 9111 §1.2.2 holds an overlong
 * delta, never read as absent (which would retry what asked to be left alone).
 */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | null {
  const text = value?.trim() ?? '';
  if (DELAY_SECONDS.test(text)) return Math.min(Math.ceil(readDecimal(text)), 2 ** 31);
  const date = HTTP_DATE.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Capped exponential backoff with "equal jitter": at least half of it, so retries spread out but never bunch at 0. */
export function backoff(failures: number, { firstMs, maxMs }: RetryPolicy): number {
  const delay = Math.min(maxMs, firstMs * 2 ** Math.min(failures - 1, 30));
  return Math.round(delay / 2 + (Math.random() * delay) / 2);
}

/**
 * How long to wait before trying again after the `failures`-th failure in a row, or `undefined`
 * when `failure` is not worth another try (not transient, or a `Retry-After` past what `policy`
 * obeys and `overlong: 'give-up'`).
 */
export function retryDelay(failure: Failure, failures: number, policy: RetryPolicy): number | undefined {
  if (!isTransient(failure)) return undefined;
  const wait = backoff(failures, policy);
  const seconds = failure.kind === 'status' ? retryAfterSeconds(failure.retryAfter) : null;
  // An unreadable Retry-After is as if absent: the backoff, never a guess at it.
  if (seconds === null) return wait;
  let asked = seconds * 1000;
  if (asked > policy.maxRetryAfterMs) {
    if (policy.overlong === 'give-up') return undefined;
    asked = policy.maxRetryAfterMs;
  }
  return policy.retryAfterReplacesBackoff ? asked : Math.max(wait, asked);
}

/**
 * A failure in words, for log lines and `retry` events: `503`, `429, Retry-After 2`, `timed out`,
 * `network error (…)`. A `Retry-After` that does not read is the service's text, quoted and cut
 * short: it may hold anything a header can (terminal escapes, 100 000 characters).
 */
export function describeFailure(failure: Failure): string {
  if (failure.kind === 'timeout') return 'timed out';
  if (failure.kind === 'network') return `network error (${failure.detail})`;
  const { status, retryAfter } = failure;
  if (retryAfter === undefined) return `${status}`;
  return `${status}, Retry-After ${retryAfterSeconds(retryAfter) === null ? describe(retryAfter) : retryAfter.trim()}`;
}
