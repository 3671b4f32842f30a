/**
 * The client's log: `logLevel` filters, `logger` writes, and every line is redacted on its way.
 *
 * What each level carries:
 * - `'error'`: nothing of its own — the SDK throws its errors to the caller rather than logging
 *   them; the level keeps warnings out.
 * - `'warn'` (the default): what the caller should fix or know is degraded: a plain-http
 *   `baseUrl`, a body that failed its schema under `validation: 'warn'`, a failing rate-limit
 *   store.
 * - `'info'`: the waits that make a call slow: each retry (why, and how long before it), each
 *   rate-limit hold (how long), a watch's backoff after a failed poll; a rate-limit store
 *   answering again.
 * - `'debug'`: one line per attempt: method, path and query, status or failure, milliseconds,
 *   attempt number.
 * @module
 */
import { describe } from './arguments';
import { InvalidArgumentError, type RequestTarget } from './error-classes';
import { redactText } from './redact-text';

/**
 * How much the client logs: nothing (`'off'`), or this level and the more severe ones. See
 * {@link ClientOptions.logLevel} for what each level carries.
 * @example
 * const level: LogLevel = process.env.NODE_ENV === 'production' ? 'warn' : 'debug';
 * const client = new CommunityServerClient({ logLevel: level });
 */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * Where the client's log lines go: `console` (the default), or any object with these four
 * methods (pino, winston, a test's recorder). Each line is one string, the token redacted.
 * @example
 * const lines: string[] = [];
 * const logger: Logger = { error: (line) => lines.push(line), warn: (line) => lines.push(line), info: (line) => lines.push(line), debug: (line) => lines.push(line) };
 * const client = new CommunityServerClient({ logLevel: 'debug', logger });
 */
export interface Logger {
  /** Unused by the SDK today (it throws its errors); here so any level's logger fits. */
  error: (message: string) => void;
  /** Something to fix or a degraded mode: plain-http `baseUrl`, schema mismatches under `validation: 'warn'`, a failing rate-limit store. */
  warn: (message: string) => void;
  /** Waits: retries and a watch's backoff with their reason and delay, rate-limit holds with their length. */
  info: (message: string) => void;
  /** One line per attempt: method, path and query, status or failure, milliseconds, attempt number. */
  debug: (message: string) => void;
}

/** A request as log lines name it: its query, when it has one, tells apart the pages of a walk. */
export type LogTarget = RequestTarget & { readonly query?: string };

/** `GET /api/v1/server/members?page=2`: how every line names a request. */
export const label = ({ method, path, query = '' }: LogTarget) => `${method} ${path}${query}`;

/** Levels by rank: a level enables itself and every one before it. */
const LEVELS = ['off', 'error', 'warn', 'info', 'debug'] as const;
const METHODS = ['error', 'warn', 'info', 'debug'] as const;

/**
 * The writers of the enabled levels; a disabled level is absent, so a call site written
 * `log.debug?.(`…`)` evaluates nothing — no string, no clock read — unless debug is on.
 */
export type Log = { readonly [Level in Exclude<LogLevel, 'off'>]?: (message: string) => void };

export interface LogOptions {
  logLevel: unknown;
  /** The environment's `COMMUNITY_SERVER_LOG`, used when `logLevel` is not given. */
  envLevel: string | undefined;
  /** When neither is given. */
  defaultLevel: LogLevel;
  logger: unknown;
  /** Redacted from every line. */
  secret: string | undefined;
}

/**
 * `text` with every control character written as its escape (`\n`, `\u001b`): a line is one
 * line, and what a service chose to put in it (a header, an error's text) cannot move a
 * terminal's cursor, clear its screen or forge a line of its own.
 */
const escapeControls = (text: string) =>
  text.replace(/\p{Cc}/gu, (char) => (char === '\n' ? '\\n' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));

/** Environment values already warned about: an unknown one is said once per process, not per client. */
const warnedEnvLevels = new Set<string>();
const KNOWN_LEVELS = LEVELS.map((name) => `'${name}'`).join(', ');

/** The client's log from its options, checked (`InvalidArgumentError` for a bad `logLevel` or logger). */
export function createLog({ logLevel, envLevel, defaultLevel, logger = console, secret }: LogOptions): Log {
  checkLogger(logger);
  // The method is looked up on each line, so a logger (or a spy on `console`) swapped later applies.
  // A log sink that fails (a closed stream, a throwing transport, an async writer that rejects)
  // must not fail the call it describes, nor crash the process unhandled: the async wrapper turns
  // a throw into a rejection, dropped with a returned one. The sink still runs now.
  const writer = (method: (typeof METHODS)[number]) => (message: string) =>
    void (async () => logger[method](redactText(`community-server-sdk: ${escapeControls(message)}`, secret)))().catch(() => {});
  // Only an absent option falls back: `null` is a bad value like any other.
  const level = logLevel !== undefined ? logLevel : (readEnvLevel(envLevel, defaultLevel, writer('warn')) ?? defaultLevel);
  const rank = LEVELS.indexOf(level as LogLevel);
  if (rank < 0) throw new InvalidArgumentError(`logLevel must be one of ${KNOWN_LEVELS}, got ${describe(level)}`);
  const log: { -readonly [Level in keyof Log]: Log[Level] } = {};
  for (const method of METHODS.slice(0, rank)) log[method] = writer(method);
  return log;
}

/**
 * The environment's level, read as people write it (`DEBUG`, ` info `). One it does not know is
 * a warning, once per process, and the default: a typo in a deployment's environment must not
 * make every client constructor throw.
 */
function readEnvLevel(value: string | undefined, defaultLevel: LogLevel, warn: (message: string) => void): LogLevel | undefined {
  const level = value?.trim().toLowerCase();
  if (!level) return undefined;
  if ((LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  if (!warnedEnvLevels.has(level)) {
    warnedEnvLevels.add(level);
    warn(`env COMMUNITY_SERVER_LOG is ${describe(value)}, not one of ${KNOWN_LEVELS}; logging at '${defaultLevel}'`);
  }
  return undefined;
}

function checkLogger(logger: unknown): asserts logger is Logger {
  if ((typeof logger !== 'object' && typeof logger !== 'function') || logger === null) {
    throw new InvalidArgumentError(`logger must be an object with error, warn, info and debug methods, got ${describe(logger)}`);
  }
  const missing = METHODS.filter((method) => typeof (logger as Record<string, unknown>)[method] !== 'function');
  if (missing.length > 0) {
    throw new InvalidArgumentError(`logger must have error, warn, info and debug methods; it lacks ${missing.join(', ')}`);
  }
}
