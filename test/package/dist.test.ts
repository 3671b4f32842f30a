/**
 * The built package as users get it: the ESM and CommonJS files, each loaded by a fresh Node
 * process through the package's own `exports`, make a real call over loopback HTTP. (ky is
 * ESM-only, so a CommonJS build that merely `require`s it would pass type checks and fail here.)
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  if (!existsSync(`${root}/dist/index.cjs`)) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  server = createServer((request, response) => {
    const ok = request.headers.authorization === 'Bearer dist-token';
    const body =
      request.url === '/api/v1/server/members/m%201'
        ? { id: 'm 1', serverId: 's', roles: [], createdAt: 1763596800 }
        : { error: { code: 'not_found', message: `no route ${request.url}` } };
    response.writeHead(ok ? (request.url?.includes('m%201') ? 200 : 404) : 401, { 'content-type': 'application/json' });
    response.end(JSON.stringify(ok ? body : { error: 'invalid or expired token' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const script = (load: string) => `
  ${load}
  const client = new sdk.CommunityServerClient({ token: 'dist-token', baseUrl: process.argv[1] });
  const member = await client.members.get('m 1');
  const error = await client.members.get('nobody').catch((e) => e);
  const parsed = schemas.MemberSchema.safeParse(member).success;
  console.log(JSON.stringify({ id: member.id, parsed, notFound: error instanceof sdk.NotFoundError, status: error.status }));
`;

describe('the built package', () => {
  it.each([
    [
      'ESM (import)',
      '--input-type=module',
      `const sdk = await import('community-server-sdk'); const schemas = await import('community-server-sdk/schemas');`,
    ],
    [
      'CommonJS (require)',
      '--input-type=commonjs',
      `(async () => { const sdk = require('community-server-sdk'); const schemas = require('community-server-sdk/schemas');`,
    ],
  ])('%s makes a real call', async (_, inputType, load) => {
    const source = inputType.endsWith('commonjs')
      ? `${script(load)} })().catch((e) => { console.error(e); process.exit(1); });`
      : script(load);
    const { stdout } = await run(process.execPath, [inputType, '-e', source, baseUrl], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({ id: 'm 1', parsed: true, notFound: true, status: 404 });
  });

  const mockScript = (load: string) => `
    ${load}
    const mock = mocks.createMockApi({ seed: 4 });
    const http = await doors.startMockHttpServer({ mock });
    const overHttp = await new sdk.CommunityServerClient({ token: mock.tokens.main, baseUrl: http.url }).members.list();
    const inProcess = await new sdk.CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://x.test', fetch: mock.fetch }).members.list();
    // A network fault over HTTP drops the connection, whichever build serves it (each bundles mock and mock/node apart).
    mock.faults.add({ endpoint: 'members.list', network: true, times: 1 });
    const dropped = await fetch(http.url + '/api/v1/server/members', { headers: { authorization: 'Bearer ' + mock.tokens.main } })
      .then((response) => response.status, (error) => error instanceof TypeError);
    await http.close();
    // A bad option is the SDK's InvalidArgumentError, recognised from the entry users import it from.
    let refused;
    try { mocks.createMockApi({ sed: 1 }); } catch (error) { refused = error; }
    mock.faults.add({ endpoint: 'members.list', status: 503, times: 1 });
    const faulted = await new sdk.CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://x.test', fetch: mock.fetch, maxRetries: 0 }).members.list().catch((e) => e);
    console.log(JSON.stringify({
      http: overHttp.total,
      fetch: inProcess.total,
      page: overHttp instanceof sdk.Page,
      refused: [refused instanceof sdk.InvalidArgumentError, refused.name],
      faulted: faulted instanceof sdk.ServiceUnavailableError,
      dropped,
    }));
  `;

  it.each([
    [
      'ESM (import)',
      '--input-type=module',
      `const sdk = await import('community-server-sdk'); const mocks = await import('community-server-sdk/mock'); const doors = await import('community-server-sdk/mock/node');`,
    ],
    [
      'CommonJS (require)',
      '--input-type=commonjs',
      `(async () => { const sdk = require('community-server-sdk'); const mocks = require('community-server-sdk/mock'); const doors = require('community-server-sdk/mock/node');`,
    ],
  ])('the mock, %s, serves the built client in-process and over HTTP', async (_, inputType, load) => {
    const source = inputType.endsWith('commonjs')
      ? `${mockScript(load)} })().catch((e) => { console.error(e); process.exit(1); });`
      : mockScript(load);
    const { stdout } = await run(process.execPath, [inputType, '-e', source], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({
      http: 250,
      fetch: 250,
      page: true,
      refused: [true, 'InvalidArgumentError'],
      faulted: true,
      dropped: true,
    });
  });

  it("issue 10 item 6: the ESM and CommonJS builds loaded side by side recognise each other's errors and pages", async () => {
    const source = `
      import { createRequire } from 'node:module';
      const esm = await import('community-server-sdk');
      const cjs = createRequire(process.cwd() + '/package.json')('community-server-sdk');
      if (esm.NotFoundError === cjs.NotFoundError) throw new Error('one build only: the test would prove nothing');
      const init = { status: 404, code: 'x', message: 'x', details: undefined, headers: {}, method: 'GET', path: '/' };
      const is = (value, Class) => value instanceof Class;
      class MyNotFound extends esm.NotFoundError {}
      const fetch = async () => new Response(JSON.stringify({ data: [], page: 1, pageSize: 10, total: 0, totalPages: 0 }));
      const listing = new cjs.CommunityServerClient({ token: 't_dual_build', baseUrl: 'https://x.test', fetch }).members.list();
      const page = await listing;
      const results = {};
      for (const [name, from, to] of [['cjs→esm', cjs, esm], ['esm→cjs', esm, cjs]]) {
        const notFound = new from.NotFoundError(init);
        const unavailable = new from.ServiceUnavailableError({ ...init, status: 503 });
        results[name] = {
          notFound: [is(notFound, to.NotFoundError), is(notFound, to.ApiError), is(notFound, to.CommunityServerError), is(notFound, Error)],
          notOthers: [is(notFound, to.RateLimitError), is(notFound, to.InternalServerError), is(notFound, to.InvalidArgumentError), is(new from.ApiError(init), to.NotFoundError)],
          subclass: [is(unavailable, to.InternalServerError), is(unavailable, to.ServiceUnavailableError), is(new from.InternalServerError(init), to.ServiceUnavailableError)],
          invalid: is(new from.InvalidArgumentError('x'), to.CommunityServerError),
        };
      }
      console.log(JSON.stringify({
        ...results,
        page: [is(page, esm.Page), is(listing, esm.PagePromise), is(listing, esm.APIPromise), is(page, esm.PagePromise)],
        plain: [is(new Error('x'), esm.CommunityServerError), is({}, esm.Page), is(null, esm.Page), is(Promise.resolve(), esm.APIPromise)],
        userSubclass: [is(new MyNotFound(init), MyNotFound), is(new MyNotFound(init), cjs.NotFoundError), is(new cjs.NotFoundError(init), MyNotFound), is(new esm.NotFoundError(init), MyNotFound)],
      }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', source], { cwd: root });
    const both = {
      notFound: [true, true, true, true],
      notOthers: [false, false, false, false],
      subclass: [true, true, false],
      invalid: true,
    };
    expect(JSON.parse(stdout)).toEqual({
      'cjs→esm': both,
      'esm→cjs': both,
      page: [true, true, true, false],
      plain: [false, false, false, false],
      userSubclass: [true, true, false, false], // a class of yours keeps plain instanceof
    });
  });

  it('the CommonJS build carries ky inside rather than requiring it', () => {
    const cjs = readFileSync(`${root}/dist/index.cjs`, 'utf8');
    expect(cjs).not.toMatch(/require\(["']ky["']\)/);
    expect(cjs).toMatch(/require\(["']zod\/mini["']\)/);
  });

  it('npm pack ships what users need and nothing else', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root });
    const [{ files }] = JSON.parse(stdout) as [{ files: { path: string }[] }];
    const paths = files.map((f) => f.path);
    expect(paths.filter((p) => !p.startsWith('dist/')).sort()).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'openapi.json',
      'package.json',
    ]);
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
      exports: Record<string, unknown>;
      bin: Record<string, string>;
    };
    // Every file an export or the bin points at is in the tarball.
    const targetsOf = (entry: unknown): string[] =>
      typeof entry === 'string' ? [entry] : Object.values(entry as object).flatMap(targetsOf);
    const targets = [...targetsOf(pkg.exports), ...Object.values(pkg.bin)].map((t) => t.replace(/^\.\//, ''));
    expect(targets.length).toBeGreaterThan(20);
    for (const target of new Set(targets)) expect(paths, target).toContain(target);
  });
});
