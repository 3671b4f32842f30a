import type { MockHttpServer } from 'community-server-sdk/mock/node';
import { startMockServer } from './mock-server';

/** Jest's globalSetup: the run's mock server. Jest keeps nothing it returns, so the server waits on a global for jest-teardown.ts. */
export default async function globalSetup(): Promise<void> {
  (globalThis as { mockServer?: MockHttpServer }).mockServer = await startMockServer();
}
