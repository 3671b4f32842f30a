/**
 * The checks of `.watch()`'s options and cursor, apart from the watch at work (`run.ts`), so that
 * a client that loads the watch's machinery lazily still refuses a bad option, or a cursor of
 * another list, at once: `InvalidArgumentError` from `.watch()`, before anything is sent.
 * @module
 */
import { checkOptions, checkRequestOptions, checkTimeout, describe } from '../arguments';
import { InvalidArgumentError } from '../error-base';
import { checkCursor } from './cursor';
import { FOLLOW, type WatchFleet } from './fleet';
import type { WatchOptions, WatchSource } from './watch';

const OPTION_NAMES = ['intervalMs', 'cursor', 'signal', 'fleet', 'delivery', 'consumer'];
const MAX_CONSUMER_LENGTH = 200;
// eslint-disable-next-line no-control-regex -- control characters are what a consumer's name may not hold
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Whether `value` is a fleet (what `redisFleet()` returns). */
const isWatchFleet = (value: unknown): value is WatchFleet =>
  typeof (value as Partial<WatchFleet> | null | undefined)?.[FOLLOW] === 'function';

/** Checks `.watch()` options, throwing `InvalidArgumentError` before anything is sent. */
function checkWatchOptions(options: unknown): WatchOptions {
  checkOptions(options, OPTION_NAMES, 'watch');
  if (options === undefined) return {};
  checkTimeout('intervalMs', options.intervalMs);
  if (options.signal !== undefined) checkRequestOptions({ signal: options.signal });
  const { fleet, delivery, consumer } = options;
  if (fleet === undefined) {
    const without = delivery !== undefined ? 'delivery' : consumer !== undefined ? 'consumer' : undefined;
    if (without) throw new InvalidArgumentError(`watch option ${without} needs a fleet (redisFleet() from community-server-sdk/redis)`);
    return options;
  }
  if (!isWatchFleet(fleet)) throw new InvalidArgumentError(`watch option fleet must be what redisFleet() returns, got ${describe(fleet)}`);
  if (delivery !== undefined && delivery !== 'every' && delivery !== 'once') {
    throw new InvalidArgumentError(`watch option delivery must be 'every' or 'once', got ${describe(delivery)}`);
  }
  const named = typeof consumer === 'string' && consumer.length > 0 && consumer.length <= MAX_CONSUMER_LENGTH && !CONTROL.test(consumer);
  if (consumer !== undefined && !named) {
    throw new InvalidArgumentError(
      `watch option consumer must be a name of 1 to ${MAX_CONSUMER_LENGTH} characters, none a control character, got ${describe(consumer)}`,
    );
  }
  return options;
}

/** `.watch()`'s options for a watch of `source`, checked, its cursor with them (`InvalidArgumentError`). */
export function checkWatch<T>(source: WatchSource<T>, options: unknown): WatchOptions {
  const checked = checkWatchOptions(options);
  if (checked.cursor !== undefined) checkCursor(checked.cursor, source.list, source.keys);
  return checked;
}
