/**
 * The doors into the same mock: msw/node interception, real HTTP on loopback, and the bin.
 * The bin and the import checks use the built package (`npm test` builds first).
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { CommunityServerClient, ConnectionError, InternalServerError, InvalidArgumentError } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { setupMockServer, startMockHttpServer } from 'community-server-sdk/mock/node';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockClient, rawRequest } from '../../helpers';
import { startBin } from './cli/bin';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('setupMockServer (msw/node)', () => {
  const mock = createMockApi({ seed: 2 });
  const server = setupMockServer(mock);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    mock.reset();
  });
  afterAll(() => server.close());

  it('answers the SDK’s own fetch on any origin', async () => {
    for (const baseUrl of ['https://api.example.com', 'http://localhost:9999', 'https://example.org/']) {
      const client = mockClient(mock, { baseUrl, maxRetries: undefined });
      const page = await client.members.list();
      expect(page.total).toBe(mock.store.main.members.size);
    }
  });

  it('server.use overrides one request for one test', async () => {
    server.use(
      http.get('*/api/v1/server/members', () => HttpResponse.json({ error: { code: 'boom', message: 'it broke' } }, { status: 500 })),
    );
    const client = mockClient(mock, { baseUrl: 'https://api.example.com' });
    await expect(client.members.list()).rejects.toBeInstanceOf(InternalServerError);
    expect((await client.roles.list()).total).toBeGreaterThan(0);
  });

  it('a broken percent-encoding is a 400 here too, not an msw crash', async () => {
    const response = await rawRequest(mock, '/api/v1/server/members/%E0%A4%A', { baseUrl: 'https://api.example.com' });
    expect(response.status).toBe(400);
  });
});

