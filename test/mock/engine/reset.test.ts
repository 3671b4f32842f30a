/**
 * `mock.reset()` fences the requests in flight (issue 23, item 8): a request that began before a
 * reset belongs to the old state. It may finish and answer, but it writes nothing into the new
 * store, is not in the new journal, counts against no new rate-limit window, and takes no fault
 * added since, on every door: `mock.fetch`, msw handlers, the HTTP server.
 */
import { createMockApi, type MockApi, type MockOptions } from 'community-server-sdk/mock';
import { setupMockServer, startMockHttpServer } from 'community-server-sdk/mock/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MOCK_ORIGIN, rawAnswer, rawRequest } from '../../helpers';

/** A fixed instant after the seeded world. */
const NOON = Date.UTC(2026, 10, 20, 12, 0, 0);

/**
 * A mock whose clock resets the mock the first time it is read once `armed`: a request reads the
 * clock as it is served, so that reset comes in the middle of it, at the same point every time.
 */
function resetMidway(options: MockOptions = {}) {
  let armed = false;
  const mock: MockApi = createMockApi({
    ...options,
    now: () => {
      if (armed) {
        armed = false;
        mock.reset();
      }
      return NOON;
    },
  });
  return { mock, arm: () => (armed = true) };
}

/** What the new state holds that a token created by a request in flight would have changed. */
const newState = (mock: MockApi, name: string) => ({
  tokens: mock.store.tokens.all().filter((token) => token.name === name).length,
  journal: mock.requests.length,
});

/** Sends `tokens.create({ name })` through each door, and answers its status and body. */
type Door = (mock: MockApi, name: string) => Promise<{ status: number; json: { name?: string } }>;

const DOORS: [string, (mock: MockApi) => Promise<{ send: Door; close(): Promise<void> }>][] = [
  [
    'mock.fetch',
    async () => ({ send: (mock, name) => rawAnswer(mock, '/api/v1/tokens', { method: 'POST', json: { name } }), close: async () => {} }),
  ],
  [
    'msw handlers (setupMockServer)',
    async (mock) => {
      const server = setupMockServer(mock);
      server.listen({ onUnhandledRequest: 'error' });
      const send: Door = async (sent, name) => {
        const response = await fetch(`${MOCK_ORIGIN}/api/v1/tokens`, {
          method: 'POST',
          headers: { authorization: `Bearer ${sent.tokens.main}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
        return { status: response.status, json: await response.json() };
      };
      return { send, close: async () => server.close() };
    },
  ],
  [
    'the HTTP server',
    async (mock) => {
      const http = await startMockHttpServer({ mock });
      const send: Door = (sent, name) => rawAnswer(sent, '/api/v1/tokens', { method: 'POST', json: { name }, baseUrl: http.url });
      return { send, close: () => http.close() };
    },
  ],
];

describe('a request in flight across reset() belongs to the old state', () => {
  it.each(DOORS)('%s: it answers, and the new store, journal and metrics have none of it', async (_, open) => {
    const { mock, arm } = resetMidway();
    const door = await open(mock);
    try {
      arm();
      const answer = await door.send(mock, 'in-flight');
      expect([answer.status, answer.json.name]).toEqual([201, 'in-flight']); // it finished, in the old state
      expect(newState(mock, 'in-flight')).toEqual({ tokens: 0, journal: 0 });
      const metrics = await rawAnswer(mock, '/metrics');
      expect(metrics.json.requestsServed).toEqual({}); // not even counted: this /metrics is answered after it is counted
      // A request after the reset is the new state's.
      expect((await door.send(mock, 'after')).status).toBe(201);
      expect(newState(mock, 'after')).toEqual({ tokens: 1, journal: 2 });
    } finally {
      await door.close();
    }
  });

  it('it counts against no window of the new rate limit', async () => {
    const { mock, arm } = resetMidway({ rateLimit: { limit: 1, windowMs: 60_000 } });
    arm();
    expect((await rawAnswer(mock, '/api/v1/server/roles')).status).toBe(200);
    // The new window is whole: the old request's use of it was the old state's.
    const first = await rawAnswer(mock, '/api/v1/server/roles');
    expect([first.status, first.headers.get('x-ratelimit-remaining')]).toEqual([200, '0']);
    expect((await rawAnswer(mock, '/api/v1/server/roles')).status).toBe(429);
  });
});

describe('a request held by latency across reset()', () => {
  afterEach(() => vi.useRealTimers());

  /** Resolves once the mock holds a request in a timer (its latency). */
  const held = async () => {
    while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
  };

  it('the latency option: it writes nothing new, and takes no fault added since', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const mock = createMockApi({ latency: 1_000, now: () => NOON });
    const pending = rawAnswer(mock, '/api/v1/tokens', { method: 'POST', json: { name: 'held' } });
    await held();
    mock.reset();
    mock.faults.add({ endpoint: 'tokens.create', status: 503, times: 1 }); // the new state's fault
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await pending).status).toBe(201);
    expect(newState(mock, 'held')).toEqual({ tokens: 0, journal: 0 });
    // The new state's fault is still there for the new state's first request.
    const next = rawAnswer(mock, '/api/v1/tokens', { method: 'POST', json: { name: 'next' } });
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await next).status).toBe(503);
  });

  it('a fault’s latencyMs: the request finishes in the old state', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const mock = createMockApi({ now: () => NOON });
    mock.faults.add({ endpoint: 'tokens.create', latencyMs: 5_000, times: 1 });
    const pending = rawRequest(mock, '/api/v1/tokens', { method: 'POST', json: { name: 'held' } });
    await held();
    mock.reset();
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await pending).status).toBe(201);
    expect(newState(mock, 'held')).toEqual({ tokens: 0, journal: 0 });
  });
});
