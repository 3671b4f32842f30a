/**
 * One timer for many deadlines: it fires by the earliest time it was asked for, never keeps a
 * process alive, and is set again by whoever it rings (the sessions' sweep of idle sessions).
 * @module
 */

/** An alarm that calls `ring` by the earliest time `due` was given since it last rang. */
export function createAlarm(ring: () => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let due = Infinity;
  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    due = Infinity;
  };
  return {
    /** Makes sure the alarm rings by `at` (ms since the epoch). */
    due(at: number): void {
      if (at >= due) return;
      clearTimeout(timer);
      due = at;
      timer = setTimeout(
        () => {
          cancel();
          ring();
        },
        Math.max(0, at - Date.now()),
      );
      // Idle sessions must never keep a test runner alive.
      timer.unref();
    },
    /** Rings no more until given a time again. */
    cancel,
  };
}
