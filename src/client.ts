/**
 * `CommunityServerClient`: options and their defaults, and one namespace per data group.
 * @module
 */
import { checkOptions, checkRetries, checkTimeout, describe } from './core/arguments';
import { checkCacheOptions, createCache, type CacheOptions, type ClientCache } from './core/cache';
import { isEndpoint, type Endpoint, type Resource, type ResourceTable } from './core/endpoint';
import { InvalidArgumentError } from './core/errors';
import { Emitter, type ClientEvents, type ClientListener } from './core/events';
import { createLog, type Log, type Logger, type LogLevel } from './core/log';
import { isRateLimitStore, type RateLimitMode } from './core/rate-limit-store';
import { tokenIdentity, tokenScope } from './core/identity';
import { INTROSPECT, type ClientIntrospection } from './core/introspect';
import { createCaller, type Call, type ValidationMode } from './core/request';
import { INSTALL_TRACER, type Tracer } from './core/trace';
import { createTransport } from './core/transport';
import { MIN_TOKEN_LENGTH, TOKEN_CHARS } from './core/token';
import { resources, type Resources } from './resources/index';

/**
 * Options of {@link CommunityServerClient}. Every one has a default.
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
};
const OPTIONS = Object.keys(optionKinds);
const validationModes = new Set<unknown>(['error', 'warn', 'off']);

/**
 * The client of the Community Server Data API: one namespace per data group, one method per
 * request. Every method returns a promise (`APIPromise`, or `PagePromise` for lists) and takes a
 * last optional `RequestOptions`.
 * @example
 * import { CommunityServerClient } from 'community-server-sdk';
 *
 * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com' });
 * const info = await client.server.info();
 * for await (const member of client.members.list({ pageSize: 100 })) console.log(member.id);
 */
export class CommunityServerClient {
  readonly #call: Call;
  readonly #cache: ClientCache;
  readonly #namespaces = new Map<string, unknown>();
  readonly #events: Emitter;
  readonly #tracers: Tracer[] = [];
  /**
   * What `queries()` keys this client's data by: its base URL and a digest of base URL and token
   * (`tokenScope`), made when first asked: a client no query entry reads spends nothing on it.
   */
  readonly #scope: () => string;

