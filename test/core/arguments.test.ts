import { CommunityServerClient, DEFAULTS, InvalidArgumentError } from 'community-server-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE_URL, TOKEN, clientWith, json, member, pagedMembers, recordingFetch, target } from '../helpers';

type Client = CommunityServerClient;
/** Loose calls, as plain JavaScript could make them, to check the runtime guards. */
type LooseMethod = ((...args: unknown[]) => Promise<unknown>) & { [name: string]: LooseMethod };
const loose = (client: Client) => client as unknown as Record<string, LooseMethod>;

describe('bad arguments reject with InvalidArgumentError before any request', () => {
  const cases: [string, (client: Client) => Promise<unknown>, RegExp][] = [
    ['an empty id', (c) => c.members.get(''), /memberId must not be empty/],
    ['a blank id', (c) => c.departments.members.get('d1', '  \t'), /memberId must not be empty/],
    ['"." as an id', (c) => c.logs.get('.'), /logId cannot be "\."/],
    ['".." as an id', (c) => c.departments.get('..'), /departmentId cannot be "\.\."/],
    ['a number for a string id', (c) => loose(c).members!.get!(42), /memberId must be a string, got 42/],
    ['an unpaired surrogate', (c) => c.members.get('\uD800x'), /unpaired UTF-16 surrogate/],
    ['a fractional unitId', (c) => c.cad.units.get(1.5), /unitId must be an int32 integer, got 1\.5/],
    ['a string unitId', (c) => loose(c).cad!.units!.get!('5'), /unitId must be an int32 integer, got "5"/],
    ['an int32-overflowing groupId', (c) => c.cad.unitGroups.get(2 ** 31), /groupId must be an int32/],
    ['NaN as groupId', (c) => c.cad.unitGroups.get(Number.NaN), /groupId must be an int32/],
    ['tokens.create without a name', (c) => loose(c).tokens!.create!({}), /name: expected string/],
    ['tokens.create with a blank name', (c) => c.tokens.create({ name: '   ' }), /name must not be empty or blank/],
    ['tokens.create with fractional days', (c) => c.tokens.create({ name: 'ci', expiresInDays: 1.5 }), /expiresInDays: expected int/],
    ['tokens.create with 0 days', (c) => c.tokens.create({ name: 'ci', expiresInDays: 0 }), /expiresInDays must be at least 1/],
    ['tokens.create with an unknown field', (c) => loose(c).tokens!.create!({ name: 'ci', expiresIn: 3 }), /unknown key\(s\) expiresIn/],
    ['tokens.create with no body', (c) => loose(c).tokens!.create!(), /invalid body for POST \/api\/v1\/tokens/],
    ['page 0', (c) => c.members.list({ page: 0 }), /page must be a whole number ≥ 1, got 0/],
    ['a fractional pageSize', (c) => c.members.list({ pageSize: 2.5 }), /pageSize must be a whole number/],
    ['a string limit', (c) => loose(c).members!.list!({ limit: '10' }), /limit must be a whole number ≥ 1, got "10"/],
    ['an empty orderBy', (c) => c.members.list({ orderBy: '' }), /orderBy must be a non-empty string/],
    ['an unknown list parameter', (c) => loose(c).members!.list!({ pagesize: 10 }), /unknown list parameter "pagesize"/],
    ['request options in the params slot', (c) => loose(c).members!.list!({ timeout: 10 }), /request options go in the last argument/],
    ['params that are not an object', (c) => loose(c).members!.list!('page=2'), /list params must be an object/],
    ['an unknown request option', (c) => loose(c).members!.get!('m1', { retries: 2 }), /unknown request option "retries"/],
    ['a negative timeout', (c) => c.members.get('m1', { timeout: -1 }), /timeout must be a number of milliseconds/],
    ['a huge timeout', (c) => c.members.get('m1', { timeout: 2 ** 31 }), /timeout must be a number of milliseconds/],
    ['fractional maxRetries', (c) => c.members.get('m1', { maxRetries: 1.5 }), /maxRetries must be a whole number/],
    ['a signal that is not one', (c) => loose(c).members!.get!('m1', { signal: {} }), /signal must be an AbortSignal/],
    ['non-string headers', (c) => loose(c).members!.get!('m1', { headers: { 'x-n': 1 } }), /headers must be an object of string values/],
    ['too many arguments', (c) => loose(c).members!.get!('m1', {}, 'extra'), /too many arguments/],
  ];

  it.each(cases)('%s', async (_, call, message) => {
    const { client, requests } = clientWith(() => json(member('m1')));
    const error = await call(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(message);
    expect(requests).toHaveLength(0);
  });
});

describe('path parameters are percent-encoded as exactly one segment', () => {
  it.each([
    ['a/b', '/api/v1/server/members/a%2Fb'],
    ['../../tokens', '/api/v1/server/members/..%2F..%2Ftokens'],
    ['%2e%2e', '/api/v1/server/members/%252e%252e'],
    ['a?b#c', '/api/v1/server/members/a%3Fb%23c'],
    ['名前 ü', '/api/v1/server/members/%E5%90%8D%E5%89%8D%20%C3%BC'],
    ['...', '/api/v1/server/members/...'],
  ])('%j → %s', async (id, path) => {
    const { client, requests } = clientWith(() => json(member('m1')));
    await client.members.get(id);
    expect(target(requests[0]!)).toBe(path);
  });

  it('int32 ids go as decimal, negatives included', async () => {
    const { client, requests } = clientWith(() =>
      json({ id: -7, serverId: 's', userId: 'u', status: 1, panic: false, number: '1', agency: 'PD', loc: null, items: [] }),
    );
    await client.cad.units.get(-7);
    expect(target(requests[0]!)).toBe('/api/v1/server/cad/units/-7');
  });

  it('undefined list params are left out of the query', async () => {
    const { client, requests } = clientWith(() => json({ data: [], page: 1, pageSize: 10, total: 0, totalPages: 0 }));
    await client.members.list({ page: undefined, pageSize: 10, sort: undefined });
    expect(target(requests[0]!)).toBe('/api/v1/server/members?pageSize=10');
  });
});

describe('client options', () => {
  afterEach(() => vi.unstubAllEnvs());

  it.each([
    [{ baseUrl: 'not a url' }, /does not resolve to an absolute URL \(no page origin/],
    [{ baseUrl: '/' }, /does not resolve to an absolute URL/],
    [{ baseUrl: 'ftp://example.com' }, /must be an http\(s\) URL/],
    [{ timeout: 0 }, /timeout must be/],
    [{ maxRetries: -1 }, /maxRetries must be/],
    [{ validation: 'strict' }, /validation must be 'error', 'warn' or 'off'/],
    [{ fetch: 'fetch' }, /fetch must be a function/],
    [{ tokne: 'x' }, /unknown client option "tokne"/],
    [{ token: '' }, /token must be a non-empty string/],
    [{ token: 'has space' }, /token must be a non-empty string/],
    // Shorter than any API token: redacting one would blank every string it occurs in (an 'x' in every message and path).
    [{ token: 'x' }, 'token is 1 characters long, shorter than any API token (at least 8); value not shown'],
    [{ token: 'sevench' }, 'token is 7 characters long'],
  ])('%o is refused by the constructor', (options, message) => {
    expect(() => new CommunityServerClient({ baseUrl: BASE_URL, ...options } as never)).toThrow(InvalidArgumentError);
    expect(() => new CommunityServerClient({ baseUrl: BASE_URL, ...options } as never)).toThrow(message);
  });

  it('without a baseUrl outside a browser, the constructor says how to give one', () => {
    vi.stubEnv('COMMUNITY_SERVER_BASE_URL', '');
    expect(() => new CommunityServerClient({ token: TOKEN })).toThrow(/pass e\.g\. \{ baseUrl: 'https:\/\/api\.example\.com' \}/);
  });

  it('"/" resolves against the page origin in a browser', async () => {
    vi.stubGlobal('location', { href: 'https://dashboard.example/app/page' });
    try {
      const { fetch, requests } = recordingFetch(() => json(member('m1')));
      await new CommunityServerClient({ token: TOKEN, fetch }).members.get('m1');
      expect(requests[0]!.url).toBe('https://dashboard.example/api/v1/server/members/m1');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('token and baseUrl default to COMMUNITY_SERVER_TOKEN and COMMUNITY_SERVER_BASE_URL', async () => {
    vi.stubEnv('COMMUNITY_SERVER_TOKEN', 'env-token');
    vi.stubEnv('COMMUNITY_SERVER_BASE_URL', 'https://env.example/prefix/');
    const { fetch, requests } = recordingFetch(() => json(member('m1')));
    await new CommunityServerClient({ fetch }).members.get('m1');
    expect(requests[0]!.url).toBe('https://env.example/prefix/api/v1/server/members/m1');
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer env-token');
  });

  it('explicit options win over the environment', async () => {
    vi.stubEnv('COMMUNITY_SERVER_TOKEN', 'env-token');
    const { fetch, requests } = recordingFetch(() => json(member('m1')));
    await new CommunityServerClient({ token: 'mine-token', baseUrl: BASE_URL, fetch }).members.get('m1');
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer mine-token');
  });

  it('without any token, authenticated calls reject before sending; health probes still work', async () => {
    vi.stubEnv('COMMUNITY_SERVER_TOKEN', '');
    const { fetch, requests } = recordingFetch(() => json({ status: 'ok' }));
    const client = new CommunityServerClient({ baseUrl: BASE_URL, fetch });
    await expect(client.members.get('m1')).rejects.toThrow(/no API token: pass \{ token \}/);
    expect(requests).toHaveLength(0);
    await expect(client.health.live()).resolves.toEqual({ status: 'ok' });
    expect(requests[0]!.headers.has('authorization')).toBe(false);
  });

  it('per-call headers are sent, but cannot replace Authorization or Accept, in any letter case', async () => {
    const { client, requests } = clientWith((request) => json(request.url.endsWith('/livez') ? { status: 'ok' } : member('m1')));
    await client.members.get('m1', { headers: { 'x-request-id': 'abc', authorization: 'Bearer stolen' } });
    await client.members.get('m1', { headers: { Authorization: 'Bearer stolen', Accept: 'text/html' } });
    await client.health.live({ headers: { AUTHORIZATION: 'Bearer stolen' } });
    expect(requests[0]!.headers.get('x-request-id')).toBe('abc');
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer cs_test_5f2b9c1e7a');
    expect(requests[1]!.headers.get('authorization')).toBe('Bearer cs_test_5f2b9c1e7a');
    expect(requests[1]!.headers.get('accept')).toBe('application/json');
    expect(requests[2]!.headers.has('authorization')).toBe(false);
  });

  it('a token of 8 characters is accepted, and redacted only where it stands: a 401 message keeps its words', async () => {
    const { client } = clientWith(() => json({ error: 'invalid or expired token' }, 401), { token: 'abcdefgh' });
    await expect(client.members.get('m1')).rejects.toMatchObject({ status: 401, message: 'invalid or expired token' });
  });

  it('the defaults are frozen: changing them cannot change every client', () => {
    expect(Object.isFrozen(DEFAULTS)).toBe(true);
    expect(() => {
      (DEFAULTS as { timeout: number }).timeout = 1;
    }).toThrow(TypeError);
    expect(DEFAULTS.timeout).toBe(30_000);
  });

  it('client, request and watch options share one check: a plain object of known keys, refused in the same words', async () => {
    const { client, requests } = clientWith(pagedMembers(3).handler);
    const words = (error: unknown) => {
      expect(error).toBeInstanceOf(InvalidArgumentError);
      return (error as Error).message.replace(/ \(known: [^)]*\)$/, '');
    };
    const thrown = (act: () => unknown) => {
      try {
        act();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(words(thrown(() => new CommunityServerClient({ baseUrl: BASE_URL, retries: 3 } as never)))).toBe(
      'unknown client option "retries"',
    );
    expect(words(await client.members.get('m1', { retries: 3 } as never).catch((error: unknown) => error))).toBe(
      'unknown request option "retries"',
    );
    const list = client.members.list();
    expect(words(thrown(() => list.watch({ retries: 3 } as never)))).toBe('unknown watch option "retries"');
    await list;
    // By its kind, never its text: a string here is most often the token (issue 23, hardening 2).
    expect(words(thrown(() => new CommunityServerClient('options' as never)))).toBe('client options must be an object, got a string');
    expect(requests).toHaveLength(1); // the list's own first page; nothing for the refused calls
  });

  it('namespaces are created once per client', () => {
    const { client } = clientWith(() => json(member('m1')));
    expect(client.members).toBe(client.members);
    expect(client.cad.units).toBe(client.cad.units);
  });
});

describe('issue 10 hardening: client — item 4: a header that cannot be sent is InvalidArgumentError before any request', () => {
  const secretish = 'hunter2-value';
  const bad: [string, Record<string, string>, string][] = [
    ['a line break in a value', { 'x-trace': `${secretish}\nx-injected: 1` }, 'x-trace'],
    ['a carriage return in a value', { 'x-trace': `${secretish}\r` }, 'x-trace'],
    ['a NUL in a value', { 'x-trace': `${secretish}\0` }, 'x-trace'],
    ['a non-ASCII value', { 'x-name': `${secretish}é` }, 'x-name'],
    ['an emoji value', { 'x-name': `${secretish}🙂` }, 'x-name'],
    [
      'a bad Authorization value (dropped anyway, but still refused, value unseen)',
      { Authorization: `Bearer ${secretish}\n` },
      'Authorization',
    ],
    ['an empty name', { '': secretish }, '""'],
    ['a name with a space', { 'x trace': secretish }, '"x trace"'],
    ['a name with a colon', { 'x-trace:': secretish }, '"x-trace:"'],
    ['a non-ASCII name', { 'x-naïve': secretish }, '"x-naïve"'],
  ];

  it.each(bad)('%s', async (_, headers, named) => {
    const { client, requests } = clientWith(() => json(member('m1')));
    const error = (await client.members.get('m1', { headers }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toContain(named);
    expect(error.message).not.toContain(secretish); // the value is never echoed: it may be a credential
    expect(requests).toHaveLength(0);
  });

  it('ordinary headers, tabs and spaces included, still go out', async () => {
    const { client, requests } = clientWith(() => json(member('m1')));
    await client.members.get('m1', { headers: { 'X-Request-Id': 'a b\tc', "x-odd!#$%&'*+.^_`|~": 'v', 'x-empty': '' } });
    expect(requests[0]!.headers.get('x-request-id')).toBe('a b\tc');
    expect(requests[0]!.headers.get("x-odd!#$%&'*+.^_`|~")).toBe('v');
  });
});

describe('issue 30 hardening 3: item 14 — a refused value is named with the right article, whatever its kind', () => {
  const kinds: [string, unknown][] = [
    ['an object', {}],
    ['an object', new Map()],
    ['an array', []],
    ['a function', () => 1],
    ['a symbol', Symbol('s')],
    ['a bigint', 10n],
    ['null', null],
    ['true', true],
  ];

  it.each(kinds)('%s', (named, value) => {
    expect(() => new CommunityServerClient({ baseUrl: BASE_URL, timeout: value as never })).toThrow(
      new InvalidArgumentError(`timeout must be a number of milliseconds in 1..${2 ** 31 - 1}, got ${named}`),
    );
  });
});
