/**
 * Every seeded stream the mock draws from, in one registry. A stream is a faker seeded with
 * `[seed, …numbers]`; the numbers below are what makes the same seed give users the same ids
 * release after release. They are frozen: a new table or purpose takes a number not used here,
 * and no existing number is ever changed or reused (a test pins the data they give,
 * test/mock/engine/world/stability.test.ts).
 *
 * - `[seed, server, n]`: the world of server `server` (0 `main`, 1 `noCad`), group `n`.
 * - `[seed, TOKENS, 0]`: the five seeded tokens.
 * - `[seed, RUNTIME, 0]`: run-time values (new tokens' secrets and ids, latency jitter).
 * - `[seed, ACTIVITY, 0]`: `mock.activity`.
 * - `[seed, FACTORY, …path]`: `create()` of the table at `path` (`main.logs`).
 * - `[…stream, ASIDE]`: fields added to a table after its stream was fixed (`Draw.aside`).
 * @module
 */

/** The server-wide tables' streams, in the order they are seeded (a table's rows may point at the tables before it). */
export const SERVER_TABLE_STREAMS = {
  roles: 1,
  members: 2,
  links: 3,
  applications: 4,
  applicationResponses: 5,
  auditLogs: 6,
  logs: 7,
  joinRequests: 8,
  loas: 9,
  shifts: 10,
} as const;

/** The server's own row (`server.info()`). */
export const INFO_STREAM = 0;
/** The server's CAD, drawn in one stream. */
export const CAD_STREAM = 11;
/** Department `i` of a server draws from `DEPARTMENT_STREAM + i`. */
export const DEPARTMENT_STREAM = 100;

/** Second number of the seeded tokens' stream. */
export const TOKENS_STREAM = 9;
/** Second number of the run-time stream. */
export const RUNTIME_STREAM = 10;
/** Second number of the activity's stream. */
export const ACTIVITY_STREAM = 11;
/** Second number of every factory's stream, apart from the world's, the tokens', run time's and the activity's. */
export const FACTORY_STREAM = 20;
/** Appended to a stream for its `aside` sub-stream. */
export const ASIDE_STREAM = 7919;
