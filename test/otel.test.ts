/**
 * `community-server-sdk/otel` (issue 18): one client span per call named by its endpoint, with
 * the OpenTelemetry HTTP client attributes; retries and rate-limit waits as span events; errors
 * recorded; the call's span active while its fetch runs, so that the spans undici's real
 * auto-instrumentation makes for each attempt nest under it. Read with the OpenTelemetry SDK's
 * in-memory exporter.
 */
import { context, SpanKind, SpanStatusCode, trace, type TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  AbortError,
  CommunityServerClient,
  ConnectionError,
  InvalidArgumentError,
  NotFoundError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
  type ClientOptions,
  type RequestOptions,
} from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';
import { instrument } from 'community-server-sdk/otel';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BASE_URL, TOKEN, clientWith, errorBody, json, member, mockClient, target, type Handler } from './helpers';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => void context.setGlobalContextManager(contextManager.enable()));
afterAll(() => {
  context.disable();
  contextManager.disable();
});
beforeEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const only = (): ReadableSpan => {
  expect(spans()).toHaveLength(1);
  return spans()[0]!;
};

describe('a span per call', () => {
  it('named by the endpoint, of kind client, with the HTTP client attributes of the semantic conventions', async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    instrument(client, { tracerProvider: provider });
    const id = mock.store.main.members.all()[0]!.id;
    await client.members.get(id);
    const span = only();
    expect(span.name).toBe('members.get');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.instrumentationScope.name).toBe('community-server-sdk');
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': 'community.test',
      'server.port': 443,
      'url.full': `https://community.test/api/v1/server/members/${id}`,
      'url.template': '/api/v1/server/members/{memberId}',
      'community_server.endpoint': 'members.get',
      'http.response.status_code': 200,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events).toEqual([]);
  });

  it('a list call and each page it walks are calls of their own, each with its query in url.full', async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    instrument(client, { tracerProvider: provider });
    await client.roles.list({ pageSize: 5 }).toArray();
    const pages = Math.ceil(mock.store.main.roles.size / 5);
    expect(spans().map((span) => span.name)).toEqual(new Array(pages).fill('roles.list'));
    expect(spans().map((span) => span.attributes['url.full'])).toContain('https://community.test/api/v1/server/roles?pageSize=5&page=2');
  });

  it('retries are span events with the attempt, the reason and the wait; the span counts the resends', async () => {
    const { client } = clientWith((_, attempt) =>
      attempt < 3 ? json(errorBody('down', 'down'), 503, { 'retry-after': '0' }) : json(member('m1')),
    );
    instrument(client, { tracerProvider: provider });
    await client.members.get('m1');
    const span = only();
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
      ['retry', { attempt: 1, reason: '503, Retry-After 0', 'wait.ms': 0, 'http.response.status_code': 503 }],
      ['retry', { attempt: 2, reason: '503, Retry-After 0', 'wait.ms': 0, 'http.response.status_code': 503 }],
    ]);
    expect(span.attributes).toMatchObject({ 'http.response.status_code': 200, 'http.request.resend_count': 2 });
  });

  it('a rate-limit hold is a span event with its length', async () => {
    const mock = createMockApi({ rateLimit: { limit: 1, windowMs: 200 } });
    const client = mockClient(mock);
    instrument(client, { tracerProvider: provider });
    // Two different requests: two identical ones would be sent once.
    await Promise.all([client.roles.list(), client.roles.list({ pageSize: 5 })]);
    const waits = spans().flatMap((span) => span.events.filter((event) => event.name === 'rate_limit_wait'));
    expect(waits).toHaveLength(1);
    expect(waits[0]!.attributes!['wait.ms']).toBeGreaterThan(0);
  });

  it('an HTTP error is recorded: error status, the exception, error.type the status code', async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    instrument(client, { tracerProvider: provider });
    const error = await client.members.get('nobody').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const span = only();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    expect(span.attributes).toMatchObject({ 'http.response.status_code': 404, 'error.type': '404' });
    expect(span.events.map((event) => [event.name, event.attributes?.['exception.type']])).toEqual([['exception', 'NotFoundError']]);
  });

  it('a transport failure is recorded with error.type its class, and no status code', async () => {
    const { client } = clientWith(() => Promise.reject(new TypeError('fetch failed')), { maxRetries: 0 });
    instrument(client, { tracerProvider: provider });
    await expect(client.members.get('m1')).rejects.toBeInstanceOf(ConnectionError);
    const span = only();
    expect(span.attributes['error.type']).toBe('ConnectionError');
    expect(span.attributes['http.response.status_code']).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("the call's span is the active one while its fetch runs", async () => {
    const active: (string | undefined)[] = [];
    const { client } = clientWith(() => {
      active.push(trace.getActiveSpan()?.spanContext().spanId);
      return json(member('m1'));
    });
    instrument(client, { tracerProvider: provider });
    await client.members.get('m1');
    expect(active).toEqual([only().spanContext().spanId]);
  });

  it("undici's auto-instrumented spans of each attempt nest under the call's span, over real HTTP", async () => {
    const mock = createMockApi();
    const http = await startMockHttpServer({ mock });
    const undici = new UndiciInstrumentation();
    undici.setTracerProvider(provider);
    undici.enable();
    try {
      const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: http.url, maxRetries: 0 });
      instrument(client, { tracerProvider: provider });
      await client.roles.list();
      const call = spans().find((span) => span.name === 'roles.list')!;
      const fetches = spans().filter((span) => span !== call);
      expect(fetches).toHaveLength(1);
      expect(fetches[0]!.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
      expect(fetches[0]!.spanContext().traceId).toBe(call.spanContext().traceId);
      expect(call.attributes['server.port']).toBe(http.port);
    } finally {
      undici.disable();
      await http.close();
    }
  });
});

