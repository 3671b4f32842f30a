/**
 * The client's options (`new CommunityServerClient(options)`, `createCore(options)`): what each
 * means, its default, and the one check of them all, which throws `InvalidArgumentError` before
 * anything is sent. `withOptions` checks its options here too.
 * @module
 */
import { checkOptions, checkRetries, checkTimeout, describe } from './arguments';
import { checkCacheOptions, type CacheOptions } from './cache-options';
import { InvalidArgumentError } from './error-base';
import { createLog, type Log, type Logger, type LogLevel } from './log';
import { isRateLimitStore, type RateLimitMode } from './rate-limit-store';
import { MIN_TOKEN_LENGTH, TOKEN_CHARS } from './token';

/**
 * What a 2xx body that fails its schema does: throw `ResponseValidationError` (`'error'`),
 * warn once per endpoint and return the body as it came (`'warn'`), or skip schemas (`'off'`).
 * @example
 * const lenient = new CommunityServerClient({ validation: 'warn' });
 */
export type ValidationMode = 'error' | 'warn' | 'off';

/**
 * Around each attempt of a call (the `middleware` option): gets the request as it is sent (the
 * token header already set) and `next`, which sends it on, to the next middleware and last to
 * `fetch`, and resolves the response as it was received. A middleware may change the request,
 * look at or replace the response, or answer by itself without calling `next`: the call reads and
 * checks whatever it is given as any answer (its status, its body against the schema). Each retry
 * runs the middleware again. What a middleware throws ends the call, unretried, as a
 * `ConnectionError` whose `cause` it is (the SDK's own errors pass as they are), the token redacted.
 * @example
 * const timing: Middleware = async (request, next) => {
 *   const started = performance.now();
 *   const response = await next(request);
 *   console.log(request.method, request.url, response.status, `${Math.round(performance.now() - started)} ms`);
 *   return response;
 * };
 * const client = new CommunityServerClient({ token, baseUrl, middleware: [timing] });
 */
export type Middleware = (request: Request, next: (request: Request) => Promise<Response>) => Promise<Response>;

/**
 * Options of {@link CommunityServerClient} and of `createCore()`. Every one has a default.
 * @example
 * const options: ClientOptions = { token: process.env.BOT_TOKEN, baseUrl: 'https://api.example.com', timeout: 10_000, maxRetries: 4 };
 * const client = new CommunityServerClient(options);
 */
export interface ClientOptions {
  /**
   * The API token. Default: env `COMMUNITY_SERVER_TOKEN`. It is kept out of every error,
   * log line, `util.inspect` and JSON rendering of the client.
   */
  token?: string | undefined;
  /**
   * Where the API lives. Default: env `COMMUNITY_SERVER_BASE_URL`, else the spec's server `/`,
   * which resolves against the page's origin in a browser (elsewhere, pass it).
   */
  baseUrl?: string | undefined;
  /** Milliseconds per attempt (default 30,000). */
  timeout?: number | undefined;
  /** Retries of a GET on network errors, timeouts, 408, 429 and 5xx (default 2). Never POST or DELETE. */
  maxRetries?: number | undefined;
  /** The `fetch` to use (default: the global one): a test double, an edge runtime's own, `mock.fetch`. */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * What a 2xx body that fails its schema does: `'error'` (default) throws
   * `ResponseValidationError`; `'warn'` warns (to `logger`) once per endpoint and returns the body as it came;
   * `'off'` skips schemas.
   */
  validation?: ValidationMode | undefined;
  /**
   * `'wait'` (default): when an answer's `X-RateLimit-Remaining` reaches 0, hold further requests
   * until `X-RateLimit-Reset` instead of taking a 429 (a wait longer than the request's timeout
   * fails at once with `RateLimitError`). `'off'`: send regardless; 429s are still retried.
   * A {@link RateLimitStore} (e.g. `redisRateLimitStore` from `community-server-sdk/redis`):
   * as `'wait'`, with the budget counted in the store, shared by every client on it with this
   * token; while the store fails, the client counts its own and warns once.
   */
  rateLimit?: RateLimitMode | undefined;
  /**
   * How much goes to `logger`, each level with the more severe ones (default `'warn'`, or env
   * `COMMUNITY_SERVER_LOG`): `'off'`; `'error'` (the SDK throws its errors rather than log them,
   * so this silences warnings); `'warn'`: a plain-http `baseUrl`, a body failing its schema
   * under `validation: 'warn'`, a failing rate-limit store; `'info'`: every wait — a retry (why,
   * and how long before it), a rate-limit hold (how long), a watch's backoff; `'debug'`: every
   * attempt (method, path and query, status or failure, milliseconds, attempt number). Never
   * the token.
   */
  logLevel?: LogLevel | undefined;
  /** Where log lines go (default `console`): any object with `error`, `warn`, `info` and `debug` methods. */
  logger?: Logger | undefined;
  /**
   * Off by default. `{ ttlMs, maxEntries?, store? }`: GET answers are reused for `ttlMs`, from
   * an in-process store (least recently used out past `maxEntries`, default 1,000) or `store`
   * (`redisCacheStore` from `community-server-sdk/redis` shares them across processes, and
   * sends a GET that several processes ask for at once only once). Keyed by the token's
   * identity, never the token. Errors are not cached. Per call: `RequestOptions.cache`;
   * `client.cache.invalidate()` drops entries. Identical GETs in flight at once are sent
   * once with or without it.
   */
  cache?: CacheOptions | undefined;
  /**
   * Around each attempt, in order: see {@link Middleware}. Answers from the cache, and a call
   * that joins an identical one in flight, send nothing, so run none.
   */
  middleware?: readonly Middleware[] | undefined;
  /**
   * Milliseconds for a whole call (default: none): every attempt, retry wait and rate-limit wait.
   * When they pass, the call rejects with `TimeoutError` and sends nothing more. `timeout` stays
   * per attempt. Per call: `RequestOptions.deadline`.
   */
  deadline?: number | undefined;
}

