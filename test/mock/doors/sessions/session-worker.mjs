/**
 * One worker of a parallel test suite, as its own process (the way Playwright, vitest or
 * pytest-xdist run them), for sessions-bin.test.ts: it opens a session on the bin at argv[2] with
 * the root admin token argv[3], changes it in the way of worker argv[4] (0: a fault, 1: a clock
 * advance, 2: a health switch, 3: a rate limit), hammers it through the built SDK, and prints one
 * JSON line: its session, the status of each call, and its journal as the session read it.
 */
import { CommunityServerClient } from '../../../../dist/index.js';
import { connectMock } from '../../../../dist/mock/remote.js';

const [url, adminToken, which] = process.argv.slice(2);
const index = Number(which);
const session = await connectMock(url, adminToken).sessions.create();
const client = new CommunityServerClient({ token: session.tokens.main, baseUrl: session.baseUrl, maxRetries: 0, rateLimit: 'off' });
const changes = [
  () => session.mock.faults.add({ endpoint: 'roles.list', status: 503 }),
  () => session.mock.clock.advance(3_600_000),
  () => session.mock.setHealth({ database: false }),
  () => session.mock.setRateLimit({ limit: 5, windowMs: 60_000 }),
];
await changes[index]();
await session.mock.store('main.members').create({ username: `worker-${index}` });

const statuses = [];
for (let round = 0; round < 20; round++) {
  for (const call of [() => client.roles.list(), () => client.members.list({ pageSize: 2 }), () => client.health.check()]) {
    statuses.push(
      await call().then(
        () => 200,
        (error) => error.status ?? 0,
      ),
    );
  }
}
const journal = (await session.mock.requests()).map((row) => ({
  endpoint: row.endpoint,
  token: row.token,
  status: row.status,
  at: row.at,
}));
console.log(JSON.stringify({ index, baseUrl: session.baseUrl, tokens: session.tokens, statuses, journal }));
