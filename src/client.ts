/**
 * `CommunityServerClient`: the functions of `community-server-sdk/core` bound to a core, one
 * namespace per data group, with what a whole client offers besides: listeners (`on`), observers
 * (`observe`), the cache (`cache`), clients with other options over the same state (`withOptions`).
 * It carries `watch()`'s machinery, so a list's `.watch()` checks its options and starts at once,
 * and the rate-limit gate's holds (`rate-limit-hold.ts`), which a core loads when a request first
 * waits: under a test's fake clock, which lets no module load, both behave as they always have.
 * @module
 */
import type { ClientCache } from './core/cache-options';
import { coreWith, engine, observe, withOptions, type Core, type Engine } from './core/core';
import { callOne } from './core/call';
import { isEndpoint, type Endpoint, type Resource, type ResourceTable } from './core/endpoint';
import { Emitter, type ClientEvents, type ClientListener } from './core/events';
import { callList } from './core/list';
import type { CallObserver } from './core/observe';
import type { ClientOptions } from './core/options';
import { Holds } from './core/rate-limit-hold';
import { startWatch } from './core/watch/run';
import { resources, type Resources } from './resources/index';

export { DEFAULTS, type ClientOptions } from './core/options';

/**
 * What a client tells the SDK's other entry points about itself (`community-server-sdk/query`
 * builds its query options from it): its endpoint table and its core. @internal
 */
export interface ClientIntrospection {
  /**
   * The core its methods call on: the query entry asks it for the scope of its keys (`~scope`),
   * a digest that entry computes, so a client without queries holds none of that code.
   */
  readonly core: Core;
  /** The table the client binds its methods from. */
  readonly resources: ResourceTable;
}

/** The listeners of each client family (a client and those `withOptions` derives from it), made on the first `on()`. */
const emitters = new WeakMap<object, Emitter>();

/** The core `withOptions` hands the client it is making (see its use in the constructor). */
let derived: Core | undefined;

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
  readonly #core: Core;
  readonly #engine: Engine;
  readonly #namespaces = new Map<string, unknown>();

  constructor(options: ClientOptions = {}) {
    // `withOptions` sets `derived` just before it calls the constructor, and nothing can run between.
    const core = derived ?? coreWith(options, { kindOf: (name) => kindOf(entryAt(name)), startWatch, holds: Holds });
    derived = undefined;
    this.#core = core;
    this.#engine = engine(core);
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
    return this.#engine.shared.cache.control;
  }

  /**
   * Listens to what the client does: `'request'` (each attempt sent), `'response'` (each attempt
   * answered, with its status and duration), `'retry'` (a failed attempt tried again: why, and
   * after how long) and `'rateLimitWait'` (a request the rate limit held, as it goes). Returns
   * the function that removes the listener. Payloads name the endpoint (`members.get`) and never
   * hold the token; a listener that throws or rejects is reported once (a `warn` line) and never
   * fails the call. With no listener, no payload is built. Clients made by `withOptions` share
   * their listeners.
   * @example
   * const off = client.on('response', ({ endpoint, status, durationMs }) => console.log(`${endpoint} ${status} ${durationMs} ms`));
   * await client.members.list();
   * off(); // stop listening
   */
  on<Name extends keyof ClientEvents>(event: Name, listener: ClientListener<Name>): () => void {
    const { shared, settings } = this.#engine;
    let emitter = emitters.get(shared);
    if (!emitter) {
      const made = new Emitter(settings.log);
      emitters.set(shared, (emitter = made));
      // One observer for every listener: it takes a call only while someone listens.
      observe(this.#core, () => (made.active ? { event: (name, event) => made.emit(name, event) } : undefined));
    }
    return emitter.on(event, listener);
  }

  /**
   * Adds an observer of each whole call (see {@link CallObserver}): where a middleware is around
   * each attempt, an observer starts with the call, may run it inside a context of its own, hears
   * its events (retries and rate-limit waits included) and learns how it ended.
   * `instrument()` of `community-server-sdk/otel` is one. Returns the function that removes it.
   * @example
   * const stop = client.observe((call) => {
   *   const started = performance.now();
   *   return { end: ({ status, error }) => console.log(call.endpoint, status ?? error, `${performance.now() - started} ms`) };
   * });
   */
  observe(observer: CallObserver): () => void {
    return observe(this.#core, observer);
  }

  /**
   * A client with `options` over this one's token, service, rate-limit gate, cache, coalescing,
   * listeners and observers: each option given replaces this client's (`timeout`, `maxRetries`,
   * `deadline`, `fetch`, `validation`, `logLevel`, `logger`, `middleware`); `token`, `baseUrl`,
   * `rateLimit` and `cache` are the shared state, so `InvalidArgumentError`.
   * @example
   * const patient = client.withOptions({ timeout: 60_000, maxRetries: 5 });
   * const report = await patient.logs.list({ pageSize: 100 }).toArray();
   * const traced = client.withOptions({ middleware: [async (request, next) => next(new Request(request, { headers: { ...Object.fromEntries(request.headers), 'x-trace': id } }))] });
   */
  withOptions(options: ClientOptions): CommunityServerClient {
    derived = withOptions(this.#core, options);
    return new CommunityServerClient();
  }

  /** @internal For the SDK's other entries (`community-server-sdk/query`): the endpoint table and the core. */
  '~introspect'(): ClientIntrospection {
    return { core: this.#core, resources };
  }

  /** Namespaces are bound on first use, so a client that calls one group builds only that one. */
  #namespace<Name extends keyof Resources>(name: Name): Resource<Resources[Name]> {
    let namespace = this.#namespaces.get(name);
    if (namespace === undefined) this.#namespaces.set(name, (namespace = bind(resources[name], this.#engine)));
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

/** The methods of `table`, each calling its endpoint on `engine`. */
function bind<Table extends ResourceTable>(table: Table, on: Engine): Resource<Table> {
  const bound: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(table)) {
    if (!isEndpoint(entry)) {
      bound[key] = bind(entry, on);
      continue;
    }
    const call = entry.kind === 'page' ? callList : callOne;
    // The method names itself: the stack of an error copied for a joined call starts at its caller.
    const method = (...args: unknown[]) => call(on, entry, args, method);
    bound[key] = method;
  }
  return bound as Resource<Table>;
}
