/**
 * What a mock is made of (`createMockApi(options)`): the options every door takes the same, so a
 * session's options (`contract/sessions.ts`) are a part of them and not another statement.
 * @module
 */
import type { ActivityOptions, AuthFailureLimitOptions, RateLimitOptions } from './arguments';
import type { WorldCounts } from './counts';
import type { JournalOptions } from './journal';
import type { WorldSnapshot } from './snapshot';

/**
 * Options of {@link "community-server-sdk/mock"!createMockApi}. Every one has a default; an unknown option or a bad value
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
  /** Starts `mock.activity` at once, one event every `intervalMs` (see {@link "community-server-sdk/mock"!MockActivity}). Off by default. */
  activity?: ActivityOptions;
  /** How many rows `mock.requests` keeps: the newest `limit`, default {@link "community-server-sdk/mock"!DEFAULT_JOURNAL_LIMIT} (1000); `0` keeps none. */
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
 * The body of 401 and 403 answers: the spec allows both shapes (Part 7). `'string'` is
 * `{"error":"invalid or expired token"}`, as the live service usually answers; `'object'` is
 * `{"error":{"code":"invalid_token","message":"invalid or expired token"}}`.
 * @example
 * const mock = createMockApi({ authErrorShape: 'object' });
 */
export type AuthErrorShape = 'string' | 'object';

/** Each option of `createMockApi`, in the order a message lists them: one of each, or this does not compile. */
const OPTIONS_IN_ORDER: { readonly [Name in keyof MockOptions]-?: true } = {
  seed: true,
  latency: true,
  rateLimit: true,
  authFailureLimit: true,
  authErrorShape: true,
  counts: true,
  now: true,
  activity: true,
  world: true,
  tokens: true,
  journal: true,
};

/** The options of `createMockApi`: what lands where a mock goes when one is mistaken for the other. */
export const MOCK_OPTION_NAMES: readonly string[] = Object.keys(OPTIONS_IN_ORDER);
