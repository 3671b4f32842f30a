/**
 * `community-server-sdk/mock`: the whole Community Server Data API in memory, for test suites,
 * bots and browser dashboards. A seeded world, MSW request handlers for all 64 requests, and a
 * `fetch` that answers from them in-process.
 * @example
 * import { CommunityServerClient } from 'community-server-sdk';
 * import { createMockApi } from 'community-server-sdk/mock';
 *
 * const mock = createMockApi({ seed: 1 });
 * const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://mock.test', fetch: mock.fetch });
 * for await (const member of client.members.list()) console.log(member.id);
 * @module community-server-sdk/mock
 */
import type { HttpHandler } from 'msw';
import { createActivity, type ActivityOptions, type MockActivity } from './activity/index';
import { ACTIVITY_OPTIONS, checkArgument, HEALTH, RATE_LIMIT, RATE_LIMIT_OR_NONE } from './control/arguments';
import { MOCK_INTERNALS, type MockInternals } from './control/internals';
import { tableAt } from './control/tables';
import { TokenAdmission, type AuthFailureLimitOptions, type RateLimitOptions } from './auth';
import { createClock, type MockClock } from './clock';
import type { HealthState, MockState } from './context';
import { DEFAULT_JOURNAL_LIMIT, Journal, type JournalOptions, type MockRequest } from './journal';
import { FaultTable, type MockFaults } from './faults';
import { mockFetchOf, mswHandlersOf } from './handlers';
import { MOCK_OPTION_NAMES } from './option-names';
import { createPipeline } from './pipeline';
import type { AuthErrorShape } from './replies';
import { checkOptions, describe } from '../src/core/arguments';
import { InvalidArgumentError } from '../src/core/errors';
import { Store } from './store';
import type { MockTokens } from './types';
import { parseSnapshot, type WorldSnapshot } from './snapshot/schema';
import { worldFromSnapshot } from './snapshot/world';
import { copying, runInSlices, runSteps, type Steps } from './steps';
import {
  buildingWorld,
  DEFAULT_COUNTS,
  rowsOf,
  randomTokenSecret,
  runtimeFaker,
  tokenSecret,
  withRandomSecrets,
  type World,
  type WorldCounts,
} from './world';

export type {
  ActivityEntry,
  ActivityEvent,
  ActivityFailure,
  ActivityKind,
  ActivityOptions,
  ActivityRows,
  DepartmentActivityKind,
  MockActivity,
} from './activity/index';
export type { AuthFailureLimitOptions, RateLimitOptions } from './auth';
export type { MockClock } from './clock';
export type { FaultRule, MockFaults } from './faults';
export { Collection, InvalidRowError, type CollectionSpec, type PageRange, type SortDirection, type WriteOptions } from './collection';
export type { Sequence } from './sequence';
export type { HealthState } from './context';
export type { MockTokens } from './types';
export type { JournalOptions, MockRequest, MockRequestToken } from './journal';
export { DEFAULT_JOURNAL_LIMIT } from './journal';
export type { AuthErrorShape } from './replies';
// Runtime exports, not only types: the declarations promise classes (`instanceof mock.store`).
export { CadStore, DepartmentStore, ServerStore, Store } from './store';
export type { AccountLink, Permission, RoleRow, ServerRow, ShiftRow, TokenRecord, WorldCounts } from './world';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './paging';
export { DEFAULT_COUNTS, WORLD_END, WORLD_START } from './world';
export type { SnapshotAccountLink, SnapshotCad, SnapshotDepartment, WorldSnapshot } from './snapshot/schema';
export type { ProgressStream } from './snapshot/progress';
export { snapshotWorld, type SnapshotClient, type SnapshotOptions } from './snapshot/take';

/**
 * Options of {@link createMockApi}. Every one has a default; an unknown option or a bad value
 * throws an `InvalidArgumentError` (the SDK's, from `community-server-sdk`) that says why.
 * @example
 * const mock = createMockApi({ seed: 7, latency: [5, 20], authErrorShape: 'object' });
 */
