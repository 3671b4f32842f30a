/**
 * The mock in-process: `createMockApi` makes an engine (`engine/engine.ts`) and puts the doors
 * that need no server in front of it: msw's handlers and `mock.fetch` (`handlers.ts`), and the
 * calls of the control API's table in-process (`mock.faults.add`, `mock.reset`…), each checked
 * as the table says. The engine stays the mock's handle: the doors that serve a mock (the HTTP
 * server, its sessions and control plane) take it from {@link engineOf}.
 * @module
 */
import type { HttpHandler } from 'msw';
import { checkCall } from '../contract/calls';
import type { InProcessCalls, MockActivity, MockClock, MockFaults } from '../contract/in-process';
import type { MockRequest } from '../contract/journal';
import { deriveCalls, entryAt, type ControlApi } from '../contract/operations';
import type { MockOptions } from '../contract/options';
import type { MockTokens } from '../contract/tokens';
import { makingEngine, type MockEngine } from '../engine/engine';
import { atOnce, engineRuns, type EngineApi } from '../engine/operations';
import { runSteps } from '../engine/steps';
import type { Store } from '../engine/store/store';
import { mockFetchOf, mswHandlersOf } from './handlers';

/**
 * The mock of the whole API: what {@link createMockApi} returns.
 * @example
 * const mock = createMockApi({ seed: 1 });
 * const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://community.test', fetch: mock.fetch });
 * await client.members.list(); // page 1 of mock.store.main.members, newest first
 * mock.setHealth({ database: false }); // /health and /readyz now answer 503
 * mock.reset(); // back to the seeded state
 */
export interface MockApi extends InProcessCalls<Pick<ControlApi, 'reset' | 'setHealth' | 'setRateLimit'>> {
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
   * the connection, or come late (see {@link "community-server-sdk/mock"!FaultRule}). `reset()` clears them.
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
}

/**
 * Where a mock keeps its engine, and the `fetch` it was made with (a door serves a wrapper of it
 * through the wrapper). Registered, not module-local: the CommonJS build bundles `mock` and
 * `mock/node` apart, and a mock made by one is served by the other.
 */
const ENGINE: unique symbol = Symbol.for('community-server-sdk/mock.engine');

/** What a mock is served by: its engine, and its own `fetch`. */
export interface MockHandle {
  readonly engine: MockEngine;
  readonly fetch: typeof globalThis.fetch;
}

/** Whether `value` is a mock of this package: `createMockApi`'s, or an object whose prototype is one (a wrapped `fetch`). */
export const isMock = (value: unknown): value is MockApi => typeof value === 'object' && value !== null && ENGINE in value;

/** The handle of `mock`; a mock from another copy of the package has none, which is said plainly. */
export function engineOf(mock: MockApi): MockHandle {
  const handle = (mock as Partial<Record<typeof ENGINE, MockHandle>>)[ENGINE];
  if (!handle) throw new TypeError('this mock was made by another version of community-server-sdk: its control plane is unavailable');
  return handle;
}

/** The calls of the control API's table that `runs` does, in-process: each checked as its line says, its steps run at once. */
function inProcess(runs: object): InProcessCalls<EngineApi> {
  return deriveCalls((name, operation) => {
    const run = entryAt(runs, name) as ((...args: unknown[]) => unknown) | undefined;
    return (
      run &&
      ((...args: unknown[]) => {
        checkCall(name, operation, args);
        return atOnce(run(...args));
      })
    );
  }) as unknown as InProcessCalls<EngineApi>;
}

/**
 * Builds a mock of the whole API over a seeded world, or over a snapshot of a real server (`world`).
 * @example
 * const mock = createMockApi({ seed: 7, latency: [5, 20], rateLimit: { limit: 100, windowMs: 60_000 } });
 */
export function createMockApi(options: MockOptions = {}): MockApi {
  const engine = runSteps(makingEngine(options));
  const calls = inProcess(engineRuns(engine));
  const { activity } = engine.activity;
  const fetch = mockFetchOf(engine.pipeline);
  const api: MockApi = {
    handlers: Object.freeze(mswHandlersOf(engine.pipeline)),
    fetch,
    tokens: engine.tokens,
    get store() {
      return engine.state.store;
    },
    seed: engine.seed,
    activity: {
      step: calls.activity.step,
      start: calls.activity.start,
      stop: calls.activity.stop,
      get running() {
        return activity.running;
      },
      get failure() {
        return activity.failure;
      },
    },
    get requests() {
      return engine.requests;
    },
    setHealth: calls.setHealth,
    faults: calls.faults,
    clock: { now: () => engine.time.clock.now(), advance: calls.clock.advance },
    setRateLimit: calls.setRateLimit,
    reset: calls.reset,
  };
  // Hidden (not enumerable): `{ ...mock }` is no mock a door serves, `Object.create(mock, …)` is.
  Object.defineProperty(api, ENGINE, { value: { engine, fetch } satisfies MockHandle });
  return api;
}
