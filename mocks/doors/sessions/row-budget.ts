/**
 * The rows the open sessions of one server may hold together (`maxSessionRows`): counted when a
 * session would open, and before each event of a session's activity, at most every 100 ms (a
 * count walks every open store).
 * @module
 */
import { MockHttpError } from '../../engine/replies';

/** How often the sessions' rows are counted again for their activities. */
const ROWS_RECOUNT_MS = 100;

/** The budget of `maxRows` rows over what `held()` counts now. */
export function rowBudget(held: () => number, maxRows: number) {
  let counted = { at: -Infinity, over: false };
  return {
    held,
    /** Whether the rows held are past the budget, counted at most every 100 ms: an activity asks before each event. */
    isOver(): boolean {
      const now = performance.now();
      if (now - counted.at >= ROWS_RECOUNT_MS) counted = { at: now, over: held() > maxRows };
      return counted.over;
    },
    /** A 429 for a session the rows held leave no room for; `rows`: the rows of its world, when it is built. */
    refusal: (rows?: number) =>
      new MockHttpError(
        429,
        'too_many_session_rows',
        `the open sessions of this server hold ${held()} rows, and it holds at most ${maxRows}${rows === undefined ? '' : `: this session's world has ${rows}`}: close a session (DELETE /__mock/sessions/{id}, session.close()), ask for smaller counts, or start the server with a higher maxSessionRows`,
        { maxRows, ...(rows === undefined ? {} : { rows }) },
      ),
  };
}