describe('instrument()', () => {
  it('returns the function that stops tracing the client', async () => {
    const mock = createMockApi();
    const client = mockClient(mock);
    const stop = instrument(client, { tracerProvider: provider });
    await client.health.live();
    stop();
    await client.health.live();
    expect(spans()).toHaveLength(1);
  });

  it('a provider whose spans throw never fails the call', async () => {
    const broken = {
      getTracer: () => ({
        startSpan: () => {
          const span = trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 });
          return Object.assign(span, {
            end: () => {
              throw new Error('exporter down');
            },
            addEvent: () => {
              throw new Error('exporter down');
            },
          });
        },
        startActiveSpan: () => undefined,
      }),
    };
    const mock = createMockApi();
    const client = mockClient(mock);
    instrument(client, { tracerProvider: broken });
    await expect(client.health.live()).resolves.toEqual({ status: 'ok' });
  });

  it('refuses what is not a client, a provider without getTracer, and unknown options', () => {
    const client = new CommunityServerClient({ token: 'cs_test_5f2b9c1e7a', baseUrl: BASE_URL });
    expect(() => instrument({} as never)).toThrow(InvalidArgumentError);
    expect(() => instrument(null as never)).toThrow('instrument() needs a CommunityServerClient, got null');
    expect(() => instrument(client, { tracerProvider: {} as never })).toThrow('tracerProvider must have a getTracer method');
    expect(() => instrument(client, { provider } as never)).toThrow('unknown instrument option "provider" (known: tracerProvider)');
  });
});

