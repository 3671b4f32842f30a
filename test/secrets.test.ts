import { inspect } from 'node:util';
import { CommunityServerClient } from 'community-server-sdk';
import { describe, expect, it, vi } from 'vitest';
import { BASE_URL, TOKEN, clientWith, json, member } from './helpers';

/** Every way an error or client is commonly rendered: logs, inspectors, JSON, stacks, causes. */
function renderings(value: unknown): string[] {
  const error = value as Error;
  return [
    String(value),
    inspect(value, { depth: 10, showHidden: true, getters: true }),
    JSON.stringify(value) ?? '',
    JSON.stringify({ ...(value as object) }),
    error?.stack ?? '',
    inspect(error?.cause, { depth: 10, showHidden: true }),
  ];
}

const expectNoToken = (value: unknown) => {
  for (const text of renderings(value)) expect(text).not.toContain(TOKEN);
};

describe('the token never leaves in an error', () => {
  const echoes = [
    ['a 401 whose body echoes the token', () => json({ error: `invalid or expired token: ${TOKEN}` }, 401)],
    ['a 400 whose details echo it, deep inside', () => json({ error: { code: 'bad', message: `got ${TOKEN}`, details: { nested: [{ [TOKEN]: TOKEN }] } } }, 400)],
    ['a 500 whose headers echo it', () => new Response('no', { status: 500, headers: { 'x-debug-auth': `Bearer ${TOKEN}` } })],
    ['a 502 HTML page that echoes it', () => new Response(`<html>${TOKEN}</html>`, { status: 502 })],
    ['a network failure', () => Promise.reject(new TypeError('fetch failed'))],
    ['a body failing its schema', () => json({ id: TOKEN })],
  ] as const;

  it.each(echoes)('%s', async (_, respond) => {
    const { client } = clientWith(respond, { maxRetries: 0 });
    const error = await client.members.get('m1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expectNoToken(error);
  });

  it('a timeout', async () => {
    const { client } = clientWith((request) => new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason))), { timeout: 20, maxRetries: 0 });
    expectNoToken(await client.members.get('m1').catch((e: unknown) => e));
  });

  it('a malformed token is refused without repeating it', () => {
    const bad = `${TOKEN}\nX-Injected: 1`;
    let error: unknown;
    try {
      new CommunityServerClient({ token: bad, baseUrl: BASE_URL });
    } catch (e) {
      error = e;
    }
    for (const text of renderings(error)) expect(text).not.toContain(TOKEN);
  });
});

describe('the token never leaves in a rendering of the client', () => {
  it('util.inspect, JSON, String and console output show no token', () => {
    const { client } = clientWith(() => json(member('m1')));
    void client.members; // namespaces bound
    for (const text of renderings(client)) expect(text).not.toContain(TOKEN);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    console.log(client, client.members);
    expect(inspect(log.mock.calls, { depth: 10, showHidden: true })).not.toContain(TOKEN);
    log.mockRestore();
  });

  it("validation: 'warn' messages show no token", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client } = clientWith(() => json({ id: TOKEN }), { validation: 'warn' });
    await client.members.get('m1');
    expect(warn).toHaveBeenCalled();
    expect(inspect(warn.mock.calls, { depth: 10 })).not.toContain(TOKEN);
    warn.mockRestore();
  });

  it('the token travels only in the Authorization header, never in the URL', async () => {
    const { client, requests } = clientWith(() => json({ data: [], page: 1, pageSize: 10, total: 0, totalPages: 0 }));
    await client.members.list({ page: 1 });
    expect(requests[0]!.url).not.toContain(TOKEN);
    expect(requests[0]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });
});
