/**
 * Mock sessions: whole mocks of their own, opened by the root admin token of one HTTP server and
 * served on its port under `/sessions/{id}`, so the workers of a parallel test suite share one
 * process and one port and still see nothing of each other. Each has its own world, tokens
 * (fresh random secrets), journal, faults, clock, rate limit, health, activity, and control API
 * opened by its own admin token. An idle session (no request, API or control, for its `ttlMs`)
 * is closed by one timer of the server, which keeps no process alive.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { shownValue } from '../../contract/schema';
import type { MockSessionInfo, MockSessionOptions, NewMockSession } from '../../contract/sessions';
import type { MockEngine } from '../../engine/engine';
import { engineRuns } from '../../engine/operations';
import { MockHttpError } from '../../engine/replies';
import { runInSlices } from '../../engine/steps';
import { rowsIn } from '../../engine/store/tables';
import { createControlPlane, newAdminToken, type ControlPlane } from '../control/plane';
import { createAlarm } from './alarm';
import { rowBudget } from './row-budget';

/** Where sessions are served: `/sessions/{id}` is a session's base path. */
export const SESSIONS_PREFIX = '/sessions';
/** How long a session may go without a request before it is closed, unless it says: 10 minutes. */
export const DEFAULT_SESSION_TTL_MS = 600_000;
/** How many sessions a server holds at once, unless told (`--max-sessions`, `maxSessions`). */
export const DEFAULT_MAX_SESSIONS = 64;
/**
 * How many rows the worlds of a server's open sessions hold together: ~1 KB of heap each (a
 * world of its own: its pristine copy and the one served), so ~500 MB. 64 sessions of the
 * default world (3,423 rows) hold 219,072; the largest a session may ask for, 107,326.
 */
export const DEFAULT_MAX_SESSION_ROWS = 500_000;

/** A mock the HTTP server serves, with its control API: the root, or a session. */
export interface Served {
  readonly engine: MockEngine;
  readonly control: ControlPlane;
}

/** The sessions of one HTTP server, as the operations of the control API use them. */
export interface SessionRegistry {
  /** Opens a session; `origin` is where the request came to, which its `baseUrl` starts with. */
  create(options: MockSessionOptions, origin: string): Promise<NewMockSession>;
  list(origin: string): MockSessionInfo[];
  /** Closes session `id`; a 404 when there is none. */
  close(id: string): void;
}

/** One open session. */
interface Session extends Served {
  readonly id: string;
  readonly createdAt: number;
  readonly ttlMs: number;
  lastUsedAt: number;
  /** Requests of it being answered now: it does not expire under them. */
  inFlight: number;
  closed: boolean;
}

/** The sessions of one HTTP server: the registry the control API's operations use, and what routing needs. */
export interface Sessions extends SessionRegistry {
  /**
   * The session a request path addresses (`/sessions/{id}/…`), marked in use until `release`, and
   * the path from its base; `undefined` for a path outside `/sessions/`; the 404 to answer for a
   * session that is not (or no longer) there.
   */
  enter(path: string): { session: Served; path: string } | MockHttpError | undefined;
  /** Ends the use `enter` began. */
  release(session: Served): void;
  /** Closes every session and stops the timer: the server is closing. */
  closeAll(): void;
}

const SESSION_PATH = new RegExp(`^${SESSIONS_PREFIX}/([^/]+)(/.*)?$`);

/** 404 for a session id that names no open session. */
const sessionNotFound = (id: string) =>
  new MockHttpError(404, 'session_not_found', `no session ${shownValue(id)}: it was closed, or went unused for its ttlMs`, {
    id: shownValue(id),
  });

