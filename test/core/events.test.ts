/**
 * `client.on(event, listener)`: what a client tells about its calls (issue 18). Each attempt's
 * `request` and `response`, each `retry` with its reason and wait, each `rateLimitWait`; payloads
 * that name the endpoint and never hold the token; listeners that throw or reject lose nothing.
 */
import {
  CommunityServerClient,
  InvalidArgumentError,
  NotFoundError,
  type ClientEvents,
  type Logger,
  type RequestEvent,
  type ResponseEvent,
  type RetryEvent,
} from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { TOKEN, clientWith, errorBody, json, member, mockClient } from '../helpers';

/** Every event of `client`, in order, as `[name, payload]`. */
function record(client: CommunityServerClient) {
  const events: [keyof ClientEvents, unknown][] = [];
  for (const name of ['request', 'response', 'retry', 'rateLimitWait'] as const) {
    client.on(name, (event) => void events.push([name, event]));
  }
  return events;
}

const quietLogger = (): Logger & { warnings: string[] } => {
  const warnings: string[] = [];
  return { warnings, error: () => {}, warn: (line) => void warnings.push(line), info: () => {}, debug: () => {} };
};

describe('events of a call', () => {
  it('an answered call: request, then response with status and duration, named by the endpoint', async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    const events = record(client);
    const id = mock.store.main.members.all()[0]!.id;
    await client.members.get(id);
    expect(events).toEqual([
      ['request', { endpoint: 'members.get', method: 'GET', path: `/api/v1/server/members/${id}`, attempt: 1 }],
      [
        'response',
        {
          endpoint: 'members.get',
          method: 'GET',
          path: `/api/v1/server/members/${id}`,
          attempt: 1,
          status: 200,
          durationMs: expect.any(Number),
        },
      ],
    ]);
    expect((events[1]![1] as ResponseEvent).durationMs).toBeGreaterThanOrEqual(0);
  });

  it('every endpoint is named by its client method, nested namespaces included', async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    const names: string[] = [];
    client.on('request', ({ endpoint }) => void names.push(endpoint));
    const departmentId = mock.store.main.departments.all()[0]!.id;
    await client.cad.calls.list();
    await client.departments.members.list(departmentId);
    await client.health.live();
    await client.tokens.create({ name: 'events' });
    expect(names).toEqual(['cad.calls.list', 'departments.members.list', 'health.live', 'tokens.create']);
  });

  it('a retried call: each attempt, and a retry event saying why and how long before the next', async () => {
    const { client } = clientWith((_, attempt) =>
      attempt === 1 ? json(errorBody('down', 'down'), 503, { 'retry-after': '0' }) : json(member('m1')),
    );
    const events = record(client);
    await client.members.get('m1');
    expect(events.map(([name]) => name)).toEqual(['request', 'response', 'retry', 'request', 'response']);
    expect(events[2]![1]).toEqual({
      endpoint: 'members.get',
      method: 'GET',
      path: '/api/v1/server/members/m1',
      attempt: 1,
      reason: '503, Retry-After 0',
      status: 503,
      waitMs: 0,
    } satisfies RetryEvent);
    expect(events.map(([, event]) => (event as RequestEvent).attempt)).toEqual([1, 1, 1, 2, 2]);
  });

  it('an attempt without an answer has no response event; its retry says why (network error, timeout)', async () => {
    let calls = 0;
    const { client } = clientWith(
      async () => {
        calls++;
        if (calls === 1) throw new TypeError('fetch failed');
        if (calls === 2) return new Promise<Response>(() => {}); // never answers: the attempt times out
        return json(member('m1'));
      },
      { timeout: 100 },
    );
    const retries: RetryEvent[] = [];
    client.on('retry', (event) => void retries.push(event));
    await client.members.get('m1');
    expect(retries.map(({ reason, status, attempt }) => ({ reason, status, attempt }))).toEqual([
      { reason: 'network error (fetch failed)', status: undefined, attempt: 1 },
      { reason: 'timed out', status: undefined, attempt: 2 },
    ]);
  });

  it('a call that fails for good ends with its last response and no retry', async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    const events = record(client);
    await expect(client.members.get('nobody')).rejects.toBeInstanceOf(NotFoundError);
    expect(events.map(([name, event]) => [name, (event as { status?: number }).status])).toEqual([
      ['request', undefined],
      ['response', 404],
    ]);
  });
});

describe('no payload ever holds the token', () => {
  it('not even when a caller puts the token in an id', async () => {
    const { client } = clientWith(() => json(errorBody('nf', 'not found'), 404));
    const events = record(client);
    await client.members.get(`x${TOKEN}y`).catch(() => undefined);
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect((events[0]![1] as RequestEvent).path).toBe('/api/v1/server/members/x[redacted]y');
  });
});

describe('listeners', () => {
  it('on() returns the removal; a function added twice is two listeners, removed one at a time', async () => {
    const { client } = clientWith(() => json(member('m1')));
    const heard: number[] = [];
    const listener = () => void heard.push(1);
    const offFirst = client.on('request', listener);
    const offSecond = client.on('request', listener);
    await client.members.get('m1');
    expect(heard).toHaveLength(2);
    offFirst();
    offFirst(); // twice: no effect on the other registration
    await client.members.get('m1');
    expect(heard).toHaveLength(3);
    offSecond();
    await client.members.get('m1');
    expect(heard).toHaveLength(3);
  });

  it('a listener that throws, or returns a rejected promise, loses nothing: the call succeeds, the others hear it, one warning each', async () => {
    const logger = quietLogger();
    const { client } = clientWith(() => json(member('m1')), { logger });
    const heard: string[] = [];
    client.on('request', () => {
      throw new Error(`broken listener ${TOKEN}`);
    });
    client.on('request', () => Promise.reject(new Error('async listener failed')));
    client.on('request', ({ endpoint }) => void heard.push(endpoint));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await expect(client.members.get('m1')).resolves.toMatchObject({ id: 'm1' });
      await expect(client.members.get('m1')).resolves.toMatchObject({ id: 'm1' });
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(heard).toEqual(['members.get', 'members.get']);
    expect(unhandled).toEqual([]);
    expect(logger.warnings).toEqual([
      "community-server-sdk: a 'request' listener failed (broken listener [redacted]); the call went on",
      "community-server-sdk: a 'request' listener failed (async listener failed); the call went on",
    ]);
  });

  it('a listener that removes itself during an event does not stop the others from hearing it', async () => {
    const { client } = clientWith(() => json(member('m1')));
    const heard: string[] = [];
    const off = client.on('request', () => {
      heard.push('first');
      off();
    });
    client.on('request', () => void heard.push('second'));
    await client.members.get('m1');
    await client.members.get('m1');
    expect(heard).toEqual(['first', 'second', 'second']);
  });

  it('refuses an unknown event or a listener that is not a function, before anything is sent', () => {
    const { client, requests } = clientWith(() => json(member('m1')));
    expect(() => client.on('requst' as never, () => {})).toThrow(InvalidArgumentError);
    expect(() => client.on('requst' as never, () => {})).toThrow(`unknown event "requst" (known: request, response, retry, rateLimitWait)`);
    expect(() => client.on('request', 'listener' as never)).toThrow('a listener must be a function, got "listener"');
    expect(requests).toEqual([]);
  });
});
