/**
 * `community-server-sdk/otel`: OpenTelemetry tracing of a client's calls. Each call gets one
 * client span named by its endpoint (`members.get`), with the HTTP client attributes of the
 * OpenTelemetry semantic conventions; retries and rate-limit waits are span events; a failed
 * call records its error. While the call runs its span is the active context, so the spans an
 * auto-instrumentation makes for the fetch itself (undici's, in Node) nest under it.
 * `@opentelemetry/api` is an optional peer dependency: install it to use this entry.
 * @example
 * import { trace } from '@opentelemetry/api';
 * import { CommunityServerClient } from 'community-server-sdk';
 * import { instrument } from 'community-server-sdk/otel';
 *
 * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com' });
 * instrument(client, { tracerProvider: trace.getTracerProvider() });
 * await client.members.list(); // one span "members.list", with http.request.method, url.full, http.response.status_code…
 * @module community-server-sdk/otel
 */
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type TracerProvider } from '@opentelemetry/api';
import { checkOptions, describe } from './core/arguments';
import { InvalidArgumentError } from './core/error-classes';
import type { ClientEvents } from './core/events';
import { describeThrown } from './core/describe';
import type { CallInfo, CallObservation } from './core/observe';
import type { CommunityServerClient } from './client';
import { version } from '../package.json';

/**
 * Options of {@link instrument}.
 * @example
 * const options: InstrumentOptions = { tracerProvider: provider };
 * instrument(client, options);
 */
export interface InstrumentOptions {
  /** Where the spans go (default: the global provider, `trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider | undefined;
}

/** The tracer's name: the instrumentation scope of every span. */
const SCOPE = 'community-server-sdk';

/** The semantic conventions' HTTP client attributes known when the call starts. */
function requestAttributes(call: CallInfo): Attributes {
  const url = new URL(call.url);
  return {
    'http.request.method': call.method,
    'server.address': url.hostname,
    'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    'url.full': call.url,
    'url.template': call.template,
    'community_server.endpoint': call.endpoint,
  };
}

/**
 * One call's span: the observation of it the client drives (`client.observe`). What the span or
 * the provider throws is the client's to catch: it reports a failing tracer once and lets the
 * call go on unchanged.
 */
function callTrace(span: Span): CallObservation {
  let attempts = 0;
  return {
    run: (call) => context.with(trace.setSpan(context.active(), span), call),
    event: <Name extends keyof ClientEvents>(name: Name, event: ClientEvents[Name]) => {
      if (name === 'request') attempts = (event as ClientEvents['request']).attempt;
      else if (name === 'retry') {
        const { attempt, reason, status, waitMs } = event as ClientEvents['retry'];
        span.addEvent('retry', {
          attempt,
          reason,
          'wait.ms': waitMs,
          ...(status === undefined ? {} : { 'http.response.status_code': status }),
        });
      } else if (name === 'rateLimitWait') span.addEvent('rate_limit_wait', { 'wait.ms': (event as ClientEvents['rateLimitWait']).waitMs });
    },
    end: ({ status, error }) => {
      try {
        if (status !== undefined) span.setAttribute('http.response.status_code', status);
        if (attempts > 1) span.setAttribute('http.request.resend_count', attempts - 1);
        if (error !== undefined) {
          // The conventions' error.type: the status of an HTTP error, else the error's class (a
          // body failing its schema came with a 2xx: its class says what went wrong).
          const type = status !== undefined && status >= 400 ? String(status) : error instanceof Error ? error.name : '_OTHER';
          span.setAttribute('error.type', type);
          // Name, message and stack only: OpenTelemetry would take an ApiError's `code` for exception.type.
          span.recordException(
            error instanceof Error
              ? { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) }
              : describeThrown(error),
          );
          span.setStatus({ code: SpanStatusCode.ERROR, message: describeThrown(error) });
        }
      } finally {
        span.end(); // ended even when an attribute throws, so no span is left open
      }
    },
  };
}

/**
 * Traces every call of `client` from now on: one span per call, named by its endpoint
 * (`members.get`), of kind client, with `http.request.method`, `server.address`, `server.port`,
 * `url.full`, `url.template`, and at the end `http.response.status_code`,
 * `http.request.resend_count` (when retried) and `error.type` (when it failed). Retries and
 * rate-limit holds are span events (`retry`, `rate_limit_wait`); a failed call (a body failing
 * its schema included: the span ends once the body is checked) records its error and sets the
 * span's status to error. The span is the active context while the call's fetches run. Tracing
 * only observes: a provider, span or span processor that throws never changes what a call returns
 * or throws; the client logs one warning and goes on. Called again with the same provider, it
 * traces nothing twice. Returns a function that stops tracing this client (once every
 * `instrument()` with this provider is undone).
 * @example
 * import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
 *
 * const exporter = new InMemorySpanExporter();
 * const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
 * const stop = instrument(client, { tracerProvider: provider });
 * await client.members.get(id);
 * console.log(exporter.getFinishedSpans().map((span) => span.name)); // ['members.get']
 * stop();
 */
export function instrument(client: CommunityServerClient, options: InstrumentOptions = {}): () => void {
  checkOptions(options, ['tracerProvider'], 'instrument');
  const observable = client as Partial<Pick<CommunityServerClient, 'observe'>> | null | undefined;
  if (typeof observable?.observe !== 'function') {
    throw new InvalidArgumentError(`instrument() needs a CommunityServerClient, got ${describe(client)}`);
  }
  const provider = options.tracerProvider ?? trace.getTracerProvider();
  if (typeof (provider as Partial<TracerProvider> | null)?.getTracer !== 'function') {
    throw new InvalidArgumentError(`tracerProvider must have a getTracer method, got ${describe(provider)}`);
  }
  const byProvider = installed.get(client) ?? new Map<TracerProvider, Installed>();
  installed.set(client, byProvider);
  let tracing = byProvider.get(provider);
  if (!tracing) {
    const tracer = provider.getTracer(SCOPE, version);
    // The client's public hook around each whole call: middleware is per attempt, a span is per call.
    const remove = client.observe((call) =>
      callTrace(tracer.startSpan(call.endpoint, { kind: SpanKind.CLIENT, attributes: requestAttributes(call) })),
    );
    byProvider.set(provider, (tracing = { count: 0, remove }));
  }
  const installation = tracing;
  installation.count++;
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    if (--installation.count > 0) return;
    installation.remove();
    byProvider.delete(provider);
  };
}

/** One provider's tracing of a client: how many `instrument()` calls still want it, and its removal. */
interface Installed {
  count: number;
  readonly remove: () => void;
}

/**
 * Each client's tracing, by provider: `instrument()` called again with the same provider (a
 * setup run twice, a middleware per request) traces nothing twice, and holds nothing more.
 */
const installed = new WeakMap<object, Map<TracerProvider, Installed>>();