export interface MockOptions {
  /** The world's seed: the same seed gives the same data, byte for byte (default 1). */
  seed?: number;
  /** Delay before each answer: milliseconds, or `[min, max]` drawn per request (default 0). */
  latency?: number | readonly [min: number, max: number];
  /** A per-token window: `{ limit, windowMs }`. Off by default. */
  rateLimit?: RateLimitOptions;
  /**
   * Failed authentications of one token before it is suspended: a count (suspended for 60 s),
   * or `{ failures, durationMs }`. Off by default.
   */
  authFailureLimit?: number | AuthFailureLimitOptions;
  /** Body of 401 and 403 answers: `{"error":"text"}` (`'string'`, the default) or the object shape. */
  authErrorShape?: AuthErrorShape;
  /** Row counts of the `main` server's groups, e.g. `{ members: 100_000 }` for a load test. */
  counts?: Partial<WorldCounts>;
  /**
   * A snapshot to serve as the `main` server instead of seeded rows (from {@link "community-server-sdk/mock"!snapshotWorld},
   * or its JSON file parsed). The five tokens are still the mock's own, now scoped to the
   * snapshot's server, with fresh random secrets unless `tokens: 'seeded'`; `noCad` stays seeded.
   * Checked first: a bad one throws an `InvalidArgumentError` naming
   * the path inside it, e.g. `world.members[3].createdAt: expected int`. Not with `counts`.
   */
  world?: WorldSnapshot;
  /**
   * The secrets of the five tokens (`mock.tokens`) and of those the API creates: `'seeded'`, from
   * `seed` (the same in every install, so anyone can present them), or `'random'`, fresh from the
   * platform's secure random source at each `createMockApi` (kept across `reset()`). Default:
   * `'random'` with a `world` (a real server's data), else `'seeded'`.
   */
  tokens?: MockTokenSource;
  /** The source of `mock.clock` (default `Date.now`): what it reads before any `clock.advance`. */
  now?: () => number;
  /** Starts `mock.activity` at once, one event every `intervalMs` (see {@link MockActivity}). Off by default. */
  activity?: ActivityOptions;
  /** How many rows `mock.requests` keeps: the newest `limit`, default {@link DEFAULT_JOURNAL_LIMIT} (1000); `0` keeps none. */
  journal?: JournalOptions;
}

/**
 * Where the mock's token secrets come from (`createMockApi({ tokens })`): the seed, or the
 * platform's secure random source.
 * @example
 * const mock = createMockApi({ world: snapshot, tokens: 'seeded' }); // the seed's tokens, as in every install
 */
export type MockTokenSource = 'seeded' | 'random';

/**
 * The mock of the whole API: what {@link createMockApi} returns.
 * @example
 * const mock = createMockApi({ seed: 1 });
 * const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://community.test', fetch: mock.fetch });
 * await client.members.list(); // page 1 of mock.store.main.members, newest first
 * mock.setHealth({ database: false }); // /health and /readyz now answer 503
 * mock.reset(); // back to the seeded state
 */
