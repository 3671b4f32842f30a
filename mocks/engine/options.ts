/**
 * The check of `createMockApi`'s options (a session's too, once merged with its root's), and what
 * they stand for where one form abbreviates another (`authFailureLimit: 5`, `latency: 10`).
 * @module
 */
import { checkOptions, describe } from '../../src/core/arguments';
import { InvalidArgumentError } from '../../src/core/errors';
import { ACTIVITY_OPTIONS, checkArgument, RATE_LIMIT, type AuthFailureLimitOptions } from '../contract/arguments';
import { MOCK_OPTION_NAMES, type MockOptions } from '../contract/options';
import { DEFAULT_COUNTS } from './world';

/** How long a token stays suspended when `authFailureLimit` gives a count alone. */
const SUSPENSION_MS = 60_000;

const isCount = (value: unknown, min = 0): value is number => Number.isSafeInteger(value) && (value as number) >= min;

/** Throws `InvalidArgumentError` saying what is wrong with `options`, the first problem found; nothing when they are right. */
export function checkMockOptions(options: MockOptions): void {
  if (options === null) throw new InvalidArgumentError('createMockApi options must be an object, got null');
  checkOptions(options, MOCK_OPTION_NAMES, 'mock');
  const { seed, latency, rateLimit, authFailureLimit, authErrorShape, counts, now } = options;
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new InvalidArgumentError(`seed must be an integer, got ${describe(seed)}`);
  const range = latency === undefined ? undefined : latencyRangeOf(latency);
  if (
    range !== undefined &&
    !(Array.isArray(range) && range.length === 2 && range.every((ms) => Number.isFinite(ms) && ms >= 0) && range[0] <= range[1])
  ) {
    throw new InvalidArgumentError('latency must be milliseconds ≥ 0, or [min, max] with 0 ≤ min ≤ max');
  }
  if (rateLimit !== undefined) checkArgument(RATE_LIMIT, rateLimit, 'rateLimit');
  const failures = failureLimitOf(authFailureLimit);
  if (failures !== undefined && !(isCount(failures?.failures, 1) && isCount(failures?.durationMs, 1))) {
    throw new InvalidArgumentError('authFailureLimit must be an integer ≥ 1, or { failures, durationMs }, both integers ≥ 1');
  }
  if (authErrorShape !== undefined && authErrorShape !== 'string' && authErrorShape !== 'object') {
    throw new InvalidArgumentError(`authErrorShape must be "string" or "object", got ${describe(authErrorShape)}`);
  }
  if (counts !== undefined) {
    checkOptions(counts, Object.keys(DEFAULT_COUNTS), 'counts');
    for (const [name, value] of Object.entries(counts)) {
      if (!isCount(value)) throw new InvalidArgumentError(`counts.${name} must be an integer ≥ 0, got ${describe(value)}`);
    }
  }
  if (now !== undefined && typeof now !== 'function') throw new InvalidArgumentError('now must be a function returning milliseconds');
  if (options.activity !== undefined) checkArgument(ACTIVITY_OPTIONS, options.activity, 'activity');
  if (options.world !== undefined && counts !== undefined) {
    throw new InvalidArgumentError('counts sizes a seeded world; a world snapshot brings its own rows: pass one or the other');
  }
  if (options.tokens !== undefined && options.tokens !== 'seeded' && options.tokens !== 'random') {
    throw new InvalidArgumentError(`tokens must be "seeded" or "random", got ${describe(options.tokens)}`);
  }
  if (options.journal !== undefined && !isCount(options.journal?.limit)) {
    throw new InvalidArgumentError('journal must be { limit }, an integer ≥ 0');
  }
}

/** The `authFailureLimit` option as an object: a count alone is suspended for 60 s. */
export const failureLimitOf = (option: MockOptions['authFailureLimit']): AuthFailureLimitOptions | undefined =>
  typeof option === 'number' ? { failures: option, durationMs: SUSPENSION_MS } : option;

/** The `latency` option as `[min, max]` milliseconds. */
export const latencyRangeOf = (option: MockOptions['latency'] = 0): readonly [min: number, max: number] =>
  typeof option === 'number' ? [option, option] : option;
