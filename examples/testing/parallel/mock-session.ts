// mock-session.ts
import { CommunityServerClient, type ClientOptions } from 'community-server-sdk';
import { connectMock, type RemoteSession } from 'community-server-sdk/mock/remote';

/** The test runner's hooks (vitest's or Jest's): this file's session lives from its first test to its last. */
interface Hooks {
  beforeAll(run: () => Promise<void>): void;
  beforeEach(run: () => Promise<void>): void;
  afterAll(run: () => Promise<void>): void;
}

/**
 * A mock of this test file's own on the run's server (see mock-server.ts), and a client of it:
 * opened before the file's first test, reset before each, closed after its last. Whatever the
 * other files do with theirs at the same time, this one sees none of it.
 */
export function mockSessionPerFile(hooks: Hooks, options: ClientOptions = {}) {
  const file = {} as { session: RemoteSession; client: CommunityServerClient };
  hooks.beforeAll(async () => {
    file.session = await connectMock(process.env.MOCK_URL!, process.env.MOCK_ADMIN_TOKEN!).sessions.create();
    file.client = new CommunityServerClient({ maxRetries: 0, ...options, token: file.session.tokens.main, baseUrl: file.session.baseUrl });
  });
  hooks.beforeEach(() => file.session.mock.reset());
  hooks.afterAll(() => file.session.close());
  return file;
}
