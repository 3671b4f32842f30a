/**
 * What the HTTP control plane (`/__mock/*`) needs of a mock beyond its public surface, reached
 * through a registered symbol: the CommonJS build bundles `mock` and `mock/node` apart, so a
 * module-local symbol or class of one copy would not be known to the other.
 * @module
 */
import type { Incoming } from '../pipeline';
import type { Answer } from '../replies';
import type { ActivityEvent } from '../activity/types';

/** The key of a mock's internals; the same in every copy of the package. */
export const MOCK_INTERNALS: unique symbol = Symbol.for('community-server-sdk/mock.internals');

/** The operations the control plane needs and the public surface does not offer. */
export interface MockInternals {
  /**
   * The answer to an API request read by a door of its own (the HTTP server): the pipeline
   * `mock.fetch` and msw's handlers go through, without a `Request` or a `Response` between.
   */
  answer(incoming: Incoming): Promise<Answer>;
  /** The mock's own `fetch`: where `mock.fetch` is another (a wrapper), the HTTP server goes through that. */
  readonly fetch: typeof globalThis.fetch;
  /** Empties `mock.requests` alone (`DELETE /__mock/requests`), as `reset()` does among everything else. */
  clearRequests(): void;
  /**
   * Creates a row in the table at a dotted path (`main.logs`, `main.cad.calls`, `tokens`), as
   * `table.create(partial)`: a 404 `table_not_found` when there is none.
   */
  createRow(table: string, partial: Record<string, unknown>): object;
  /** Refuses `secret` as any token's secret from now on, across resets (`store.tokens` writes throw `InvalidRowError`). */
  reserveSecret(secret: string): void;
  /**
   * A new mock made as this one was, by this copy of the package, with `overrides` on top and
   * fresh random token secrets (a session's mock). Without `seed`, `counts` or `world` it serves
   * this mock's own world, copied rather than built again; with any of them, the world they
   * alone describe. Bad overrides throw `InvalidArgumentError` at once; the mock is made in
   * steps (`steps.ts`), which the caller runs in slices so the event loop stays free.
   */
  spawn(overrides: Readonly<Record<string, unknown>>): Generator<void, object, void>;
  /** The secrets reserved so far: the admin token of each HTTP server of the mock (a live set). */
  readonly reservedSecrets: ReadonlySet<string>;
  /** `mock.reset()` in slices (`steps.ts`), for the control API: a big world's copy holds up no other request. */
  resetInSlices(): Promise<void>;
  /** `mock.activity.step(n)` in slices (`n` checked already), for the control API: 10,000 events hold up no other request. */
  stepInSlices(n: number): Promise<ActivityEvent[]>;
  /** `check` throws when the world may take no more rows: the activity calls it before each event (a timer's stops, a step fails). */
  limitGrowth(check: () => void): void;
}

/** The internals of `mock`; a mock from an older copy of the package has none, which is said plainly. */
// `object`, not `MockApi`: this module is imported by the one that defines MockApi.
export function internalsOf(mock: object): MockInternals {
  const internals = (mock as Partial<Record<typeof MOCK_INTERNALS, MockInternals>>)[MOCK_INTERNALS];
  if (!internals) throw new TypeError('this mock was made by another version of community-server-sdk: its control plane is unavailable');
  return internals;
}
