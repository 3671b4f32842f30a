/**
 * The fault matrix: every fault against a GET (persistent and transient), a POST and a DELETE.
 * Socket faults (refused, reset mid-body, no answer) use real loopback servers; status and body
 * faults use a fetch double in front of the mock. Each cell asserts the outcome (a typed error,
 * or success after retries), the exact number of attempts, and a bound on the total time.
 * POST and DELETE are never retried.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ApiError,
  type CommunityServerClient,
  ConnectionError,
  InternalServerError,
  Page,
  RateLimitError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
} from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { afterAll, describe, expect, it } from 'vitest';
import { mockClient } from '../helpers';

const mock = createMockApi({ seed: 21 });
const TIMEOUT = 300;
/** The most equal-jitter backoff can wait before attempts 2 and 3 (0.5 s + 1 s). */
const MAX_BACKOFF = 1500;
const SLACK = 1500;

type Operation = 'GET' | 'GET (transient)' | 'POST' | 'DELETE';
const operations: Operation[] = ['GET', 'GET (transient)', 'POST', 'DELETE'];

const call = (client: CommunityServerClient, operation: Operation) => {
  if (operation === 'POST') return client.tokens.create({ name: 'fault' });
  if (operation === 'DELETE') return client.tokens.deactivate('some-token');
  return client.members.list();
};

// --- socket faults: loopback servers -------------------------------------------------------

const servers: { close(): void; closeAllConnections(): void }[] = [];
afterAll(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

/** A loopback server: `fault` answers attempts while `faulty(attempt)`, the mock the rest. */
async function loopback(fault: (req: IncomingMessage, res: ServerResponse) => void, faulty: (attempt: number) => boolean) {
  let attempts = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    attempts++;
    if (faulty(attempts)) return fault(req, res);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await mock.fetch(`http://x${req.url}`, {
      method: req.method!,
      headers: req.headers as Record<string, string>,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
  };
  // A failure drops the connection (the client sees a network error) instead of hanging the test.
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, attempts: () => attempts };
}

/** A port nothing listens on. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

// --- status and body faults: a fetch double in front of the mock ---------------------------

const order = [
  '408',
  '429, Retry-After seconds',
  '429, Retry-After date',
  '500',
  '502, HTML body',
  '503',
  '200, truncated JSON',
  '200, empty body',
  '200, non-JSON content type',
];
const httpDate = (msFromNow: number) => new Date(Date.now() + msFromNow).toUTCString();
// An array, not an object: integer-like keys would reorder.
const statusFaults: [string, () => Response][] = Object.entries({
  '408': () =>
    new Response('{"error":{"code":"timeout","message":"request timeout"}}', {
      status: 408,
      headers: { 'content-type': 'application/json' },
    }),
  '429, Retry-After seconds': () => new Response('{"error":"slow down"}', { status: 429, headers: { 'retry-after': '1' } }),
  '429, Retry-After date': () => new Response('{"error":"slow down"}', { status: 429, headers: { 'retry-after': httpDate(1500) } }),
  '500': () => new Response('{"error":{"code":"internal","message":"boom"}}', { status: 500 }),
  '502, HTML body': () =>
    new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', {
      status: 502,
      statusText: 'Bad Gateway',
      headers: { 'content-type': 'text/html' },
    }),
  '503': () => new Response('{"error":{"code":"unavailable","message":"maintenance"}}', { status: 503 }),
  '200, truncated JSON': () =>
    new Response('{"data":[{"id":"m1","serverId"', { status: 200, headers: { 'content-type': 'application/json' } }),
  '200, empty body': () => new Response('', { status: 200, headers: { 'content-type': 'application/json' } }),
  '200, non-JSON content type': () =>
    new Response('<!doctype html><title>Login</title>', { status: 200, headers: { 'content-type': 'text/html' } }),
}).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));

/** What a status fault's error must say beyond its class. */
const statusFields: Record<string, object> = {
  '408': { status: 408 },
  '429, Retry-After seconds': { retryAfter: expect.toSatisfy((seconds: number) => seconds >= 1) },
  '429, Retry-After date': { retryAfter: expect.toSatisfy((seconds: number) => seconds >= 1) },
  '502, HTML body': { status: 502, code: 'unknown' },
};

function doubled(fault: () => Response, faulty: (attempt: number) => boolean) {
  let attempts = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    attempts++;
    return faulty(attempts) ? fault() : mock.fetch(input, init);
  };
  return { fetch, attempts: () => attempts };
}

// --- the matrix ----------------------------------------------------------------------------

interface Expectation {
  /** The error class, or `'success'`. */
  outcome: (new (...args: never[]) => Error) | 'success';
  attempts: number;
  /** Extra time the fault itself costs (waits, timeouts), on top of backoff. */
  extraMs: number;
}

