// global-setup.ts
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';

/** Once per run, before any worker starts: the mock's server, on a free port. Workers inherit what it sets in the environment. */
export default async function globalSetup() {
  const server = await startMockHttpServer({ mock: createMockApi({ seed: 1 }) });
  process.env.MOCK_URL = server.url;
  process.env.MOCK_ADMIN_TOKEN = server.adminToken;
  return () => server.close();
}
