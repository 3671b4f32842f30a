/**
 * Transport safety: the token does not follow a redirect to another origin, and a plain-http
 * `baseUrl` to another machine is warned about (once), since the service requires HTTPS.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CommunityServerClient } from 'community-server-sdk';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

const TOKEN = 'cst_redirect_secret_0123456789';
const page = JSON.stringify({ data: [], page: 1, pageSize: 10, total: 0, totalPages: 0 });
const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/** A loopback server recording the Authorization header of each request; `route` may redirect. */
async function recorder(route: (path: string) => string | undefined) {
  const seen: { path: string; authorization: string | undefined }[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url!, authorization: req.headers.authorization });
    const location = route(req.url!);
    if (location) res.writeHead(302, { location }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(page);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

describe('redirects', () => {
  it('a redirect to another origin does not carry the token; one to the same origin does', async () => {
    const elsewhere = await recorder(() => undefined);
    // 127.0.0.1 and localhost are different origins, though the same machine.
    const origin = await recorder((path) =>
      path === '/api/v1/server/members'
        ? `http://localhost:${elsewhere.port}/landed`
        : path === '/api/v1/server/roles'
          ? '/api/v1/server/roles-here'
          : undefined,
    );
    const client = new CommunityServerClient({ token: TOKEN, baseUrl: `http://127.0.0.1:${origin.port}` });
    await client.members.list();
    await client.roles.list();
    expect(origin.seen.map((s) => s.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expect(origin.seen.map((s) => s.path)).toEqual(['/api/v1/server/members', '/api/v1/server/roles', '/api/v1/server/roles-here']);
    expect(elsewhere.seen).toEqual([{ path: '/landed', authorization: undefined }]);
  });
});

describe('plain http', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  afterEach(() => warn.mockClear());

  it('warns once per origin when baseUrl is http to a non-loopback host, without the token', () => {
    new CommunityServerClient({ token: TOKEN, baseUrl: 'http://api.example.com' });
    new CommunityServerClient({ token: TOKEN, baseUrl: 'http://api.example.com/v2' });
    expect(warn).toHaveBeenCalledTimes(1);
    const message = String(warn.mock.calls[0]![0]);
    expect(message).toContain('http://api.example.com');
    expect(message).toContain('requires https');
    expect(message).not.toContain(TOKEN);
    new CommunityServerClient({ token: TOKEN, baseUrl: 'http://10.0.0.5:8080' });
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('stays quiet for https and for loopback', () => {
    for (const baseUrl of [
      'https://api.example.com',
      'http://localhost:4010',
      'http://127.0.0.1:4010',
      'http://127.8.9.10',
      'http://[::1]:4010',
      'http://mock.localhost',
    ]) {
      new CommunityServerClient({ token: TOKEN, baseUrl });
    }
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('a body that never ends (issue 23, hardening 2)', () => {
  /** A response whose body streams 1 MiB chunks until cancelled, counting what was read of it. */
  function endless(status = 200) {
    const chunk = new Uint8Array(1 << 20).fill(0x61);
    const state = { pulled: 0, cancelled: false };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        state.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { response: new Response(body, { status, headers: { 'content-type': 'application/json' } }), state };
  }

  it.each([200, 500])(
    'answered %i: read up to 64 MiB, then the call fails long before its timeout, the body let go',
    async (status) => {
      const answers: ReturnType<typeof endless>[] = [];
      const client = new CommunityServerClient({
        token: TOKEN,
        baseUrl: 'https://api.test',
        maxRetries: 1,
        fetch: async () => {
          answers.push(endless(status));
          return answers.at(-1)!.response;
        },
      });
      const started = performance.now();
      const error = await client.members.list().catch((thrown: unknown) => thrown as Error);
      expect(error).toMatchObject({ name: 'ConnectionError', message: expect.stringContaining('a body over 64 MiB') });
      expect(performance.now() - started).toBeLessThan(20_000); // the timeout is 30 s an attempt
      expect(answers).toHaveLength(2); // retried as a network failure is
      for (const { state } of answers) {
        expect(state.cancelled).toBe(true);
        expect(state.pulled).toBeLessThanOrEqual(66 << 20);
      }
    },
    60_000,
  );

  it('a fetch whose Response has no body stream (React Native’s polyfill) is read whole, as before', async () => {
    const client = new CommunityServerClient({
      token: TOKEN,
      baseUrl: 'https://api.test',
      fetch: async () => {
        const response = new Response(page, { headers: { 'content-type': 'application/json' } });
        Object.defineProperty(response, 'body', { value: undefined });
        return response;
      },
    });
    expect((await client.members.list()).total).toBe(0);
  });
});
