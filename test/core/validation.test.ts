import { CommunityServerClient, ResponseValidationError } from 'community-server-sdk';
import { MemberSchema } from 'community-server-sdk/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN, clientWith, json, member } from '../helpers';

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
    expect(warn.mock.calls[0]![0]).toMatch(
      /GET \/api\/v1\/server\/members\/m1: the response does not match its schema: createdAt: expected number \(validation: 'warn'/,
    );
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
      [
        'truncated JSON',
        () => new Response('{"id":"m1","serv', { headers: { 'content-type': 'application/json' } }),
        /with a body that is not JSON \(content-type application\/json\)/,
      ],
      ['an empty body', () => new Response('', { status: 200 }), /answered 200 with an empty body/],
      [
        'an HTML page',
        () => new Response('<html>hi</html>', { headers: { 'content-type': 'text/html' } }),
        /not JSON \(content-type text\/html\)/,
      ],
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
  expect(new CommunityServerClient({ token: TOKEN, baseUrl: 'https://a.test' })).toBeInstanceOf(CommunityServerClient);
});

describe('issue 10 hardening: client — item 7: a list envelope the pager cannot use', () => {
  const good = { data: [member('m1')], page: 1, pageSize: 10, total: 1, totalPages: 1 };
  const envelopes: [string, unknown][] = [
    ['not an object', 'members'],
    ['null', null],
    ['an array', [member('m1')]],
    ['data a string', { ...good, data: 'm1m2m3' }],
    ['data missing', { ...good, data: undefined }],
    ['page a string', { ...good, page: '1' }],
    ['page 0', { ...good, page: 0 }],
    ['pageSize negative', { ...good, pageSize: -10 }],
    ['total fractional', { ...good, total: 1.5 }],
    ['totalPages beyond safe integers', { ...good, totalPages: 2 ** 60 }],
    ['totalPages a string', { ...good, totalPages: '11' }],
  ];

  describe.each(['warn', 'off', 'error'] as const)("validation: '%s'", (validation) => {
    it.each(envelopes)(
      '%s: every way of reading the list rejects with ResponseValidationError (method, path, status)',
      async (_, envelope) => {
        const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
        const { client, requests } = clientWith(() => json(envelope), { validation });
        const reads: (() => PromiseLike<unknown>)[] = [
          () => client.members.list(),
          () => client.members.list().toArray(),
          async () => {
            for await (const _m of client.members.list()) {
              /* walk */
            }
          },
          async () => {
            for await (const _p of client.members.list().pages()) {
              /* walk */
            }
          },
        ];
        for (const read of reads) {
          const error = await Promise.resolve()
            .then(read)
            .then(
              () => undefined,
              (e: unknown) => e,
            );
          expect(error).toBeInstanceOf(ResponseValidationError);
          expect(error).toMatchObject({ method: 'GET', path: '/api/v1/server/members', status: 200 });
        }
        expect(requests).toHaveLength(reads.length); // never a request for a page built from a bad field
        warn.mockRestore();
      },
    );
  });

  it.each(['warn', 'off'] as const)("items inside data stay unchecked under validation: '%s'", async (validation) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client } = clientWith(() => json({ data: [{ id: 7 }, 'odd'], page: 1, pageSize: 10, total: 2, totalPages: 1 }), { validation });
    expect(await client.members.list().toArray()).toEqual([{ id: 7 }, 'odd']);
    warn.mockRestore();
  });

  it('a later page\'s broken envelope fails the walk with ResponseValidationError, not a request for page "21"', async () => {
    const { client, requests } = clientWith(
      (request) => {
        const page = new URL(request.url).searchParams.get('page');
        return json({ data: [member(`m${page ?? 1}`)], page: page === null ? 1 : '2', pageSize: 1, total: 3, totalPages: 3 });
      },
      { validation: 'off' },
    );
    await expect(client.members.list().toArray({ concurrency: 1 })).rejects.toBeInstanceOf(ResponseValidationError);
    const walk = async () => {
      for await (const _m of client.members.list()) {
        /* walk */
      }
    };
    await expect(walk()).rejects.toBeInstanceOf(ResponseValidationError);
    expect(requests.map((r) => new URL(r.url).search)).toEqual(['', '?page=2', '', '?page=2']);
  });
});
