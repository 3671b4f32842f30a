/**
 * Examples run as users run them: `tsx examples/<file>.ts` in a fresh process, importing the
 * built package by name, against a loopback server. The README's quick start must be the
 * quick-start example, character for character, so the README runs as written.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'example-token';
let server: Server;
let baseUrl: string;

/** Just enough of the API for the quick start: server info, 250 members, and a 404. */
const routes: Record<string, (query: URLSearchParams) => [number, unknown]> = {
  '/api/v1/server/info': () => [200, { id: 'srv_1', name: 'Example County RP' }],
  '/api/v1/server/members': (query) => {
    const page = Number(query.get('page') ?? 1);
    const pageSize = Number(query.get('pageSize') ?? 10);
    const total = 250;
    const start = (page - 1) * pageSize;
    const data = Array.from({ length: Math.max(0, Math.min(pageSize, total - start)) }, (_, i) => ({
      id: `mem_${start + i + 1}`,
      serverId: 'srv_1',
      roles: [],
      createdAt: 1735689600 + (start + i) * 86400,
    }));
    return [200, { data, page, pageSize, total, totalPages: Math.ceil(total / pageSize) }];
  },
};

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const route = routes[url.pathname];
    const [status, body] =
      request.headers.authorization !== `Bearer ${TOKEN}`
        ? [401, { error: 'invalid or expired token' }]
        : route
          ? route(url.searchParams)
          : [404, { error: { code: 'member_not_found', message: 'member no-such-member not found' } }];
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const runExample = async (file: string) => {
  const env = { ...process.env, COMMUNITY_SERVER_TOKEN: TOKEN, COMMUNITY_SERVER_BASE_URL: baseUrl };
  const { stdout } = await promisify(execFile)(`${root}/node_modules/.bin/tsx`, [`examples/${file}`], { cwd: root, env });
  return stdout;
};

it('the quick start runs and prints what it promises', async () => {
  expect(await runExample('quickstart.ts')).toBe(
    [
      'Server: Example County RP',
      '- mem_1, joined 2025-01-01',
      '- mem_2, joined 2025-01-02',
      '- mem_3, joined 2025-01-03',
      '250 members',
      'Not found (404 member_not_found): member no-such-member not found',
      '',
    ].join('\n'),
  );
});

it("the README's quick start is the quick-start example", () => {
  const readme = readFileSync(`${root}/README.md`, 'utf8');
  const example = readFileSync(`${root}/examples/quickstart.ts`, 'utf8');
  expect(readme).toContain('```ts\n' + example + '```');
});
