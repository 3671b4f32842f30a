import type { MockHttpServer } from 'community-server-sdk/mock/node';

/** Jest's globalTeardown, in the process of its globalSetup (and so with its globals): stops the server once every test file has run. */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { mockServer?: MockHttpServer }).mockServer?.close();
}
