// mock-server.ts
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';

/** One mock server for the whole run, on a free port. Test files read where it is from the environment, which their workers inherit. */
export async function startMockServer(): Promise<MockHttpServer> {
  const server = await startMockHttpServer({ mock: createMockApi({ seed: 1 }) });
  process.env.MOCK_URL = server.url;
  process.env.MOCK_ADMIN_TOKEN = server.adminToken;
  return server;
}

/** vitest's globalSetup (`globalSetup: ['./mock-server.ts']`): the server, stopped after the last test file. */
export default async function setup(): Promise<() => Promise<void>> {
  const server = await startMockServer();
  return () => server.close();
}