export interface MockApi {
  /** MSW request handlers of all 64 requests, and HEAD beside each GET (paths match any origin), for `setupServer`/`setupWorker`. */
  readonly handlers: readonly HttpHandler[];
  /** A `fetch` answered by the handlers in-process: no network, no interception. */
  readonly fetch: typeof globalThis.fetch;
  /** The five tokens: `main`, `noCad`, `readOnly`, `expired`, `revoked`: the seed's, or random ones (the `tokens` option). */
  readonly tokens: MockTokens;
  /** The in-memory data; read and write it from tests. `reset()` replaces it. */
  readonly store: Store;
  /** The seed the world was built from. */
  readonly seed: number;
  /**
   * Turns dependencies off and on: `false` makes `/health` and `/readyz` answer 503. An unknown
   * switch or a value that is not a boolean throws `InvalidArgumentError` and changes nothing.
   * @example
   * mock.setHealth({ database: false });
   * await expect(client.health.check()).rejects.toBeInstanceOf(ServiceUnavailableError);
   */
  setHealth(health: Partial<HealthState>): void;
  /** The world changing by itself: `step(n)` events now, or `start({ intervalMs })` on a timer. */
  readonly activity: MockActivity;
  /**
   * Every request the mock answered, on any door (`fetch`, msw handlers, the HTTP server, the
   * worker), oldest first: the newest `journal.limit` of them (1000 by default). Tokens appear by
   * role, never as secrets; a secret inside a path, query or body reads `[redacted]`. A copy:
   * read it again for newer rows. `reset()` empties it. What the HTTP server refuses itself
   * never reaches the mock and is not in it: a CORS preflight, a body over 1 MiB.
   * @example
   * await client.members.get(id);
   * expect(mock.requests.map((r) => [r.endpoint, r.token, r.status])).toEqual([['members.get', 'main', 200]]);
   */
  readonly requests: readonly MockRequest[];
  /**
   * Faults on demand, on every door: the next requests of an endpoint fail with a status, fail
   * the connection, or come late (see {@link FaultRule}). `reset()` clears them.
   * @example
   * mock.faults.add({ endpoint: 'members.get', status: 503, times: 1 });
   * await expect(client.members.get(id)).rejects.toBeInstanceOf(ServiceUnavailableError);
   */
  readonly faults: MockFaults;
  /**
   * The mock's clock: the `now` option plus what `advance(ms)` added, for token expiry,
   * rate-limit windows, suspensions and the timestamps the mock writes. `reset()` takes the
   * advance back.
   * @example
   * mock.clock.advance(60_000); // a minute later: the rate-limit window has reopened
   */
  readonly clock: MockClock;
  /**
   * Changes the rate limit while the mock runs: `{ limit, windowMs }` (both integers ≥ 1, as the
   * `rateLimit` option), or `null` to turn it off. Every token starts a fresh window.
   * `reset()` returns to the `rateLimit` option. A bad value throws `InvalidArgumentError` and
   * changes nothing.
   * @example
   * mock.setRateLimit({ limit: 2, windowMs: 1_000 }); // from now on, 2 requests per second per token
   * mock.setRateLimit(null);                           // unlimited again
   */
  setRateLimit(rateLimit: RateLimitOptions | null): void;
  /**
   * Back to the seeded state: data, tokens, counters, health, the journal, faults, the clock's
   * advance and the rate limit of the options; stops the activity and restarts its stream.
   * @example
   * afterEach(() => mock.reset()); // each test starts from the same world
   */
  reset(): void;
}

const HEALTHY: HealthState = { database: true, cache: true, ready: true };
const SUSPENSION_MS = 60_000;

const isCount = (value: unknown, min = 0): value is number => Number.isSafeInteger(value) && (value as number) >= min;

function checkMockOptions(options: MockOptions): void {
  if (options === null) throw new InvalidArgumentError('createMockApi options must be an object, got null');
  checkOptions(options, MOCK_OPTION_NAMES, 'mock');
  const { seed, latency, rateLimit, authFailureLimit, authErrorShape, counts, now } = options;
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new InvalidArgumentError(`seed must be an integer, got ${describe(seed)}`);
  const range = typeof latency === 'number' ? [latency, latency] : latency;
  if (
    latency !== undefined &&
    !(Array.isArray(range) && range.length === 2 && range.every((ms) => Number.isFinite(ms) && ms >= 0) && range[0]! <= range[1]!)
  ) {
    throw new InvalidArgumentError('latency must be milliseconds ≥ 0, or [min, max] with 0 ≤ min ≤ max');
  }
  if (rateLimit !== undefined) checkArgument(RATE_LIMIT, rateLimit, 'rateLimit');
  const failures = typeof authFailureLimit === 'number' ? { failures: authFailureLimit, durationMs: SUSPENSION_MS } : authFailureLimit;
  if (failures !== undefined && !(isCount(failures?.failures, 1) && isCount(failures?.durationMs, 1))) {
    throw new InvalidArgumentError('authFailureLimit must be an integer ≥ 1, or { failures, durationMs }, both integers ≥ 1');
  }
  if (authErrorShape !== undefined && authErrorShape !== 'string' && authErrorShape !== 'object') {
    throw new InvalidArgumentError(`authErrorShape must be "string" or "object", got ${describe(authErrorShape)}`);
  }
  if (counts !== undefined) {
    checkOptions(counts, Object.keys(DEFAULT_COUNTS), 'counts');
    for (const [name, value] of Object.entries(counts)) {
      if (!isCount(value)) throw new InvalidArgumentError(`counts.${name} must be an integer ≥ 0, got ${describe(value)}`);
    }
  }
  if (now !== undefined && typeof now !== 'function') throw new InvalidArgumentError('now must be a function returning milliseconds');
  if (options.activity !== undefined) checkArgument(ACTIVITY_OPTIONS, options.activity, 'activity');
  if (options.world !== undefined && counts !== undefined) {
    throw new InvalidArgumentError('counts sizes a seeded world; a world snapshot brings its own rows: pass one or the other');
  }
  if (options.tokens !== undefined && options.tokens !== 'seeded' && options.tokens !== 'random') {
    throw new InvalidArgumentError(`tokens must be "seeded" or "random", got ${describe(options.tokens)}`);
  }
  if (options.journal !== undefined && !isCount(options.journal?.limit)) {
    throw new InvalidArgumentError('journal must be { limit }, an integer ≥ 0');
  }
}

