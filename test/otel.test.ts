/**
 * `community-server-sdk/otel` (issue 18): one client span per call named by its endpoint, with
 * the OpenTelemetry HTTP client attributes; retries and rate-limit waits as span events; errors
 * recorded; the call's span active while its fetch runs, so that the spans undici's real
 * auto-instrumentation makes for each attempt nest under it. Read with the OpenTelemetry SDK's
 * in-memory exporter.
 */
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { CommunityServerClient, ConnectionError, InvalidArgumentError, NotFoundError } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';
import { instrument } from 'community-server-sdk/otel';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BASE_URL, clientWith, errorBody, json, member, mockClient } from './helpers';

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
    await Promise.all([client.roles.list(), client.roles.list()]);
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
