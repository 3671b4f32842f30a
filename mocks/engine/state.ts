/**
 * The mock's live state between two resets, which `reset()` replaces whole: the one thing the
 * pipeline, the routes, the activity and the control operations read and write.
 * @module
 */
import type { HealthState } from '../contract/arguments';
import type { TokenAdmission } from './auth';
import type { FaultTable } from './faults';
import type { Journal } from './journal';
import type { Store } from './store/store';

/**
 * The mock's live state between two resets: `mock.reset()` replaces it whole. A request keeps the
 * state it arrived in to the end, so one in flight across a reset finishes in the old state,
 * writes into the old store and the old journal, and changes nothing of the new one.
 */
export interface MockState {
  readonly store: Store;
  /** Rate limit, authentication and permissions of the API's requests. */
  readonly admission: TokenAdmission;
  health: HealthState;
  /** Requests answered, by status, since the last reset (served by `/metrics`). */
  readonly served: Map<number, number>;
  /** Every request answered, for `mock.requests`. */
  readonly journal: Journal;
  /** The faults `mock.faults` adds, taken by the pipeline before anything else answers; they outlive a reset (which clears them). */
  readonly faults: FaultTable;
  /** Milliseconds since the epoch on the mock's clock (`mock.clock.now`): the `now` option plus what `advance` added. */
  readonly now: () => number;
  /** Milliseconds the next answer waits: the `latency` option, drawn per request from the seeded stream. */
  latency(): number;
  /** A fresh token secret from the mock's seeded stream. */
  newSecret(): string;
  newId(): string;
}