describe('issue 23 hardening: client — item 3: a tracer that throws changes nothing of the call', () => {
  /** Every line the client logs, at every level. */
  const recorder = () => {
    const lines: string[] = [];
    const write = (line: string) => void lines.push(line);
    return { lines, logger: { error: write, warn: write, info: write, debug: write } };
  };
  const failing = (where: string) => () => {
    throw new Error(`${where} failed for Bearer ${TOKEN}`);
  };
  /** A span processor whose `onStart` or `onEnd` throws, as one with a bug or a dead exporter does. */
  const processor = (broken: 'onStart' | 'onEnd') => ({
    onStart: () => {},
    onEnd: () => {},
    forceFlush: async () => {},
    shutdown: async () => {},
    [broken]: failing(broken),
  });
  /** A provider whose spans are the SDK's, with one of their methods throwing. */
  const spansThrowing = (method: 'setAttribute' | 'addEvent' | 'end' | 'recordException') => ({
    getTracer: (...args: Parameters<typeof provider.getTracer>) => {
      const tracer = provider.getTracer(...args);
      return Object.assign(Object.create(tracer) as typeof tracer, {
        startSpan: (...span: Parameters<typeof tracer.startSpan>) =>
          Object.assign(tracer.startSpan(...span), { [method]: failing(method) }),
      });
    },
  });
  /** A context manager whose `with` misbehaves: throws before or after running the call (reported), never runs it, or runs it twice. */
  const contextManagers: [string, (fn: () => unknown) => unknown, boolean][] = [
    ['throws before running the call', () => failing('with')(), true],
    [
      'throws after running the call',
      (fn) => {
        fn();
        failing('with')();
      },
      true,
    ],
    ['never runs the call', () => undefined, false],
    ['runs the call twice', (fn) => (fn(), fn()), false],
  ];

  interface Broken {
    tracerProvider: TracerProvider;
    with?: (fn: () => unknown) => unknown;
    /** Whether it throws, and so is reported. */
    throws: boolean;
  }
  const broken: [string, Broken][] = [
    [
      "a span processor's onStart throws (so startSpan does)",
      { tracerProvider: new BasicTracerProvider({ spanProcessors: [processor('onStart')] }), throws: true },
    ],
    [
      "a span processor's onEnd throws (so span.end does)",
      { tracerProvider: new BasicTracerProvider({ spanProcessors: [processor('onEnd')] }), throws: true },
    ],
    ['setAttribute throws', { tracerProvider: spansThrowing('setAttribute'), throws: true }],
    ['addEvent throws', { tracerProvider: spansThrowing('addEvent'), throws: true }],
    ['recordException throws', { tracerProvider: spansThrowing('recordException'), throws: true }],
    ...contextManagers.map(([what, behaviour, throws]): [string, Broken] => [
      `the context manager's with ${what}`,
      { tracerProvider: provider, with: behaviour, throws },
    ]),
  ];

  /** The calls each case makes, untraced and traced: a success, a retried success, a 404, a body failing its schema. */
  const handler: Handler = (request, attempt) => {
    const path = new URL(request.url).pathname;
    if (path.endsWith('/retried') && attempt % 2 === 1) return json(errorBody('down', 'down'), 503, { 'retry-after': '0' });
    if (path.endsWith('/nobody')) return json(errorBody('member_not_found', 'no such member'), 404);
    if (path.endsWith('/malformed')) return json({ id: 1 });
    return json(member('m1'));
  };
  const calls = async (client: CommunityServerClient) => {
    const outcomes: unknown[] = [];
    for (const id of ['m1', 'retried', 'nobody', 'malformed', 'm1']) {
      try {
        outcomes.push({ value: await client.members.get(id) });
      } catch (error) {
        outcomes.push({ error: (error as Error).constructor.name, message: (error as Error).message });
      }
    }
    return outcomes;
  };

  it.each(broken)(
    '%s: every call returns or throws what it would untraced, and runs once; a throw is warned of once',
    async (_, failure) => {
      const untraced = clientWith(handler);
      const expected = await calls(untraced.client);

      const { lines, logger } = recorder();
      const traced = clientWith(handler, { logger });
      instrument(traced.client, { tracerProvider: failure.tracerProvider });
      if (failure.with) {
        const manager = new AsyncLocalStorageContextManager().enable();
        const misbehaving = failure.with;
        manager.with = ((_context: unknown, fn: () => unknown) => misbehaving(fn)) as typeof manager.with;
        context.disable();
        context.setGlobalContextManager(manager);
      }
      try {
        expect(await calls(traced.client)).toEqual(expected);
      } finally {
        if (failure.with) {
          context.disable();
          context.setGlobalContextManager(contextManager.enable());
        }
      }
      expect(traced.requests.map(target)).toEqual(untraced.requests.map(target));
      const warnings = lines.filter((line) => line.includes('tracer failed'));
      expect(warnings).toHaveLength(failure.throws ? 1 : 0);
      for (const warning of warnings) expect(warning).not.toContain(TOKEN);
    },
  );

  it('a tracer that fails is reported once per client: each client says it once', async () => {
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [processor('onStart')] });
    const { lines, logger } = recorder();
    for (let i = 0; i < 2; i++) {
      const { client } = clientWith(() => json(member('m1')), { logger });
      instrument(client, { tracerProvider });
      await client.members.get('m1');
      await client.members.get('m1');
    }
    expect(lines.filter((line) => line.includes('tracer failed'))).toHaveLength(2);
  });

  it('a second tracer still traces when the first one fails', async () => {
    const { client } = clientWith(() => json(member('m1')), { logger: recorder().logger });
    instrument(client, { tracerProvider: new BasicTracerProvider({ spanProcessors: [processor('onStart')] }) });
    instrument(client, { tracerProvider: provider });
    await client.members.get('m1');
    expect(only().name).toBe('members.get');
  });
});

