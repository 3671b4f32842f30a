/**
 * The check of a mock passed to a door (`setupMockServer`, `startMockHttpServer`,
 * `setupMockWorker`): a mock of this package, or an `InvalidArgumentError` that says what to pass
 * instead of the bare `TypeError` reading `handlers` or `tokens` of something else would throw
 * from deep inside.
 * @module
 */
import { isPlainObject, kindOf } from '../../src/core/arguments';
import { InvalidArgumentError } from '../../src/core/errors';
import { MOCK_OPTION_NAMES } from '../contract/options';
import { isMock, type MockApi } from './mock-api';

/** What `value`, which is no mock, is, in words that point at the mistake. */
function whatInstead(value: unknown): string {
  if (!isPlainObject(value)) return kindOf(value);
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((key) => MOCK_OPTION_NAMES.includes(key))) {
    return `options of createMockApi (${keys.join(', ')}): pass them to createMockApi and its mock here`;
  }
  if (isMock(value.mock)) return 'an object holding a mock: pass the mock itself';
  // `{ ...mock }` copies the fields but not the hidden internals the doors serve a mock through.
  if ('handlers' in value && 'tokens' in value) {
    return 'a copy of a mock ({ ...mock } loses what serving needs; to wrap its fetch, use Object.create(mock, { fetch: { value: wrapped } }))';
  }
  return 'an object that is no mock';
}

/** `value` as a mock, or an `InvalidArgumentError`: `call` names the argument (`setupMockServer(mock)`), `example` shows a right one. */
export function requireMock(value: unknown, call: string, example: string): MockApi {
  if (isMock(value)) return value;
  throw new InvalidArgumentError(`${call}: pass a mock from createMockApi(), e.g. ${example}; got ${whatInstead(value)}`);
}