/**
 * The defaults of {@link ClientOptions}, in one place (frozen: changing them would change every client).
 * @example
 * const client = new CommunityServerClient({ timeout: DEFAULTS.timeout * 2 });
 */
export const DEFAULTS = Object.freeze({
  /** Milliseconds per attempt. */
  timeout: 30_000,
  /** GET retries. */
  maxRetries: 2,
  /** A 2xx body that fails its schema throws. */
  validation: 'error',
  /** Hold requests while the rate-limit window is spent. */
  rateLimit: 'wait',
  /** Warnings only. */
  logLevel: 'warn',
} as const satisfies Required<Pick<ClientOptions, 'timeout' | 'maxRetries' | 'validation' | 'rateLimit' | 'logLevel'>>);

/** Every option, and only those: the compiler fails when this and {@link ClientOptions} part. */
const optionKinds: Record<keyof ClientOptions, true> = {
  token: true,
  baseUrl: true,
  timeout: true,
  maxRetries: true,
  fetch: true,
  validation: true,
  rateLimit: true,
  logLevel: true,
  logger: true,
  cache: true,
  middleware: true,
  deadline: true,
};
const OPTIONS = /* @__PURE__ */ Object.keys(optionKinds);
/** What a client made by `withOptions` shares with its parent, so cannot set: the token, the service, the gate and the cache. */
const SHARED: readonly (keyof ClientOptions)[] = ['token', 'baseUrl', 'rateLimit', 'cache'];

/** What a client's calls run with: its options, checked, with their defaults. */
export interface Settings {
  readonly timeout: number;
  readonly maxRetries: number;
  readonly deadline: number | undefined;
  /** The `fetch` option; absent: the global `fetch`, looked up per call (so msw, installed later, applies). */
  readonly fetch: typeof globalThis.fetch | undefined;
  readonly validation: ValidationMode;
  readonly middleware: readonly Middleware[];
  readonly log: Log;
  /** The options the log was made from, for a client derived with another level or logger. */
  readonly logOptions: Pick<ClientOptions, 'logLevel' | 'logger'>;
}

/** What a client is for: its token and service; fixed for the clients `withOptions` derives. */
export interface Identity {
  readonly token: string | undefined;
  readonly baseUrl: string;
}

/** Checks a client's options (`InvalidArgumentError`) and resolves their defaults and environment. */
export function resolveOptions(options: ClientOptions): { identity: Identity; settings: Settings; rateLimit: RateLimitMode } {
  checkOptions(options, OPTIONS, 'client');
  const token = checkToken(options.token ?? env('COMMUNITY_SERVER_TOKEN'));
  const settings = resolveSettings(options, undefined, token);
  const baseUrl = resolveBaseUrl(options.baseUrl ?? env('COMMUNITY_SERVER_BASE_URL') ?? '/');
  if (
    options.rateLimit !== undefined &&
    options.rateLimit !== 'wait' &&
    options.rateLimit !== 'off' &&
    !isRateLimitStore(options.rateLimit)
  ) {
    throw new InvalidArgumentError(
      `rateLimit must be 'wait', 'off' or a RateLimitStore (an object with spend and record methods), got ${describe(options.rateLimit)}`,
    );
  }
  checkCacheOptions(options.cache);
  warnIfPlainHttp(baseUrl, token, settings.log);
  return { identity: { token, baseUrl }, settings, rateLimit: options.rateLimit ?? DEFAULTS.rateLimit };
}

/**
 * The settings of a client `withOptions` derives from one with `base`: each option given replaces
 * the parent's; what the clients share cannot be given.
 */