/** The sessions of a server whose root mock is `root`: at most `maxSessions` at once, whose worlds hold at most `maxRows` rows together. */
export function createSessions(root: MockEngine, { maxSessions, maxRows }: { maxSessions: number; maxRows: number }): Sessions {
  const open = new Map<string, Session>();
  /** Sessions whose world is being built: they take a slot already. */
  let building = 0;
  /** Aborted when the server closes: a session being built is given up, its work stopped. */
  const closing = new AbortController();
  /** The rows the open sessions hold now: what their worlds started with, and what was added since. */
  const budget = rowBudget(() => [...open.values()].reduce((rows, session) => rows + rowsIn(session.engine.state.store), 0), maxRows);

  const dueOf = (session: Session, now: number) => (session.inFlight > 0 ? now : session.lastUsedAt) + session.ttlMs;

  function close(session: Session): void {
    open.delete(session.id);
    session.closed = true;
    // Its timer would step a world nobody can reach, for ever; a request in flight still ends in it.
    session.engine.activity.activity.stop();
    if (open.size === 0) alarm.cancel();
  }

  /** Closes the sessions idle past their ttl, and sets the alarm for the next one due. */
  const alarm = createAlarm(() => {
    const now = Date.now();
    for (const session of open.values()) if (expired(session, now)) close(session);
    for (const session of open.values()) alarm.due(dueOf(session, now));
  });

  const expired = (session: Session, now: number) => session.inFlight === 0 && now - session.lastUsedAt >= session.ttlMs;

  const info = (session: Session, origin: string): MockSessionInfo => ({
    id: session.id,
    baseUrl: `${origin}${SESSIONS_PREFIX}/${session.id}`,
    createdAt: session.createdAt,
    lastUsedAt: session.lastUsedAt,
  });

  /** A session of `engine` (built), opened now, and its admin token. */
  function opened(engine: MockEngine, ttlMs: number): { session: Session; adminToken: string } {
    const now = Date.now();
    const adminToken = newAdminToken();
    // The root's admin token (and any other server's) is no API token in a session either.
    for (const secret of [...root.reservedSecrets, adminToken]) engine.reserveSecret(secret);
    // A session's own control API has no sessions: opening one there is a 403.
    const runs = engineRuns(engine);
    const session: Session = {
      // Not a secret (the tokens guard the session); random so no id names a session twice.
      id: randomBytes(9).toString('base64url'),
      engine,
      control: createControlPlane(engine, adminToken, () => runs),
      createdAt: now,
      lastUsedAt: now,
      ttlMs,
      inFlight: 0,
      closed: false,
    };
    open.set(session.id, session);
    alarm.due(dueOf(session, now));
    // Its activity (a timer's, or 10,000 steps a request) adds rows no session opening would count.
    engine.limitGrowth(() => {
      if (budget.isOver()) throw budget.refusal();
    });
    return { session, adminToken };
  }

  return {
    async create({ ttlMs = DEFAULT_SESSION_TTL_MS, ...options }: MockSessionOptions, origin: string): Promise<NewMockSession> {
      const now = Date.now();
      for (const session of open.values()) if (expired(session, now)) close(session);
      if (open.size + building >= maxSessions) {
        // No Retry-After: a slot frees only when a session is closed or left idle for its ttl, which
        // waiting cannot promise; a suite that needs more sessions needs a higher limit.
        throw new MockHttpError(
          429,
          'too_many_sessions',
          `this server holds at most ${maxSessions} sessions at once, and all are open: close one (DELETE /__mock/sessions/{id}, session.close()), or start the server with a higher --max-sessions (maxSessions)`,
          { maxSessions },
        );
      }
      if (budget.held() >= maxRows) throw budget.refusal();
      // Bad options throw here, before any work; the world is built in slices, so the server
      // answers the root and every other session meanwhile.
      const steps = root.spawn(options);
      building++;
      let engine: MockEngine;
      try {
        engine = await runInSlices(steps, closing.signal);
      } finally {
        building--;
      }
      const rows = rowsIn(engine.state.store);
      const refusal = closing.signal.aborted
        ? (closing.signal.reason as MockHttpError)
        : budget.held() + rows > maxRows
          ? budget.refusal(rows)
          : undefined;
      if (refusal) {
        // Started by its `activity` option: nobody could reach it to stop it.
        engine.activity.activity.stop();
        throw refusal;
      }
      const { session, adminToken } = opened(engine, ttlMs);
      return { id: session.id, baseUrl: info(session, origin).baseUrl, adminToken, tokens: engine.tokens };
    },

    list: (origin) => [...open.values()].filter((session) => !expired(session, Date.now())).map((session) => info(session, origin)),

    close(id) {
      const session = open.get(id);
      if (!session || expired(session, Date.now())) throw sessionNotFound(id);
      close(session);
    },

    enter(path) {
      const match = SESSION_PATH.exec(path);
      if (!match) return undefined;
      const session = open.get(match[1]!);
      const now = Date.now();
      if (!session) return sessionNotFound(match[1]!);
      if (expired(session, now)) {
        close(session);
        return sessionNotFound(session.id);
      }
      session.inFlight++;
      session.lastUsedAt = now;
      return { session, path: match[2] ?? '/' };
    },

    release(served) {
      const session = served as Session;
      session.inFlight--;
      session.lastUsedAt = Date.now();
      if (session.closed) session.engine.activity.activity.stop();
    },

    closeAll() {
      closing.abort(new MockHttpError(503, 'server_closing', 'the server closed while the session was being built'));
      for (const session of open.values()) close(session);
    },
  };
}

/** What the sessions' operations of the control API do, for a request sent to `origin`. */
export const sessionRuns = (sessions: SessionRegistry, origin: string) => ({
  create: (options: MockSessionOptions = {}) => sessions.create(options, origin),
  list: () => sessions.list(origin),
  close: (id: string) => sessions.close(id),
});
