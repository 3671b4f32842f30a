/**
 * `middleware` (issue 31): around each attempt, in order, seeing the request as sent (the token
 * header set) and the response as received; retried attempts run it again; an answer of its own
 * is read and checked as any answer; what it throws of its own ends the call as a typed error,
 * unretried, the token redacted; a bad option is refused before any request.
 */
import {
  CommunityServerClient,
  ConnectionError,
  InvalidArgumentError,
  NotFoundError,
  ResponseValidationError,
  ServiceUnavailableError,
  type Middleware,
} from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BASE_URL, TOKEN, errorBody, json, member, mockClient, recordingFetch, type Handler } from '../helpers';

/** A client of `handler` with `middleware`, no retry waits to speak of. */
function clientOf(handler: Handler, middleware: Middleware[], options: Record<string, unknown> = {}) {
  const { fetch, requests } = recordingFetch(handler);
  const client = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, middleware, ...options });
  return { client, requests };
}

describe('middleware runs around each attempt, in order', () => {
  it('the first given is outermost; each sees the request as sent and the response as received', async () => {
    const seen: string[] = [];
    const record =
      (name: string): Middleware =>
      async (request, next) => {
        seen.push(`${name} → ${request.method} ${new URL(request.url).pathname} ${request.headers.get('authorization')}`);
        const response = await next(request);
        seen.push(`${name} ← ${response.status}`);
        return response;
      };
    const { client } = clientOf(() => json(member('m1')), [record('a'), record('b')]);
    await expect(client.members.get('m1')).resolves.toEqual(member('m1'));
    expect(seen).toEqual([
      `a → GET /api/v1/server/members/m1 Bearer ${TOKEN}`,
      `b → GET /api/v1/server/members/m1 Bearer ${TOKEN}`,
      'b ← 200',
      'a ← 200',
    ]);
  });

  it('may change the request: the fetch gets what it passes on', async () => {
    const tag: Middleware = (request, next) => {
      const headers = new Headers(request.headers);
      headers.set('x-request-id', 'abc');
      return next(new Request(request, { headers }));
    };
    const { client, requests } = clientOf(() => json(member('m1')), [tag]);
    await client.members.get('m1');
    expect(requests[0]!.headers.get('x-request-id')).toBe('abc');
    expect(requests[0]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });

  it('runs again for each retry', async () => {
    let calls = 0;
    const count: Middleware = (request, next) => {
      calls++;
      return next(request);
    };
    const { client, requests } = clientOf(
      (_, n) => (n === 1 ? json(errorBody('unavailable', 'down'), 503, { 'retry-after': '0' }) : json(member('m1'))),
      [count],
    );
    await expect(client.members.get('m1')).resolves.toEqual(member('m1'));
    expect(calls).toBe(2);
    expect(requests).toHaveLength(2);
  });

  it('a middleware that turns every answer into a 503 makes the call retry, then fail as a 503 would', async () => {
    const down: Middleware = async (request, next) => {
      await next(request);
      return json(errorBody('unavailable', 'maintenance'), 503, { 'retry-after': '0' });
    };
    const { client, requests } = clientOf(() => json(member('m1')), [down], { maxRetries: 1 });
    await expect(client.members.get('m1')).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(requests).toHaveLength(2);
  });

  it('a client from withOptions runs its own middleware, over the same cache: a hit runs none', async () => {
    const mock = createMockApi();
    const id = mock.store.main.members.all()[0]!.id;
    const seen: string[] = [];
    const named =
      (name: string): Middleware =>
      (request, next) => {
        seen.push(name);
        return next(request);
      };
    const client = mockClient(mock, { middleware: [named('parent')], cache: { ttlMs: 60_000 } });
    const child = client.withOptions({ middleware: [named('child')] });
    await child.members.get(id);
    await client.members.get(id); // from the cache the child filled: no attempt, no middleware
    await client.members.list();
    expect(seen).toEqual(['child', 'parent']);
  });
});

describe('an answer of its own', () => {
  it('is read and checked as any answer: a body failing its schema is a ResponseValidationError', async () => {
    const stub: Middleware = async () => json({ id: 42 });
    const { client, requests } = clientOf(() => json(member('m1')), [stub]);
    const error = await client.members.get('m1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.length).toBeGreaterThan(0);
    expect(requests).toHaveLength(0); // the fetch was never called
  });

  it('a 404 of its own is a NotFoundError; a good body is the result', async () => {
    const { client } = clientOf(() => json(member('m1')), [async () => json(errorBody('member_not_found', 'no such member'), 404)]);
    await expect(client.members.get('m1')).rejects.toMatchObject({ constructor: NotFoundError, code: 'member_not_found' });
    const { client: answered } = clientOf(() => json(member('m1')), [async () => json(member('m9'))]);
    await expect(answered.members.get('m1')).resolves.toEqual(member('m9'));
  });
});

describe('a middleware that throws', () => {
  it('ends the call with a typed error, unretried, the token out of it', async () => {
    const leaky: Middleware = async (request) => {
      throw new Error(`refused ${request.headers.get('authorization')}`);
    };
    const { client, requests } = clientOf(() => json(member('m1')), [leaky], { maxRetries: 3 });
    const error = (await client.members.get('m1').catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe('GET /api/v1/server/members/m1 failed: refused Bearer [redacted]');
    expect((error.cause as Error).message).toBe('refused Bearer [redacted]');
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(TOKEN);
    expect(requests).toHaveLength(0);
  });

  it("passes the SDK's own errors as they are", async () => {
    const refuse: Middleware = async () => {
      throw new InvalidArgumentError('not today');
    };
    const { client } = clientOf(() => json(member('m1')), [refuse]);
    await expect(client.members.get('m1')).rejects.toThrow(new InvalidArgumentError('not today'));
  });

  it('a network error of the fetch, passed on through it, is retried as any network error', async () => {
    const passing: Middleware = (request, next) => next(request);
    const { client, requests } = clientOf(
      (_, n) => (n === 1 ? Promise.reject(new TypeError('fetch failed')) : json(member('m1'))),
      [passing],
      {
        maxRetries: 1,
      },
    );
    await expect(client.members.get('m1')).resolves.toEqual(member('m1'));
    expect(requests).toHaveLength(2);
  });
});

describe('the option', () => {
  it.each([[() => undefined], [[42]], ['x'], [{}]])('%j is refused before any request', (middleware) => {
    const { fetch, requests } = recordingFetch(() => json(member('m1')));
    const build = () => new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, middleware: middleware as never });
    expect(build).toThrow(InvalidArgumentError);
    expect(build).toThrow(/middleware must be an array of functions/);
    expect(requests).toHaveLength(0);
  });
});