describe("issue 23 hardening: client — item 7: a failed call's span says so, whatever failed", () => {
  const hang: Handler = (request) =>
    new Promise((_, reject) => {
      if (request.signal.aborted) reject(request.signal.reason);
      else request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
    });

  const failures: [
    string,
    Handler,
    ClientOptions,
    (signal: AbortSignal) => RequestOptions,
    new (...args: never[]) => Error,
    string,
    number | undefined,
  ][] = [
    ['a 404', () => json(errorBody('member_not_found', 'no'), 404), {}, () => ({}), NotFoundError, '404', 404],
    [
      'a 503, retries spent',
      () => json(errorBody('down', 'down'), 503),
      { maxRetries: 0 },
      () => ({}),
      ServiceUnavailableError,
      '503',
      503,
    ],
    ['a 2xx body failing its schema', () => json({ id: 1 }), {}, () => ({}), ResponseValidationError, 'ResponseValidationError', 200],
    [
      'a 2xx body that is not JSON',
      () => new Response('<html>', { status: 200 }),
      {},
      () => ({}),
      ResponseValidationError,
      'ResponseValidationError',
      200,
    ],
    ['a timeout', hang, { timeout: 20, maxRetries: 0 }, () => ({}), TimeoutError, 'TimeoutError', undefined],
    ['an abort', hang, {}, (signal) => ({ signal }), AbortError, 'AbortError', undefined],
    [
      'a network error',
      () => Promise.reject(new TypeError('fetch failed')),
      { maxRetries: 0 },
      () => ({}),
      ConnectionError,
      'ConnectionError',
      undefined,
    ],
  ];

  it.each(failures)(
    '%s: status ERROR, error.type, the exception recorded',
    async (_, handler, options, requestOptions, type, errorType, status) => {
      const { client } = clientWith(handler, options);
      instrument(client, { tracerProvider: provider });
      const controller = new AbortController();
      client.on('request', () => controller.abort());
      const error = (await client.members.get('m1', requestOptions(controller.signal)).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(type);
      const span = only();
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: error.message });
      expect(span.attributes['error.type']).toBe(errorType);
      expect(span.attributes['http.response.status_code']).toBe(status);
      expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
        ['exception', { 'exception.type': error.name, 'exception.message': error.message, 'exception.stacktrace': error.stack }],
      ]);
    },
  );

  it('a list page whose envelope cannot be paged: status ERROR, error.type ResponseValidationError', async () => {
    const { client } = clientWith(() => json({ data: 'abc', page: 1, pageSize: 10, total: 3, totalPages: 1 }), { validation: 'off' });
    instrument(client, { tracerProvider: provider });
    await expect(client.members.list()).rejects.toBeInstanceOf(ResponseValidationError);
    expect(only().status.code).toBe(SpanStatusCode.ERROR);
    expect(only().attributes['error.type']).toBe('ResponseValidationError');
  });

  it('an argument refused before sending starts no span: nothing was sent, and there is no URL to describe', async () => {
    const { client, requests } = clientWith(() => json(member('m1')));
    instrument(client, { tracerProvider: provider });
    await expect(client.members.get('')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(client.cad.units.get(1.5)).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(requests).toEqual([]);
    expect(spans()).toEqual([]);
  });
});

describe('issue 23 hardening 2: a span tells no status the service never answered', () => {
  it('a call the rate-limit gate refuses (never sent): error.type its class, no http.response.status_code', async () => {
    const spent = () => json(member('m1'), 200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '30' });
    const { client, requests } = clientWith(spent, { timeout: 1_000 });
    instrument(client, { tracerProvider: provider });
    await client.members.get('m1');
    const error = await client.members.get('m2').catch((thrown: unknown) => thrown as Error);
    expect(error).toMatchObject({ name: 'RateLimitError', code: 'rate_limit_wait_exceeds_timeout' });
    expect(requests).toHaveLength(1);
    const refused = spans()[1]!;
    expect(refused.status.code).toBe(SpanStatusCode.ERROR);
    expect(refused.attributes['error.type']).toBe('RateLimitError');
    expect(refused.attributes).not.toHaveProperty('http.response.status_code');
  });

  it('a call whose last attempt got no answer tells no status, whatever an earlier attempt was answered', async () => {
    const { client } = clientWith(
      (_, attempt) =>
        attempt === 1 ? json(errorBody('down', 'down'), 503, { 'retry-after': '0' }) : Promise.reject(new TypeError('fetch failed')),
      { maxRetries: 1 },
    );
    instrument(client, { tracerProvider: provider });
    await expect(client.members.get('m1')).rejects.toBeInstanceOf(ConnectionError);
    expect(only().attributes).not.toHaveProperty('http.response.status_code');
    expect(only().attributes['error.type']).toBe('ConnectionError');
  });
});

describe('issue 23 hardening 2: instrument() twice with one provider traces each call once', () => {
  it('one span a call however often it is called; each removal undoes one instrument(), and the last stops tracing', async () => {
    const { client } = clientWith(() => json(member('m1')));
    const stops = Array.from({ length: 3 }, () => instrument(client, { tracerProvider: provider }));
    await client.members.get('m1');
    expect(spans()).toHaveLength(1);
    stops[0]!();
    stops[0]!(); // twice is once
    stops[1]!();
    await client.members.get('m1');
    expect(spans()).toHaveLength(2);
    stops[2]!();
    await client.members.get('m1');
    expect(spans()).toHaveLength(2);
  });

  it('another provider gets its own span', async () => {
    const other = new InMemorySpanExporter();
    const { client } = clientWith(() => json(member('m1')));
    instrument(client, { tracerProvider: provider });
    instrument(client, { tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(other)] }) });
    await client.members.get('m1');
    expect([spans().length, other.getFinishedSpans().length]).toEqual([1, 1]);
  });
});
