import { CommunityServerClient, ResponseValidationError } from 'community-server-sdk';
import { MemberSchema } from 'community-server-sdk/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientWith, json, member } from './helpers';

const badMember = { id: 'm1', serverId: 'srv_1', roles: [], createdAt: 'yesterday' };
const badPage = { data: [member('m1'), { ...member('m2'), id: 7 }], page: 1, pageSize: 10, total: 2, totalPages: 1 };

describe("validation: 'error' (default)", () => {
  it('a body failing its schema rejects with ResponseValidationError: zod issues, method, path', async () => {
    const { client } = clientWith(() => json(badMember));
    const error = (await client.members.get('m1').catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ method: 'GET', path: '/api/v1/server/members/m1', status: 200 });
    expect(error.issues).toEqual([expect.objectContaining({ code: 'invalid_type', expected: 'number', path: ['createdAt'] })]);
    expect(error.message).toBe('GET /api/v1/server/members/m1: the response does not match its schema: createdAt: expected number');
  });

  it('issues inside a page point at the item', async () => {
    const { client } = clientWith(() => json(badPage));
    const error = (await client.members.list().catch((e: unknown) => e)) as ResponseValidationError;
    expect(error.issues[0]!.path).toEqual(['data', 1, 'id']);
  });

  it('a missing required field fails; an int32 out of range fails', async () => {
    const { id: _, ...noId } = member('m1');
    await expect(clientWith(() => json(noId)).client.members.get('m1')).rejects.toThrow(/id: expected string/);
    const unit = { id: 2 ** 31, serverId: 's', userId: 'u', status: 1, panic: false, number: '1', agency: 'PD', loc: null, items: [] };
    await expect(clientWith(() => json(unit)).client.cad.units.get(1)).rejects.toThrow(/id: must be ≤ 2147483647/);
  });

  it('unknown fields reach the caller, at every level', async () => {
    const { client } = clientWith(() => json({ ...member('m1'), newField: { nested: true } }));
    await expect(client.members.get('m1')).resolves.toEqual({ ...member('m1'), newField: { nested: true } });
    const page = { ...badPage, data: [{ ...member('m1'), extra: 1 }], cursor: 'x' };
    const { client: c2 } = clientWith(() => json(page));
    expect((await c2.members.list()).data[0]).toEqual({ ...member('m1'), extra: 1 });
  });
});

describe("validation: 'warn'", () => {
  afterEach(() => vi.restoreAllMocks());

  it('returns the body unchecked and warns once per endpoint', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client } = clientWith(() => json(badMember), { validation: 'warn' });
    await expect(client.members.get('m1')).resolves.toEqual(badMember);
    await expect(client.members.get('m2')).resolves.toEqual(badMember);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/GET \/api\/v1\/server\/members\/m1: the response does not match its schema: createdAt: expected number \(validation: 'warn'/);
    await client.members.getByChatId('c1');
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe("validation: 'off'", () => {
  it('skips schemas entirely', async () => {
    const warn = vi.spyOn(console, 'warn');
    const { client } = clientWith(() => json(badMember), { validation: 'off' });
    await expect(client.members.get('m1')).resolves.toEqual(badMember);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('2xx bodies that are not JSON fail in every mode', () => {
  for (const validation of ['error', 'warn', 'off'] as const) {
    it.each([
      ['truncated JSON', () => new Response('{"id":"m1","serv', { headers: { 'content-type': 'application/json' } }), /with a body that is not JSON \(content-type application\/json\)/],
      ['an empty body', () => new Response('', { status: 200 }), /answered 200 with an empty body/],
      ['an HTML page', () => new Response('<html>hi</html>', { headers: { 'content-type': 'text/html' } }), /not JSON \(content-type text\/html\)/],
    ])(`${validation}: %s → ResponseValidationError`, async (_, respond, message) => {
      const { client } = clientWith(respond, { validation });
      const error = (await client.members.get('m1').catch((e: unknown) => e)) as ResponseValidationError;
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.message).toMatch(message);
      expect(error.issues).toEqual([]);
    });
  }

  it('valid JSON under a non-JSON content type is accepted', async () => {
    const { client } = clientWith(() => new Response(JSON.stringify(member('m1')), { headers: { 'content-type': 'text/plain' } }));
    await expect(client.members.get('m1')).resolves.toEqual(member('m1'));
  });
});

it('the schemas entry validates the same way the client does', () => {
  expect(MemberSchema.safeParse(badMember).success).toBe(false);
  expect(MemberSchema.parse({ ...member('m1'), x: 1 })).toEqual({ ...member('m1'), x: 1 });
  expect(new CommunityServerClient({ token: 't', baseUrl: 'https://a.test' })).toBeInstanceOf(CommunityServerClient);
});
