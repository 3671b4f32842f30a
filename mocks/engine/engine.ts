/**
 * The engine of one mock: its world and state, the pipeline every request goes through, its
 * activity, clock and faults, and what each operation of the control API does to them. It is the
 * explicit handle every door serves a mock through: `createMockApi` wraps one in the public
 * `MockApi`, the HTTP server and its control plane take one, a session is one of its own.
 * @module
 */
import type { HealthState } from '../contract/arguments';
import type { MockOptions } from '../contract/options';
import type { MockRequest } from '../contract/journal';
import { DEFAULT_JOURNAL_LIMIT } from '../contract/journal';
import type { MockTokens } from '../contract/tokens';
import { createActivity, type ActivityControl } from './activity/index';
import { createPipeline, type Pipeline } from './api/pipeline';
import { TokenAdmission } from './auth';
import { createClock, type ClockControl } from './clock';
import { FaultTable } from './faults';
import { Journal } from './journal';
import { checkMockOptions, failureLimitOf, latencyRangeOf } from './options';
import { parseSnapshot } from './snapshot/parse';
import { worldFromSnapshot } from './snapshot/world';
import type { MockState } from './state';
import { copying, type Steps } from './steps';
import { Store } from './store/store';
import { buildingWorld, randomTokenSecret, rowsOf, runtimeFaker, tokenSecret, withRandomSecrets, type World } from './world';

/** The mock an engine is: what its doors, its operations and its sessions reach. */
export interface MockEngine {
  /** The seed the world was built from. */
  readonly seed: number;
  /** The five tokens' secrets. */
  readonly tokens: MockTokens;
  /** The state current now: a reset replaces it, a request keeps the one it arrived in. */
  readonly state: MockState;
  /** What answers each request, whichever door it came in by. */
  readonly pipeline: Pipeline;
  readonly time: ClockControl;
  readonly faults: FaultTable;
  readonly activity: ActivityControl;
  /** The journal's rows, oldest first (a copy). */
  readonly requests: readonly MockRequest[];
  /** The switches given, on top of the current ones (a switch left `undefined` is one not given). */
  setHealth(health: Partial<HealthState>): void;
  /** Back to the seeded state, a step per slice of the world's copy; the state is replaced at the end. */
  resetting(): Steps<void>;
  /** Refuses `secret` as any token's secret from now on, across resets (`store.tokens` writes throw `InvalidRowError`). */
  reserveSecret(secret: string): void;
  /** The secrets reserved so far: the admin token of each HTTP server of the mock (a live set). */
  readonly reservedSecrets: ReadonlySet<string>;
  /**
   * A new engine made as this one was, with `overrides` on top and fresh random token secrets (a
   * session's). Without `seed`, `counts` or `world` it serves this engine's own world, copied
   * rather than built again; with any of them, the world they alone describe. Bad overrides throw
   * `InvalidArgumentError` at once; the engine is made in steps, which the caller runs in slices
   * so the event loop stays free.
   */
  spawn(overrides: Readonly<Record<string, unknown>>): Steps<MockEngine>;
  /** `check` throws when the world may take no more rows: the activity calls it before each event (a timer's stops, a step fails). */
  limitGrowth(check: () => void): void;
}

const HEALTHY: HealthState = { database: true, cache: true, ready: true };

/** The options that shape a world: a session that gives none of them serves its root's world. */
const WORLD_OPTIONS = ['seed', 'counts', 'world'] as const;
/** Seeded worlds the sessions of one mock keep to start from, newest last: building one costs ~300 ms, copying one ~30 ms. */
const KEPT_WORLDS = 4;
/** The most rows a kept world holds: seven times the default world's. */
const KEPT_WORLD_ROWS = 25_000;

/** The world `options` describe, before any random secrets, a step per row: their seed's (sized by `counts`), or their snapshot's. */
function* buildingWorldOf(options: MockOptions): Steps<World> {
  return options.world === undefined
    ? yield* buildingWorld(options.seed ?? 1, options.counts)
    : worldFromSnapshot(parseSnapshot(options.world), options.seed ?? 1);
}

/** The engine of `options` (checked), a step per row. */
export function* makingEngine(options: MockOptions): Steps<MockEngine> {
  checkMockOptions(options);
  return yield* makingEngineOver(options);
}

/** The engine of `options` (checked) over `built`, the world they describe (built here when not given), a step per row. */
function* makingEngineOver(options: MockOptions, given?: World): Steps<MockEngine> {
  const built = given ?? (yield* buildingWorldOf(options));
  const seed = options.seed ?? 1;
  const [minLatency, maxLatency] = latencyRangeOf(options.latency);
  const failureLimit = failureLimitOf(options.authFailureLimit);
  // A snapshot is a real server's data: served under tokens every install knows, anyone could read it.
  const randomTokens = (options.tokens ?? (options.world === undefined ? 'seeded' : 'random')) === 'random';
  const pristine = randomTokens ? withRandomSecrets(built) : built;
  const time = createClock(options.now ?? Date.now);
  const faults = new FaultTable();
  // Secrets no token may take (the control API's admin token): the same set for every store.
  const reservedSecrets = new Set<string>();

  /** The seeded state, as the engine and each reset start it, over `copy`, a copy of the pristine world. */
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
  const activity = createActivity(current, seed, () => mayGrow());
  if (options.activity) activity.activity.start(options.activity);

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

  return {
    seed,
    tokens: Object.freeze({ ...pristine.secrets }),
    get state() {
      return state;
    },
    pipeline: createPipeline(current, { authErrorShape: options.authErrorShape ?? 'string' }),
    time,
    faults,
    activity,
    get requests() {
      return state.journal.rows();
    },
    setHealth(health) {
      // Only the switches given: a switch left `undefined` is one not given.
      const given = Object.entries(health).filter(([, value]) => value !== undefined);
      state.health = { ...state.health, ...Object.fromEntries(given) };
    },
    *resetting() {
      // A new state, not the old one emptied: a request still in flight keeps the old one, and
      // whatever it writes or journals there is gone with it.
      state = freshState(yield* copying(pristine));
      faults.clear();
      time.reset();
      activity.reset();
    },
    reserveSecret: (secret) => void reservedSecrets.add(secret),
    reservedSecrets,
    spawn(overrides) {
      const ownWorld = WORLD_OPTIONS.some((name) => overrides[name] !== undefined);
      const inherited = Object.fromEntries(
        Object.entries(options).filter(([name]) => !(ownWorld && WORLD_OPTIONS.includes(name as never))),
      );
      const spawned = { ...inherited, ...overrides, tokens: 'random' } as MockOptions;
      checkMockOptions(spawned);
      return (function* spawning(): Steps<MockEngine> {
        return yield* makingEngineOver(spawned, ownWorld ? yield* keptWorld(spawned) : built);
      })();
    },
    limitGrowth(check) {
      mayGrow = check;
    },
  };
}