describe('startMockHttpServer (node:http on loopback)', () => {
  const mock = createMockApi({ seed: 2 });
  let server: Awaited<ReturnType<typeof startMockHttpServer>>;
  beforeAll(async () => {
    server = await startMockHttpServer({ mock, port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server.close());

  it('serves the API on a free port, headers and status intact', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await rawRequest(mock, '/api/v1/server/members?pageSize=3', { baseUrl: server.url });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect((await response.json()).data).toHaveLength(3);
    const missing = await rawRequest(mock, '/api/v1/server/members/nope', { baseUrl: server.url });
    expect(missing.status).toBe(404);
  });

  it('answers CORS preflights, so a dashboard on another origin may call it', async () => {
    const preflight = await fetch(`${server.url}/api/v1/server/members`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const answer = await fetch(`${server.url}/livez`, { headers: { origin: 'http://localhost:5173' } });
    expect(answer.headers.get('access-control-expose-headers')).toContain('retry-after');
  });

  it('passes POST bodies through, and refuses oversized ones with 413', async () => {
    const created = await rawRequest(mock, '/api/v1/tokens', { method: 'POST', json: { name: 'over http' }, baseUrl: server.url });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'over http' });
    const huge = await rawRequest(mock, '/api/v1/tokens', { method: 'POST', body: 'x'.repeat(2 << 20), baseUrl: server.url });
    expect(huge.status).toBe(413);
  });

  it('close() stops it; the SDK then reports a ConnectionError', async () => {
    const other = await startMockHttpServer({ mock });
    const client = mockClient(mock, { baseUrl: other.url });
    expect((await client.roles.list()).total).toBeGreaterThan(0);
    await other.close();
    await expect(client.roles.list()).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe('what the doors take (issue 30 item 13)', () => {
  it('startMockHttpServer() serves a default seeded mock, reachable as http.mock', async () => {
    const server = await startMockHttpServer();
    try {
      expect(server.mock.seed).toBe(1);
      expect(server.mock.tokens).toEqual(createMockApi().tokens);
      const client = new CommunityServerClient({ token: server.mock.tokens.main, baseUrl: server.url });
      expect((await client.members.list()).total).toBe(server.mock.store.main.members.size);
    } finally {
      await server.close();
    }
  });

  it('startMockHttpServer(mock) serves that mock, as { mock } does; a wrapped mock (Object.create) too', async () => {
    const mock = createMockApi({ seed: 4 });
    for (const given of [mock, Object.create(mock) as typeof mock]) {
      const server = await startMockHttpServer(given);
      try {
        expect(server.mock).toBe(given);
        const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: server.url });
        expect((await client.server.info()).id).toBe(mock.store.main.info.id);
      } finally {
        await server.close();
      }
    }
  });

  it.each([
    [
      { seed: 1 },
      'startMockHttpServer: seed is an option of the mock, not of the server: startMockHttpServer({ mock: createMockApi({ seed: … }) })',
    ],
    [
      { mock: 5 },
      'startMockHttpServer: mock: pass a mock from createMockApi(), e.g. startMockHttpServer({ mock: createMockApi({ seed: 1 }) }); got a number',
    ],
    [
      { mock: { seed: 1 } },
      'startMockHttpServer: mock: pass a mock from createMockApi(), e.g. startMockHttpServer({ mock: createMockApi({ seed: 1 }) }); got options of createMockApi (seed): pass them to createMockApi and its mock here',
    ],
    [{ prot: 4010 }, 'unknown startMockHttpServer option "prot" (known: mock, port, host, adminToken, maxSessions, maxSessionRows)'],
    [{ port: -1 }, 'startMockHttpServer: port must be an integer from 0 (any free port) to 65535, got -1'],
    [{ port: '4010' }, 'startMockHttpServer: port must be an integer from 0 (any free port) to 65535, got "4010"'],
    [{ host: 5 }, 'startMockHttpServer: host must be a host name or address such as "127.0.0.1", got 5'],
    [
      5,
      'startMockHttpServer: pass { mock, port, host, adminToken, maxSessions, maxSessionRows } (each optional) or a mock from createMockApi(), got a number',
    ],
    [
      null,
      'startMockHttpServer: pass { mock, port, host, adminToken, maxSessions, maxSessionRows } (each optional) or a mock from createMockApi(), got null',
    ],
  ])('startMockHttpServer(%j) throws InvalidArgumentError saying what to pass', async (given, message) => {
    await expect(startMockHttpServer(given as never)).rejects.toThrow(new InvalidArgumentError(message));
  });

  it('a spread copy of a mock is refused with the way to wrap one', async () => {
    const mock = createMockApi();
    await expect(startMockHttpServer({ mock: { ...mock } })).rejects.toThrow(/a copy of a mock .*Object\.create\(mock/);
  });

  it.each([
    ['nothing', undefined, 'got undefined'],
    ['{ seed: 1 }', { seed: 1 }, 'got options of createMockApi (seed): pass them to createMockApi and its mock here'],
    ['{ mock }', { mock: createMockApi() }, 'got an object holding a mock: pass the mock itself'],
  ])('setupMockServer(%s) throws InvalidArgumentError saying what to pass', (_label, given, got) => {
    expect(() => setupMockServer(given as never)).toThrow(
      new InvalidArgumentError(
        `setupMockServer(mock): pass a mock from createMockApi(), e.g. setupMockServer(createMockApi({ seed: 1 })); ${got}`,
      ),
    );
  });
});

describe('the bin: community-server-mock', () => {
  const start = startBin;

  it('the README runs it as the one command that works from an empty directory, and tells a clone to use npm run mock', () => {
    const readme = readFileSync(`${root}/README.md`, 'utf8');
    const shell = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
      .flatMap(([, body]) => body!.split('\n'))
      .filter((line) => line.includes('community-server-mock'));
    expect(shell.length).toBeGreaterThan(0);
    // `npx community-server-mock` alone would look for a package of that name outside a project.
    for (const line of shell) expect(line).toMatch(/^npx -p community-server-sdk community-server-mock\b/);
    expect(readme).toContain('npm run mock -- --port 4010');
  });

  it('is declared in package.json', () => {
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
    expect(pkg.bin['community-server-mock']).toBe('./dist/cli.js');
    expect(readFileSync(`${root}/dist/cli.js`, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`prints its URL and the five tokens, serves, and stops cleanly on ${signal}`, async () => {
      const bin = start(['--port', '0', '--seed', '3']);
      const output = await bin.ready;
      const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
      const expected = createMockApi({ seed: 3 }).tokens;
      for (const [name, token] of Object.entries(expected)) expect(output).toContain(`${name.padEnd(9)} ${token}`);
      const client = new CommunityServerClient({ token: expected.main, baseUrl: url });
      expect((await client.server.info()).id).toBe(createMockApi({ seed: 3 }).store.main.info.id);
      expect((await fetch(`${url}/garbage/api/v1/server/info`)).status).toBe(404); // spec paths from the origin only
      bin.child.kill(signal);
      expect((await bin.exit).code).toBe(0);
    });
  }

  it('explains a bad argument and exits 2', async () => {
    const { exit } = start(['--port', 'eighty']);
    const { code, stderr } = await exit;
    expect(code).toBe(2);
    expect(stderr).toContain('--port must be an integer from 0 to 65535');
  });
});

describe('entry points', () => {
  /** Every module specifier a built ESM file and the chunks it imports reach. */
  function reachable(file: string, seen = new Set<string>()): Set<string> {
    const source = readFileSync(`${root}/dist/${file}`, 'utf8');
    for (const [, specifier] of source.matchAll(/(?:from\s*|import\s*\(?\s*)["']([^"']+)["']/g)) {
      if (specifier!.startsWith('.')) {
        const next = new URL(specifier!, `file:///${file}`).pathname.slice(1);
        if (!seen.has(next)) {
          seen.add(next);
          reachable(next, seen);
        }
      } else seen.add(specifier!);
    }
    return seen;
  }

  it('the main entry, /mock and /mock/remote import no Node built-in (they run in browsers and workers)', () => {
    const builtins = new Set(builtinModules);
    for (const entry of ['index.js', 'mock.js', 'mock/browser.js', 'mock/remote.js']) {
      const external = [...reachable(entry)].filter((s) => !s.endsWith('.js'));
      expect(
        external.filter((s) => s.startsWith('node:') || builtins.has(s)),
        entry,
      ).toEqual([]);
    }
    // The control API's client is tiny: neither msw, nor faker, nor ky.
    expect([...reachable('mock/remote.js')].filter((s) => !s.endsWith('.js'))).toEqual([]);
    expect([...reachable('mock/node.js')].some((s) => s.startsWith('node:') || builtins.has(s))).toBe(true); // the check can see one
  });
});