export function deriveSettings(options: ClientOptions, base: Settings, token: string | undefined): Settings {
  checkOptions(options, OPTIONS, 'withOptions');
  const shared = SHARED.find((name) => options[name] !== undefined);
  if (shared) {
    throw new InvalidArgumentError(
      `withOptions cannot set ${shared}: the clients it makes share the parent's token, service, rate-limit gate and cache (make a new client for another)`,
    );
  }
  return resolveSettings(options, base, token);
}

const validationModes = new Set<unknown>(['error', 'warn', 'off']);

function resolveSettings(options: ClientOptions, base: Settings | undefined, token: string | undefined): Settings {
  const { timeout, maxRetries, deadline, fetch, validation, middleware } = options;
  const logOptions =
    options.logLevel === undefined && options.logger === undefined && base
      ? base.logOptions
      : {
          // Only an absent option falls back: `null` is a bad value like any other.
          logLevel: options.logLevel !== undefined ? options.logLevel : base?.logOptions.logLevel,
          logger: options.logger !== undefined ? options.logger : base?.logOptions.logger,
        };
  const log =
    logOptions === base?.logOptions
      ? base.log
      : createLog({
          logLevel: logOptions.logLevel,
          envLevel: logOptions.logLevel === undefined ? env('COMMUNITY_SERVER_LOG') : undefined,
          defaultLevel: DEFAULTS.logLevel,
          logger: logOptions.logger,
          secret: token,
        });
  checkTimeout('timeout', timeout);
  checkRetries('maxRetries', maxRetries);
  checkTimeout('deadline', deadline);
  if (fetch !== undefined && typeof fetch !== 'function') throw new InvalidArgumentError('fetch must be a function');
  if (validation !== undefined && !validationModes.has(validation)) {
    throw new InvalidArgumentError(`validation must be 'error', 'warn' or 'off', got ${describe(validation)}`);
  }
  if (middleware !== undefined && !(Array.isArray(middleware) && middleware.every((each) => typeof each === 'function'))) {
    throw new InvalidArgumentError(`middleware must be an array of functions (request, next) => response, got ${describe(middleware)}`);
  }
  return {
    timeout: timeout ?? base?.timeout ?? DEFAULTS.timeout,
    maxRetries: maxRetries ?? base?.maxRetries ?? DEFAULTS.maxRetries,
    deadline: deadline ?? base?.deadline,
    fetch: fetch ?? base?.fetch,
    validation: validation ?? base?.validation ?? DEFAULTS.validation,
    middleware: middleware ? Array.from<Middleware>(middleware) : (base?.middleware ?? []),
    log,
    logOptions,
  };
}

/** An environment variable where there is an environment (Node, Bun, Deno); else undefined. */
function env(name: string): string | undefined {
  try {
    const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
    return value === '' ? undefined : value;
  } catch {
    return undefined; // e.g. Deno without --allow-env
  }
}

function checkToken(token: unknown): string | undefined {
  // Only visible ASCII can go in a header; the message never repeats the value.
  if (token !== undefined && !(typeof token === 'string' && TOKEN_CHARS.test(token))) {
    throw new InvalidArgumentError('token must be a non-empty string of visible ASCII characters (value not shown)');
  }
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw new InvalidArgumentError(
      `token is ${token.length} characters long, shorter than any API token (at least ${MIN_TOKEN_LENGTH}); value not shown`,
    );
  }
  return token;
}

const warnedOrigins = new Set<string>();
const LOOPBACK = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The service requires HTTPS: a token sent over plain HTTP to another machine can be read on the
 * way. Loopback is fine (the mock, a local proxy). Warned once per origin, never with the token.
 */
function warnIfPlainHttp(baseUrl: string, token: string | undefined, log: Log): void {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || LOOPBACK.test(url.hostname) || warnedOrigins.has(url.origin)) return;
  warnedOrigins.add(url.origin);
  log.warn?.(
    `baseUrl ${url.origin} is plain http to a non-loopback host; the service requires https, and ${token ? 'your token' : 'a token'} would travel unencrypted`,
  );
}

function resolveBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== 'string') throw new InvalidArgumentError(`baseUrl must be a string, got ${describe(baseUrl)}`);
  const origin = (globalThis as { location?: { href?: string } }).location?.href;
  let url: URL;
  try {
    url = new URL(baseUrl, origin);
  } catch {
    throw new InvalidArgumentError(
      `baseUrl ${describe(baseUrl)} does not resolve to an absolute URL${origin ? '' : ' (no page origin here to resolve it against)'}: pass e.g. { baseUrl: 'https://api.example.com' } or set COMMUNITY_SERVER_BASE_URL`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidArgumentError(`baseUrl must be an http(s) URL, got ${describe(baseUrl)}`);
  }
  // Paths are appended as-is, so keep any path prefix but drop its trailing slash, query and hash.
  return url.origin + url.pathname.replace(/\/+$/, '');
}
