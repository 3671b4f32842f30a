/**
 * How many rows of each group a seeded world gets (`createMockApi({ counts })`, a session's
 * `counts`): the names the world's seeding, the options' checks and a session's limits share.
 * @module
 */

/** How many CAD rows of each counted kind a server gets. */
export interface CadCounts {
  calls: number;
  records: number;
  units: number;
  unitGroups: number;
}

/**
 * How many rows of each server-wide group the `main` server gets (`createMockApi({ counts })`).
 * Growing one group leaves the rows of the others as they were. Any group may be 0, all of them
 * at once too: its lists answer empty pages and its ids 404. With no members, the rows members
 * write (logs, shifts, CAD…) name a few former members, as an old server's history does.
 * @example
 * const big = createMockApi({ seed: 1, counts: { members: 100_000 } });
 * const empty = createMockApi({ counts: { members: 0, logs: 0 } }); // client.members.list(): total 0
 */
export interface WorldCounts extends CadCounts {
  /** Members of the server. */
  members: number;
  /** Roles. */
  roles: number;
  /** Applications. */
  applications: number;
  /** Responses, spread over the applications. */
  applicationResponses: number;
  /** Events of the server's audit log. */
  auditLogs: number;
  /** Moderation logs. */
  logs: number;
  /** Server-wide join requests. */
  joinRequests: number;
  /** Server-wide LOAs. */
  loas: number;
  /** Server-wide shifts. */
  shifts: number;
  /** Departments, each with its own ranks, members, shifts, LOAs, join requests and audit log. */
  departments: number;
  /** CAD calls, each with notes. */
  calls: number;
  /** CAD records; some have court hearings. */
  records: number;
  /** CAD units. */
  units: number;
  /** CAD unit groups. */
  unitGroups: number;
}