/**
 * Builds a mock of the whole API over a seeded world, or over a snapshot of a real server (`world`).
 * @example
 * const mock = createMockApi({ seed: 7, latency: [5, 20], rateLimit: { limit: 100, windowMs: 60_000 } });
 */
export function createMockApi(options: MockOptions = {}): MockApi {
  checkMockOptions(options);
  return runSteps(makingMock(options));
}

/** The world `options` describe, before any random secrets, a step per row: their seed's (sized by `counts`), or their snapshot's. */
function* buildingWorldOf(options: MockOptions): Steps<World> {
  return options.world === undefined
    ? yield* buildingWorld(options.seed ?? 1, options.counts)
    : worldFromSnapshot(parseSnapshot(options.world), options.seed ?? 1);
}

/** The options that shape a world: a session that gives none of them serves its root's world. */
const WORLD_OPTIONS = ['seed', 'counts', 'world'] as const;
/** Seeded worlds the sessions of one mock keep to start from, newest last: building one costs ~300 ms, copying one ~30 ms. */
const KEPT_WORLDS = 4;
/** The most rows a kept world holds: seven times the default world's. */
const KEPT_WORLD_ROWS = 25_000;

/** The mock of `options` (checked) over `built`, the world they describe (built here when not given), a step per row. */
function* makingMock(options: MockOptions, given?: World): Steps<MockApi> {
  const built = given ?? (yield* buildingWorldOf(options));
  const seed = options.seed ?? 1;
  const latency = options.latency ?? 0;
  const [minLatency, maxLatency] = typeof latency === 'number' ? [latency, latency] : latency;
  const failureLimit =
    typeof options.authFailureLimit === 'number'
      ? { failures: options.authFailureLimit, durationMs: SUSPENSION_MS }
      : options.authFailureLimit;
  // A snapshot is a real server's data: served under tokens every install knows, anyone could read it.
  const randomTokens = (options.tokens ?? (options.world === undefined ? 'seeded' : 'random')) === 'random';
  const pristine = randomTokens ? withRandomSecrets(built) : built;
  const time = createClock(options.now ?? Date.now);
  const faults = new FaultTable();
  // Secrets no token may take (the control API's admin token): the same set for every store.
  const reservedSecrets = new Set<string>();

  /** The seeded state, as `createMockApi` and each `reset()` start it, over `copy`, a copy of the pristine world. */
  const freshState = (copy: World): MockState => {
    const runtime = runtimeFaker(seed);
    return {
      store: new Store(copy, reservedSecrets),
      admission: new TokenAdmission(options.rateLimit, failureLimit),
      health: { ...HEALTHY },
      served: new Map(),
      journal: new Journal(pristine.secrets, options.journal?.limit ?? DEFAULT_JOURNAL_LIMIT, reservedSecrets),
      faults,
      now: () => time.clock.now(),
      latency: () => (minLatency === maxLatency ? minLatency : runtime.number.int({ min: minLatency, max: maxLatency })),
      newSecret: randomTokens ? randomTokenSecret : () => tokenSecret(runtime),
      newId: () => runtime.string.uuid(),
    };
  };
  let state = freshState(yield* copying(pristine));
  const current = () => state;

  // Set by the server of a session: a session's world grows only while its server has room.
  let mayGrow = (): void => undefined;
  const control = createActivity(current, seed, () => mayGrow());
  if (options.activity) control.activity.start(options.activity);

  const pipeline = createPipeline(current, { authErrorShape: options.authErrorShape ?? 'string' });
  const handlers = mswHandlersOf(pipeline);
  const mockFetch = mockFetchOf(pipeline);

  const api: MockApi = {
    handlers: Object.freeze(handlers),
    fetch: mockFetch,
    tokens: Object.freeze({ ...pristine.secrets }),
    get store() {
      return state.store;
    },
    seed,
    activity: control.activity,
    get requests() {
      return state.journal.rows();
    },
    setHealth(health) {
      checkArgument(HEALTH, health, 'health', 'setHealth(health)');
      // Only the switches given: a switch left `undefined` is one not given.
      const given = Object.entries(health).filter(([, value]) => value !== undefined);
      state.health = { ...state.health, ...Object.fromEntries(given) };
    },
    faults,
    clock: time.clock,
    setRateLimit(rateLimit) {
      checkArgument(RATE_LIMIT_OR_NONE, rateLimit, 'rateLimit', 'setRateLimit(rateLimit)');
      state.admission.setRateLimit(rateLimit ?? undefined);
    },
    reset() {
      runSteps(resetting());
    },
  };
  /** `reset()` in steps: the world is copied a slice at a time, and the state replaced at the end. */
  function* resetting(): Steps<void> {
    // A new state, not the old one emptied: a request still in flight keeps the old one, and
    // whatever it writes or journals there is gone with it.
    state = freshState(yield* copying(pristine));
    faults.clear();
    time.reset();
    control.reset();
  }
  // Hidden (a registered symbol, not enumerable): for the HTTP control plane of `mock/node` only.
  const keptWorlds = new Map<string, World>();
  /** The seeded world of `options`, built once for the sessions that ask for it again, a step per row. */
  function* keptWorld(options: MockOptions): Steps<World> {
    if (options.world !== undefined) return yield* buildingWorldOf(options);
    const key = JSON.stringify([options.seed ?? 1, options.counts ?? {}]);
    const world = keptWorlds.get(key) ?? (yield* buildingWorldOf(options));
    keptWorlds.delete(key);
    // A big world is built again rather than kept: four of the largest would hold ~200 MB no session counts.
    if (rowsOf(world) <= KEPT_WORLD_ROWS) keptWorlds.set(key, world);
    if (keptWorlds.size > KEPT_WORLDS) keptWorlds.delete(keptWorlds.keys().next().value!);
    return world;
  }
  const internals: MockInternals = {
    clearRequests: () => state.journal.clear(),
    answer: (incoming) => pipeline.answer(incoming),
    fetch: mockFetch,
    createRow: (table, partial) => tableAt(state.store, table).create(partial),
    reserveSecret: (secret) => void reservedSecrets.add(secret),
    spawn(overrides) {
      const ownWorld = WORLD_OPTIONS.some((name) => overrides[name] !== undefined);
      const inherited = Object.fromEntries(
        Object.entries(options).filter(([name]) => !(ownWorld && WORLD_OPTIONS.includes(name as never))),
      );
      const spawned = { ...inherited, ...overrides, tokens: 'random' } as MockOptions;
      checkMockOptions(spawned);
      return (function* spawning(): Steps<MockApi> {
        return yield* makingMock(spawned, ownWorld ? yield* keptWorld(spawned) : built);
      })();
    },
    reservedSecrets,
    resetInSlices: () => runInSlices(resetting()),
    stepInSlices: (n) => runInSlices(control.stepping(n)),
    limitGrowth(check) {
      mayGrow = check;
    },
  };
  Object.defineProperty(api, MOCK_INTERNALS, { value: internals });
  return api;
}
