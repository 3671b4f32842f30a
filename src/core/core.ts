/**
 * A core: what every call of a client runs on. `createCore(options)` checks the options and
 * builds the state a client's calls share: the token (kept here, in closures, never on the object),
 * the rate-limit gate, coalescing and the cache, the observers. The `/core` functions
 * (`membersGet(core, id)`) and the methods of `CommunityServerClient` are calls on one.
 *
 * Features the options turn on reach a core only when given, so a bundle that does not use them
 * does not hold them: the cache's store (`cache.ts`) and the store-backed rate-limit gate
 * (`store-gate.ts`) load through a dynamic import the first time a core is made with their
 * option (bundlers split each into a chunk of its own; the calls that come before it arrives wait
 * for it). A list's `watch()` (the poller, its strategies, the fleet's side: a feature of bots,
 * which a dashboard seldom uses) loads in a core's bundle the first time a list is watched;
 * `CommunityServerClient` carries it, so its `.watch()` checks and starts at once, as it always
 * has. Listeners (`client.on`) and tracing (`community-server-sdk/otel`) come through the class
 * or entry that offers them: a core has none until one is added (`observe`).
 * @module
 */
import { brand } from './brand';
import { createCoalescer, type Cache, type KindOf } from './coalesce';
import type { ClientCache } from './cache-options';
import type { Endpoint } from './endpoint';
import { InvalidArgumentError } from './error-base';
import { describe } from './describe';
import type { CallObserver } from './observe';
import { deriveSettings, resolveOptions, type ClientOptions, type Settings } from './options';
import { RateLimitGate, type Gate, type HoldsClass } from './rate-limit';
import { middlewareFetch } from './middleware';
import { secretForms } from './redact-text';
import type { startWatch } from './watch/run';

/** What the clients of one core family share (a core, and those `withOptions` derives from it). */
export interface Shared {
  readonly token: string | undefined;
  readonly baseUrl: string;
  /** `Bearer <token>`, made once. */
  readonly authorization: string | undefined;
  /** The rate-limit gate (`rateLimit: 'off'`: none). */
  readonly gate: Gate | undefined;
  readonly cache: Cache;
  readonly observers: CallObserver[];
  /** Whether a failing observer was reported: once per family, a broken one fails the same way on every call. */
  observerFailed?: boolean;
  /** A hash naming the token and service (never the token): the cache's and a fleet's keys. */
  readonly identity: () => Promise<string>;
  /** Whether `text` shows the token, in any form a request or answer carries it. */
  readonly showsToken: (text: string) => boolean;
  /**
   * `watch()`'s machinery, when the client carries it (`CommunityServerClient`): its `.watch()`
   * then checks its options and starts at once; without it, it loads the first time a list is watched.
   */
  readonly startWatch: typeof startWatch | undefined;
}

/** A core's own state: its settings, and what it shares. */
export interface Engine {
  readonly settings: Settings;
  readonly shared: Shared;
  /** The client's `fetch` with its middleware around it, made once (`transport.ts`). */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Endpoints whose body failed its schema under `validation: 'warn'` (warned once each). */
  readonly warned: Set<Endpoint>;
}

/** What the client class hands a core it makes, beyond the options. @internal */
export interface CoreParts {
  /** What a dotted name is in the client's table, for `cache.invalidate`. */
  kindOf?: KindOf;
  startWatch?: typeof startWatch;
  /** The rate-limit gate's holds (`rate-limit-hold.ts`), which the class carries; a core loads them when a request first waits. */
  holds?: HoldsClass;
}

let engineOf: (core: Core) => Engine;

/** The engine of a core with `settings` over `shared`. */
const makeEngine = (settings: Settings, shared: Shared): Engine => ({
  settings,
  shared,
  fetch: middlewareFetch(settings),
  warned: new Set(),
});

/**
 * What `createCore()` returns: hand it to the functions of `community-server-sdk/core`
 * (`membersGet(core, id)`). It shows neither the token nor its options (`util.inspect`, JSON).
 * @example
 * import { createCore, membersGet } from 'community-server-sdk/core';
 * const core = createCore({ token: process.env.TOKEN, baseUrl: 'https://api.example.com' });
 * const member = await membersGet(core, id);
 * console.log(core.cache.stats());
 */
export class Core {
  readonly #engine: Engine;

  static {
    brand(this, 'Core');
    engineOf = (core) => {
      if (!(core instanceof Core)) {
        throw new InvalidArgumentError(`the first argument must be what createCore() returns, got ${describe(core)}`);
      }
      return core.#engine;
    };
  }

  /** @internal `createCore()` makes cores. */
  constructor(engine: Engine) {
    this.#engine = engine;
  }

  /** The resolved base URL (no trailing slash), e.g. `https://api.example.com`. */
  get baseUrl(): string {
    return this.#engine.shared.baseUrl;
  }

  /**
   * The cache: `invalidate(prefix?)` and `stats()`, there with or without the `cache` option
   * (identical GETs in flight at once are always sent once). Here, with no table of the client to
   * check it against, `invalidate` takes any dotted name, and drops what it names.
   * @example
   * await core.cache.invalidate('members');
   */
  get cache(): ClientCache {
    return this.#engine.shared.cache.control;
  }

