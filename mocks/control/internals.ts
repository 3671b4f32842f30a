/**
 * What the HTTP control plane (`/__mock/*`) needs of a mock beyond its public surface, reached
 * through a registered symbol: the CommonJS build bundles `mock` and `mock/node` apart, so a
 * module-local symbol or class of one copy would not be known to the other.
 * @module
 */
/** The key of a mock's internals; the same in every copy of the package. */
export const MOCK_INTERNALS: unique symbol = Symbol.for('community-server-sdk/mock.internals');

/** The operations the control plane needs and the public surface does not offer. */
export interface MockInternals {
  /** Empties `mock.requests` alone (`DELETE /__mock/requests`), as `reset()` does among everything else. */
  clearRequests(): void;
  /** Refuses `secret` as any token's secret from now on, across resets (`store.tokens` writes throw `InvalidRowError`). */
  reserveSecret(secret: string): void;
  /** The secrets reserved so far: the admin token of each HTTP server of the mock (a live set). */
  readonly reservedSecrets: ReadonlySet<string>;
}

/** The internals of `mock`; a mock from an older copy of the package has none, which is said plainly. */
// `object`, not `MockApi`: this module is imported by the one that defines MockApi.
export function internalsOf(mock: object): MockInternals {
  const internals = (mock as Partial<Record<typeof MOCK_INTERNALS, MockInternals>>)[MOCK_INTERNALS];
  if (!internals) throw new TypeError('this mock was made by another version of community-server-sdk: its control plane is unavailable');
  return internals;
}
