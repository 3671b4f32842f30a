/**
 * The mock's error texts say what was wrong, in the live service's style (lower case, no final
 * period; DESIGN.md): a 400 names the field or parameter and the problem, and a 404 of a lookup
 * through an account link says the link is missing (spec Part 7) rather than "chat id <memberId>
 * not found". Every error body, the HTTP server's own included, has the spec's shape.
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { CommunityServerClient, NotFoundError } from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';
import { beforeEach, describe, expect, it } from 'vitest';
import { rawAnswer } from '../../../helpers';

const ORIGIN = 'https://community.test';

interface ErrorBody {
  error: { code: string; message: string; details?: any };
}

let mock: MockApi;
beforeEach(() => {
  mock = createMockApi({ seed: 2 });
});

async function ask(path: string, init: RequestInit = {}): Promise<{ status: number; body: ErrorBody }> {
  const response = await mock.fetch(`${ORIGIN}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${mock.tokens.main}`, ...init.headers },
  });
  return { status: response.status, body: (await response.json()) as ErrorBody };
}

const createToken = (body: string) => ask('/api/v1/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('#56 POST /api/v1/tokens: each problem of the body, by field', () => {
  it.each([
    ['an unknown key', '{"name":"bot","expires":30}', 'unknown key "expires"; accepted: name, expiresInDays'],
    ['two unknown keys', '{"name":"bot","ttl":3,"scope":"all"}', 'unknown keys "ttl", "scope"; accepted: name, expiresInDays'],
    ['a name of the wrong type', '{"name":7}', 'name must be a string, got number'],
    ['a name of null', '{"name":null}', 'name must be a string, got null'],
    ['no name', '{}', 'name is required'],
    ['no name and an unknown key', '{"nmae":"bot"}', 'name is required; unknown key "nmae"; accepted: name, expiresInDays'],
    ['a blank name', '{"name":"  "}', 'name must not be empty or blank, got "  "'],
    ['a lifetime as text', '{"name":"bot","expiresInDays":"3"}', 'expiresInDays must be an integer or null, got string'],
    ['a fractional lifetime', '{"name":"bot","expiresInDays":1.5}', 'expiresInDays must be an integer or null, got 1.5'],
    ['a lifetime below 1', '{"name":"bot","expiresInDays":0}', 'expiresInDays must be at least 1, got 0'],
    [
      'a lifetime past the limit, reported once, by the field’s own limit',
      '{"name":"bot","expiresInDays":1e300}',
      'expiresInDays must be at most 36500, got 1e+300',
    ],
    ['an array', '[]', 'the request body must be a JSON object, got array'],
    ['null', 'null', 'the request body must be a JSON object, got null'],
    ['text that is not JSON', 'name=bot', 'the request body must be a JSON object with name, expiresInDays, got text that is not JSON'],
    ['no body', '', 'the request body must be a JSON object with name, expiresInDays, got no body'],
  ])('%s: 400 invalid_request "%s"', async (_label, body, message) => {
    const answer = await createToken(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_request', message });
  });

  it('details list each field’s problem once, with its path', async () => {
    const answer = await createToken('{"name":7,"expiresInDays":0,"extra":true}');
    expect(answer.body.error.details.issues).toEqual([
      { path: 'name', message: 'name must be a string, got number' },
      { path: 'expiresInDays', message: 'expiresInDays must be at least 1, got 0' },
      { path: '', message: 'unknown key "extra"; accepted: name, expiresInDays' },
    ]);
  });
});

describe('paging and integer path parameters: the parameter, what it must be, what it was', () => {
  it.each([
    ['page=0', 'page must be an integer of at least 1, got "0"'],
    ['page=', 'page must be an integer of at least 1, got ""'],
    ['page=1&page=2', 'page must be given at most once, got ["1","2"]'],
    ['pageSize=500', 'pageSize must be an integer from 1 to 100, got "500"'],
    ['limit=ten', 'limit must be an integer from 1 to 100, got "ten"'],
    ['sort=up', 'sort must be "asc" or "desc", got "up"'],
    ['orderBy=name', 'orderBy must be one of "createdAt", "id", got "name"'],
  ])('GET /api/v1/server/members?%s: 400 "%s"', async (query, message) => {
    const answer = await ask(`/api/v1/server/members?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_parameter', message });
  });

  it('an int32 id that is not one: 400 naming the path parameter', async () => {
    expect((await ask('/api/v1/server/cad/units/abc')).body.error.message).toBe('unitId must be a 32-bit integer, got "abc"');
    expect((await ask('/api/v1/server/cad/unit-groups/2147483648')).body.error.message).toBe(
      'groupId must be a 32-bit integer, got "2147483648"',
    );
  });
});

describe('404s of lookups through an account link say the link is missing', () => {
  const unlinkedMember = () => mock.store.main.members.all().find((member) => !mock.store.main.links.get(member.id))!.id;

  it('#49: a member without a chat link', async () => {
    const memberId = unlinkedMember();
    const answer = await ask(`/api/v1/server/members/${memberId}/chat`);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toEqual({ code: 'chat_id_not_found', message: `member "${memberId}" has no chat link` });
  });

  it('#30: a department member without a chat link, through the SDK', async () => {
    const main = mock.store.main;
    const departmentId = main.departments.all()[0]!.id;
    const memberId = main.departmentData.get(departmentId)!.members.all()[0]!.id;
    main.links.delete(memberId);
    const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: ORIGIN, fetch: mock.fetch });
    const error = await client.departments.members.chatId(departmentId, memberId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'chat_id_not_found' });
    expect((error as Error).message).toContain(`member "${memberId}" has no chat link`);
  });

  it('#47 and #28: no member has a chat id no link has', async () => {
    const departmentId = mock.store.main.departments.all()[0]!.id;
    expect((await ask('/api/v1/server/members/chat/123')).body.error).toEqual({
      code: 'member_not_found',
      message: 'no member has the chat id "123"',
    });
    expect((await ask(`/api/v1/server/departments/${departmentId}/members/chat/123`)).body.error).toEqual({
      code: 'member_not_found',
      message: `no member of department "${departmentId}" has the chat id "123"`,
    });
  });

  it('#59 and #60: a chat id without a game connection, a game id without a chat account', async () => {
    expect((await ask('/api/v1/verification/chat/123/game')).body.error).toEqual({
      code: 'game_connection_not_found',
      message: 'the chat id "123" has no game connection',
    });
    expect((await ask('/api/v1/verification/game/456/chat')).body.error).toEqual({
      code: 'account_not_found',
      message: 'the game id "456" has no linked chat account',
    });
  });
});

describe('the HTTP server’s own refusals are in the spec’s error shape', () => {
  it('413 for an oversized body, 400 for a request target that is not a path', async () => {
    const server = await startMockHttpServer({ mock });
    try {
      const huge = await fetch(`${server.url}/api/v1/tokens`, { method: 'POST', body: 'x'.repeat(2 << 20) });
      expect(huge.status).toBe(413);
      expect(await huge.json()).toEqual({
        error: { code: 'payload_too_large', message: 'request bodies are limited to 1048576 bytes (1 MiB)' },
      });
      // An absolute-form target for another origin: only a raw request can send one.
      const foreign = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port: server.port, path: 'http://elsewhere.example/livez' }, (incoming) => {
          let body = '';
          incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
          incoming.on('end', () => resolve({ status: incoming.statusCode!, body }));
        });
        request.on('error', reject);
        request.end();
      });
      expect(foreign.status).toBe(400);
      expect(JSON.parse(foreign.body)).toEqual({ error: { code: 'invalid_path', message: 'the request target is not a path' } });
    } finally {
      await server.close();
    }
  });
});

describe('error bodies are built in one place', () => {
  it('no module of mocks/ but replies.ts writes an `error` body by hand', () => {
    const dir = fileURLToPath(new URL('../../../../mocks/', import.meta.url));
    const modules = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    expect(modules).toContain('engine/replies.ts');
    const handBuilt = modules.filter(
      (file) => file !== 'engine/replies.ts' && /\{\s*error\s*:/.test(readFileSync(`${dir}${file}`, 'utf8')),
    );
    expect(handBuilt).toEqual([]);
  });
});

describe('a 400 names the problem without echoing what was sent', () => {
  const mock = createMockApi();
  const LIMIT = 1000;

  it.each([
    ['a blank name of a megabyte', { name: ' '.repeat(1 << 20) }],
    ['an unknown key of a megabyte', { name: 'ci', ['k'.repeat(1 << 20)]: 1 }],
    ['ten thousand unknown keys', Object.fromEntries(Array.from({ length: 10_000 }, (_, n) => [`key${n}`, n]))],
  ])('%s', async (_, body) => {
    const answer = await rawAnswer(mock, '/api/v1/tokens', { method: 'POST', json: body });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('invalid_request');
    expect(answer.json.error.message.length).toBeLessThan(LIMIT);
    expect(answer.text.length).toBeLessThan(4 * LIMIT);
  });

  it.each([
    ['a sort of a megabyte', `sort=${'x'.repeat(1 << 20)}`],
    ['a page repeated ten thousand times', Array.from({ length: 10_000 }, () => 'page=1').join('&')],
  ])('a query parameter: %s', async (_, query) => {
    const answer = await rawAnswer(mock, `/api/v1/server/members?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('invalid_parameter');
    expect(answer.json.error.message.length).toBeLessThan(LIMIT);
  });
});
