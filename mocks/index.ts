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
export { createMockApi, type MockApi } from './doors/mock-api';
export type {
  ActivityEntry,
  ActivityEvent,
  ActivityFailure,
  ActivityKind,
  ActivityRows,
  DepartmentActivityKind,
} from './contract/activity';
export type { ActivityOptions, AuthFailureLimitOptions, FaultRule, HealthState, RateLimitOptions } from './contract/arguments';
export type { MockActivity, MockClock, MockFaults } from './contract/in-process';
export type { JournalOptions, MockRequest, MockRequestToken } from './contract/journal';
export { DEFAULT_JOURNAL_LIMIT } from './contract/journal';
export type { AuthErrorShape, MockOptions, MockTokenSource } from './contract/options';
export type { ShiftRow } from './contract/rows';
export type { SnapshotAccountLink, SnapshotCad, SnapshotDepartment, WorldSnapshot } from './contract/snapshot';
export type { MockTokens } from './contract/tokens';
export type { WorldCounts } from './contract/counts';
export {
  Collection,
  InvalidRowError,
  type CollectionSpec,
  type PageRange,
  type SortDirection,
  type WriteOptions,
} from './engine/rows/collection';
export type { Sequence } from './engine/rows/sequence';
// Runtime exports, not only types: the declarations promise classes (`instanceof mock.store`).
export { CadStore, DepartmentStore, ServerStore, Store } from './engine/store/store';
export type { AccountLink, Permission, RoleRow, ServerRow, TokenRecord } from './engine/world';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './engine/api/paging';
export { DEFAULT_COUNTS, WORLD_END, WORLD_START } from './engine/world';
export type { ProgressStream } from './engine/snapshot/progress';
export { snapshotWorld, type SnapshotClient, type SnapshotOptions } from './engine/snapshot/take';
