/**
 * The names of `createMockApi`'s options, in a leaf of their own: `createMockApi` checks its
 * options against them, and the doors tell a mock from options meant for one by them.
 * @module
 */

/** The options of `createMockApi`: what lands where a mock goes when one is mistaken for the other. */
export const MOCK_OPTION_NAMES: readonly string[] = [
  'seed',
  'latency',
  'rateLimit',
  'authFailureLimit',
  'authErrorShape',
  'counts',
  'now',
  'activity',
  'world',
  'tokens',
  'journal',
];