  constructor(options: ClientOptions = {}) {
    checkOptions(options, OPTIONS, 'client');
    const token = checkToken(options.token ?? env('COMMUNITY_SERVER_TOKEN'));
    const log = createLog({
      logLevel: options.logLevel,
      envLevel: options.logLevel === undefined ? env('COMMUNITY_SERVER_LOG') : undefined,
      defaultLevel: DEFAULTS.logLevel,
      logger: options.logger,
      secret: token,
    });
    const baseUrl = resolveBaseUrl(options.baseUrl ?? env('COMMUNITY_SERVER_BASE_URL') ?? '/');
    checkTimeout('timeout', options.timeout);
    checkRetries('maxRetries', options.maxRetries);
    if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new InvalidArgumentError('fetch must be a function');
    if (options.validation !== undefined && !validationModes.has(options.validation)) {
      throw new InvalidArgumentError(`validation must be 'error', 'warn' or 'off', got ${describe(options.validation)}`);
    }
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
    warnIfPlainHttp(baseUrl, token, log);
    this.#events = new Emitter(log);
    const timeout = options.timeout ?? DEFAULTS.timeout;
    const send = createTransport({
      baseUrl,
      token,
      timeout,
      maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
      fetch: options.fetch,
      rateLimit: options.rateLimit ?? DEFAULTS.rateLimit,
      log,
      events: this.#events,
      tracers: this.#tracers,
    });
    // Computed once: the cache's keys and every fleet watch name the token by it.
    const identity = tokenIdentity(baseUrl, token);
    const cache = createCache({ options: options.cache, identity, token, timeout, log, kindOf: (name) => kindOf(entryAt(name)) });
    this.#cache = cache.control;
    this.#scope = () => tokenScope(baseUrl, token);
    this.#call = createCaller({
      send,
      cache,
      validation: options.validation ?? DEFAULTS.validation,
      token,
      log,
      identity: () => identity,
      siblingName,
    });
  }

  /**
   * The cache: `invalidate(prefix?)` and `stats()`. There with or without the `cache` option:
   * identical GETs in flight at once are always sent once, and `stats().coalesced` counts the
   * calls that shared one.
   * @example
   * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com', cache: { ttlMs: 300_000 } });
   * await client.members.get(id); // fetched
   * await client.members.get(id); // from the cache
   * console.log(client.cache.stats()); // { hits: 1, misses: 1, coalesced: 0 }
   * await client.cache.invalidate('members.get');
   */
  get cache(): ClientCache {
    return this.#cache;
  }

  /**
   * Listens to what the client does: `'request'` (each attempt sent), `'response'` (each attempt
   * answered, with its status and duration), `'retry'` (a failed attempt tried again: why, and
   * after how long) and `'rateLimitWait'` (a request the rate limit held, as it goes). Returns
   * the function that removes the listener. Payloads name the endpoint (`members.get`) and never
   * hold the token; a listener that throws or rejects is reported once (a `warn` line) and never
   * fails the call. With no listener, no payload is built.
   * @example
   * const off = client.on('response', ({ endpoint, status, durationMs }) => console.log(`${endpoint} ${status} ${durationMs} ms`));
   * await client.members.list();
   * off(); // stop listening
   */
  on<Name extends keyof ClientEvents>(event: Name, listener: ClientListener<Name>): () => void {
    return this.#events.on(event, listener);
  }

  /** @internal `instrument()` of `community-server-sdk/otel` installs its tracer here; returns its removal. */
  [INSTALL_TRACER](tracer: Tracer): () => void {
    this.#tracers.push(tracer);
    return () => {
      const index = this.#tracers.indexOf(tracer);
      if (index >= 0) this.#tracers.splice(index, 1);
    };
  }

  /** @internal `queries()` of `community-server-sdk/query` reads the endpoint table and the scope of its keys here; never the token. */
  [INTROSPECT](): ClientIntrospection {
    return { scope: this.#scope(), resources };
  }

  /** Namespaces are bound on first use, so a client that calls one group builds only that one. */
  #namespace<Name extends keyof Resources>(name: Name): Resource<Resources[Name]> {
    let namespace = this.#namespaces.get(name);
    if (namespace === undefined) this.#namespaces.set(name, (namespace = bind(resources[name], this.#call, `${name}.`)));
    return namespace as Resource<Resources[Name]>;
  }

  /** Administrative requests: `rateLimit(serverId)` (#1). */
  get admin() {
    return this.#namespace('admin');
  }
  /** Applications and their responses (#2–#5). */
  get applications() {
    return this.#namespace('applications');
  }
  /** The server's audit log (#6). */
  get auditLogs() {
    return this.#namespace('auditLogs');
  }
  /** Computer-aided dispatch: `calls`, `courtHearings`, `records`, `unitGroups`, `units` (#7–#18). */
  get cad() {
    return this.#namespace('cad');
  }
  /** Departments, with their `auditLogs`, `joinRequests`, `loas`, `members`, `ranks`, `shifts` (#19–#35). */
  get departments() {
    return this.#namespace('departments');
  }
  /** The server the token belongs to: `info()` (#36). */
  get server() {
    return this.#namespace('server');
  }
  /** Requests to join the server (#37–#38). */
  get joinRequests() {
    return this.#namespace('joinRequests');
  }
  /** Leave-of-absence requests (#39–#41). */
  get loas() {
    return this.#namespace('loas');
  }
  /** Moderation logs (#42–#45). */
  get logs() {
    return this.#namespace('logs');
  }
  /** Members of the server (#46–#49). */
  get members() {
    return this.#namespace('members');
  }
  /** Roles of the server (#50–#51). */
  get roles() {
    return this.#namespace('roles');
  }
  /** Duty shifts (#52–#54). */
  get shifts() {
    return this.#namespace('shifts');
  }
  /** API tokens: `list`, `create`, `current`, `deactivate` (#55–#58). */
  get tokens() {
    return this.#namespace('tokens');
  }
  /** Chat ↔ game account links (#59–#60). */
  get verification() {
    return this.#namespace('verification');
  }
  /** Health probes; no token needed (#61–#64). */
  get health() {
    return this.#namespace('health');
  }
}

/** What the dotted `name` is in the resource table (`members` a table, `members.get` an endpoint), if anything. */
const entryAt = (name: string): Endpoint | ResourceTable | undefined =>
  name
    .split('.')
    .reduce<Endpoint | ResourceTable | undefined>(
      (table, key) => (table && !isEndpoint(table) ? (Object.hasOwn(table, key) ? table[key] : undefined) : undefined),
      resources,
    );

const kindOf = (entry: Endpoint | ResourceTable | undefined) => (entry ? (isEndpoint(entry) ? 'method' : 'group') : undefined);

/** The dotted name of `endpoint`, a neighbour of the method `name` in its table (a list's item get: `members.list` → `members.get`). */
function siblingName(name: string, endpoint: Endpoint): string {
  const parent = name.slice(0, name.lastIndexOf('.'));
  const table = (parent ? entryAt(parent) : resources) as ResourceTable;
  return `${parent}.${Object.keys(table).find((key) => table[key] === endpoint)!}`;
}

/** The methods of `table`, each calling its endpoint under its dotted name (`prefix` + key: `cad.calls.list`). */
function bind<Table extends ResourceTable>(table: Table, call: Call, prefix: string): Resource<Table> {
  const bound: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(table)) {
    const name = prefix + key;
    if (!isEndpoint(entry)) {
      bound[key] = bind(entry, call, `${name}.`);
      continue;
    }
    // The method names itself: the stack of an error copied for a joined call starts at its caller.
    const method = (...args: unknown[]) => call(entry, name, args, method);
    bound[key] = method;
  }
  return bound as Resource<Table>;
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
