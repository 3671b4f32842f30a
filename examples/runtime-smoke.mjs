/**
 * A smoke test of the BUILT package (dist/) on any JavaScript runtime: Node, Bun, Deno.
 *
 *   node examples/runtime-smoke.mjs
 *   bun examples/runtime-smoke.mjs
 *   deno run --allow-read --allow-env examples/runtime-smoke.mjs
 *
 * It imports the package by its public name (each runtime resolves it to dist/ through the
 * `exports` of this folder's package.json), drives the SDK against the in-process mock, prints a
 * one-line JSON summary and exits non-zero on any mismatch. Plain JavaScript, so no runtime's
 * TypeScript handling is under test here.
 */
import { AuthenticationError, CommunityServerClient, NotFoundError } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';

const mock = createMockApi({ seed: 1 });
let requests = 0;
// Counts the requests, to show the `for await` below really walked several pages.
const fetch = (input, init) => (requests++, mock.fetch(input, init));
const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://community.test', fetch });
const failures = [];
const check = (what, ok) => ok || failures.push(what);

const info = await client.server.info();
check('server.info() names the seeded server', info.name === mock.store.main.info.name);

const expected = mock.store.main.members.size;
const pageSize = 25;
requests = 0;
const ids = [];
for await (const member of client.members.list({ pageSize })) ids.push(member.id);
const pages = requests;
const members = new Set(ids).size;
check('for await yields every member once', ids.length === expected && members === expected);
check('for await fetched page after page', pages === Math.ceil(expected / pageSize));

const all = await client.members.list({ pageSize }).toArray({ concurrency: 4 });
check('toArray({ concurrency: 4 }) returns every member once, in order', all.map((m) => m.id).join() === ids.join());

const member = await client.members.get(all[0].id);
check('get() returns the member asked for', member.id === all[0].id);

const notFound = await client.members.get('no-such-member').catch((error) => error);
check('a missing member is a NotFoundError', notFound instanceof NotFoundError && notFound.status === 404);

const created = await client.tokens.create({ name: 'runtime smoke', expiresInDays: 1 });
const helper = new CommunityServerClient({ token: String(created.token), baseUrl: 'https://community.test', fetch: mock.fetch });
const before = (await helper.tokens.current()).name;
await client.tokens.deactivate(String(created.id));
const after = await helper.members.list().catch((error) => error);
check('a created token works', before === 'runtime smoke');
check('a deactivated token gets an AuthenticationError', after instanceof AuthenticationError && after.status === 401);

const runtime = globalThis.Deno ? `deno ${Deno.version.deno}` : globalThis.Bun ? `bun ${Bun.version}` : `node ${process.versions.node}`;
console.log(
  JSON.stringify({
    runtime,
    server: info.name,
    members,
    pages,
    toArray: all.length,
    notFound: notFound.status,
    tokenRevoked: after.status,
    failures,
  }),
);
// Exit explicitly: on Deno the process would otherwise never end, because msw opens a
// BroadcastChannel when imported and only Node's can be unref'ed.
process.exit(failures.length > 0 ? 1 : 0);
