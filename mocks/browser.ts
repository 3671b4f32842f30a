/**
 * `community-server-sdk/mock/browser`: the mock in a browser, through msw's service worker.
 * Serve msw's worker script (`npx msw init <public dir>`) and start it before the client's first
 * request.
 * @example
 * import { createMockApi } from 'community-server-sdk/mock';
 * import { setupMockWorker } from 'community-server-sdk/mock/browser';
 *
 * const mock = createMockApi({ seed: 1 });
 * await setupMockWorker(mock).start({ onUnhandledRequest: 'bypass' });
 * const client = new CommunityServerClient({ token: mock.tokens.main }); // baseUrl "/": the page's origin
 * @module community-server-sdk/mock/browser
 */
import { setupWorker, type SetupWorker } from 'msw/browser';
import type { MockApi } from './index';
import { requireMock } from './doors/mock-argument';

/**
 * An msw/browser worker answering with the mock's handlers, on any origin.
 * @example
 * const worker = setupMockWorker(createMockApi({ seed: 1 }));
 * await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
 */
export function setupMockWorker(mock: MockApi): SetupWorker {
  return setupWorker(...requireMock(mock, 'setupMockWorker(mock)', 'setupMockWorker(createMockApi({ seed: 1 }))').handlers);
}