type Fault = {
  name: string;
  /** Retried by GET? */
  retried: boolean;
  error: new (...args: never[]) => Error;
  /** What the error carries beyond its class. */
  fields?: object;
  /** Time one faulty attempt costs. */
  attemptMs: number;
  /** Time waited before a retry instead of backoff (Retry-After). */
  retryWaitMs?: number;
  setup(
    faulty: (attempt: number) => boolean,
  ): Promise<{ options: { baseUrl: string; fetch?: typeof globalThis.fetch }; attempts: () => number }>;
};

const socket = (
  name: string,
  error: Fault['error'],
  attemptMs: number,
  fault: (req: IncomingMessage, res: ServerResponse) => void,
): Fault => ({
  name,
  retried: true,
  error,
  attemptMs,
  setup: async (faulty) => {
    const server = await loopback(fault, faulty);
    return { options: { baseUrl: server.url }, attempts: server.attempts };
  },
});

const faults: Fault[] = [
  {
    name: 'connection refused',
    retried: true,
    error: ConnectionError,
    attemptMs: 0,
    setup: async () => {
      let attempts = 0;
      const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
        attempts++;
        return globalThis.fetch(input, init);
      }) as typeof globalThis.fetch;
      return { options: { baseUrl: await closedPort(), fetch }, attempts: () => attempts };
    },
  },
  socket('connection reset mid-body', ConnectionError, 0, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
    res.write('{"data":[{"id":"m1",');
    setTimeout(() => res.socket?.destroy(), 10);
  }),
  socket('no answer (timeout)', TimeoutError, TIMEOUT, () => {
    /* never answers */
  }),
  ...statusFaults.map(([name, fault]): Fault => {
    const is200 = name.startsWith('200');
    return {
      name,
      retried: !is200,
      error: is200
        ? ResponseValidationError
        : name === '408'
          ? ApiError
          : name.startsWith('429')
            ? RateLimitError
            : name === '503'
              ? ServiceUnavailableError
              : InternalServerError,
      attemptMs: 0,
      ...(name.startsWith('429') ? { retryWaitMs: name.includes('date') ? 2000 : 1000 } : {}),
      ...(statusFields[name] ? { fields: statusFields[name] } : {}),
      setup: async (faulty) => {
        const double = doubled(fault, faulty);
        return { options: { baseUrl: 'https://community.test', fetch: double.fetch }, attempts: double.attempts };
      },
    };
  }),
];

function expectation(fault: Fault, operation: Operation): Expectation {
  const retries = operation.startsWith('GET') && fault.retried;
  const wait = (n: number) => n * (fault.retryWaitMs ?? MAX_BACKOFF / 2) + (fault.retryWaitMs ? 0 : MAX_BACKOFF / 2);
  if (operation === 'GET (transient)' && retries && fault.name !== 'connection refused') {
    return { outcome: 'success', attempts: 2, extraMs: fault.attemptMs + wait(1) };
  }
  if (!retries) return { outcome: fault.error, attempts: 1, extraMs: fault.attemptMs };
  return { outcome: fault.error, attempts: 3, extraMs: 3 * fault.attemptMs + wait(2) };
}

const cells = faults.flatMap((fault) => operations.map((operation) => ({ fault, operation, expected: expectation(fault, operation) })));

describe.concurrent('fault matrix', () => {
  it('covers every fault against GET, POST and DELETE', () => {
    expect(faults.map((f) => f.name)).toEqual(['connection refused', 'connection reset mid-body', 'no answer (timeout)', ...order]);
    expect(cells).toHaveLength(48);
  });

  it.each(cells.map((cell) => [cell.fault.name, cell.operation, cell] as const))(
    '%s × %s',
    async (_f, _o, { fault, operation, expected }) => {
      const transient = operation === 'GET (transient)';
      const { options, attempts } = await fault.setup((attempt) => !transient || attempt === 1);
      const client = mockClient(mock, { timeout: TIMEOUT, maxRetries: 2, ...options });
      const start = performance.now();
      const outcome = await call(client, operation).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      const elapsed = performance.now() - start;

      const succeeds = expected.outcome === 'success';
      expect(outcome).toEqual(
        succeeds
          ? { value: expect.objectContaining({ total: mock.store.main.members.size }) }
          : { error: expect.objectContaining(fault.fields ?? {}) },
      );
      expect('error' in outcome ? outcome.error : outcome.value).toBeInstanceOf(succeeds ? Page : expected.outcome);
      expect(attempts()).toBe(expected.attempts);
      expect(elapsed).toBeLessThan(expected.extraMs + SLACK);
    },
  );
});

// Kept apart from the matrix: POSTs and DELETEs that reach the mock through a fault double
// after the fault would create or deactivate tokens; the matrix never lets them through.
it('the mock is unchanged by the matrix (no POST or DELETE was replayed)', () => {
  expect(mock.store.tokens.size).toBe(5);
});