  /**
   * @internal For `community-server-sdk/query` (`queries(core, tree)`): `name(baseUrl, token)`,
   * the scope of its keys, which that entry computes (a one-way digest: never the token), so a
   * core that is not given to it holds none of that code.
   */
  '~scope'(name: (shared: Pick<Shared, 'baseUrl' | 'token'>) => string): string {
    return name(this.#engine.shared);
  }
}

/** The engine of `core` (`InvalidArgumentError` when it is not a core). @internal */
export const engine = (core: Core): Engine => engineOf(core);

/**
 * A core for a client with `options` (the client's, see `ClientOptions`), checked now:
 * `InvalidArgumentError` before anything is sent. Pass it to the functions of
 * `community-server-sdk/core`; a bundle holds only the functions it imports.
 * @example
 * import { createCore, membersList, membersGet, serverInfo } from 'community-server-sdk/core';
 * const core = createCore({ token: process.env.TOKEN, baseUrl: 'https://api.example.com' });
 * for await (const member of membersList(core, { pageSize: 100 })) console.log(member.id);
 * const info = await serverInfo(core);
 */
export function createCore(options: ClientOptions = {}): Core {
  return coreWith(options, {});
}

/** {@link createCore}, with what the client class hands a core it makes. @internal */
export function coreWith(options: ClientOptions, parts: CoreParts): Core {
  const { identity, settings, rateLimit } = resolveOptions(options);
  const { token, baseUrl } = identity;
  // The token as a path (percent-encoded) or JSON text (escaped) would show it.
  const forms = token ? secretForms(token) : [];
  const showsToken = (text: string) => forms.some((form) => text.includes(form));
  let identified: Promise<string> | undefined;
  const shared: Shared = {
    token,
    baseUrl,
    authorization: token ? `Bearer ${token}` : undefined,
    gate:
      rateLimit === 'off'
        ? undefined
        : rateLimit === 'wait'
          ? new RateLimitGate(settings.log, undefined, parts.holds)
          : storeGate(() => import('./store-gate'), { store: rateLimit, baseUrl, token, log: settings.log }),
    cache: createCoalescer(showsToken, parts.kindOf),
    observers: [],
    // Asked only by the cache, a fleet and the store gate: it loads with them.
    identity: () => (identified ??= import('./identity').then(({ tokenIdentity }) => tokenIdentity(baseUrl, token))),
    showsToken,
    startWatch: parts.startWatch,
  };
  const { cache } = options;
  if (cache) {
    // Started now, so the first call seldom waits for it.
    const layer = import('./cache').then(({ createCacheLayer }) => {
      const created = createCacheLayer({ options: cache, identity: shared.identity(), token, log: settings.log, showsToken });
      shared.cache.layer = created;
      return created;
    });
    shared.cache.layer = layer;
  }
  return new Core(makeEngine(settings, shared));
}

/**
 * A gate that loads its module on first use: the store-backed gate (`rateLimit: store`), which a
 * core without a store never holds.
 */
function storeGate(load: () => Promise<typeof import('./store-gate')>, config: import('./store-gate').StoreGateOptions): Gate {
  let gate: Promise<Gate> | undefined;
  return {
    acquire: async (...args) => (await (gate ??= load().then(({ StoreGate }) => new StoreGate(config)))).acquire(...args),
  };
}

/**
 * A core with `options` over the same token, service, rate-limit gate, cache, coalescing and
 * observers as `core`: each option given replaces `core`'s; `token`, `baseUrl`, `rateLimit` and
 * `cache` cannot be given (`InvalidArgumentError`).
 * @example
 * import { createCore, withOptions, membersGet } from 'community-server-sdk/core';
 * const core = createCore({ token: process.env.TOKEN, baseUrl: 'https://api.example.com' });
 * const patient = withOptions(core, { timeout: 60_000, deadline: 120_000 });
 * await membersGet(patient, id);
 */
export function withOptions(core: Core, options: ClientOptions): Core {
  const { settings, shared } = engine(core);
  return new Core(makeEngine(deriveSettings(options, settings, shared.token), shared));
}

/**
 * Adds `observer` to `core` and every core it shares its state with (`withOptions`): told of each
 * call as it starts, it may observe it (see `CallObserver`). Returns the function that removes it.
 * @example
 * import { createCore, observe } from 'community-server-sdk/core';
 * const core = createCore({ token: process.env.TOKEN, baseUrl: 'https://api.example.com' });
 * const stop = observe(core, (call) => ({ end: ({ status }) => console.log(call.endpoint, status) }));
 */
export function observe(core: Core, observer: CallObserver): () => void {
  if (typeof observer !== 'function') throw new InvalidArgumentError(`an observer must be a function, got ${describe(observer)}`);
  const { observers } = engine(core).shared;
  // Wrapped, so the same function added twice is two observers, removed one at a time.
  const wrapped: CallObserver = (call) => observer(call);
  observers.push(wrapped);
  return () => {
    const at = observers.indexOf(wrapped);
    if (at >= 0) observers.splice(at, 1);
  };
}
