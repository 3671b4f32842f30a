import { format, inspect } from 'node:util';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  AbortError,
  CommunityServerClient,
  ConnectionError,
  InvalidArgumentError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
  type ClientOptions,
} from 'community-server-sdk';
import { instrument } from 'community-server-sdk/otel';
import { describe, expect, it, vi } from 'vitest';
import { BASE_URL, TOKEN, clientWith, errorBody, json, member, type Handler } from '../helpers';

/** Every way an error or client is commonly rendered: logs, inspectors, JSON, stacks, causes. */
function renderings(value: unknown): string[] {
  const error = value as Error;
  return [
    String(value),
    inspect(value, { depth: 10, showHidden: true, getters: true }),
    JSON.stringify(value) ?? '',
    JSON.stringify({ ...(value as object) }),
    error?.stack ?? '',
    inspect(error?.cause, { depth: 10, showHidden: true }),
  ];
}

/** Renderings to the bottom: inspect at any depth with hidden properties and getters, console.error's format, JSON. */
const deepRenderings = (error: Error): string[] => {
  const attempt = (render: () => string | undefined) => {
    try {
      return render() ?? '';
    } catch (e) {
      return `(render threw ${String(e)})`;
    }
  };
  return [
    ...renderings(error),
    inspect(error, { depth: Infinity, showHidden: true, getters: true }),
    inspect(error, { depth: Infinity }),
    format('%o', error),
    format('%s', error),
    attempt(() => JSON.stringify(error.cause)),
    attempt(() => JSON.stringify(Object.assign({}, error.cause))),
  ];
};

/** `value` is an error (a call that should fail did), and none of its renderings shows the token. */
const expectNoToken = (value: unknown) => {
  expect(value).toBeInstanceOf(Error);
  for (const text of renderings(value)) expect(text).not.toContain(TOKEN);
};

describe('the token never leaves in an error', () => {
  const echoes = [
    ['a 401 whose body echoes the token', () => json({ error: `invalid or expired token: ${TOKEN}` }, 401)],
    [
      'a 400 whose details echo it, deep inside',
      () => json({ error: { code: 'bad', message: `got ${TOKEN}`, details: { nested: [{ [TOKEN]: TOKEN }] } } }, 400),
    ],
    ['a 500 whose headers echo it', () => new Response('no', { status: 500, headers: { 'x-debug-auth': `Bearer ${TOKEN}` } })],
    ['a 502 HTML page that echoes it', () => new Response(`<html>${TOKEN}</html>`, { status: 502 })],
    ['a network failure', () => Promise.reject(new TypeError('fetch failed'))],
    ['a body failing its schema', () => json({ id: TOKEN })],
  ] as const;

  it.each(echoes)('%s', async (_, respond) => {
    const { client } = clientWith(respond, { maxRetries: 0 });
    const error = await client.members.get('m1').catch((e: unknown) => e);
    expectNoToken(error);
  });

  it('a timeout', async () => {
    const { client } = clientWith(
      (request) => new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason))),
      { timeout: 20, maxRetries: 0 },
    );
    expectNoToken(await client.members.get('m1').catch((e: unknown) => e));
  });

  it('a malformed token is refused without repeating it', () => {
    const bad = `${TOKEN}\nX-Injected: 1`;
    let error: unknown;
    try {
      new CommunityServerClient({ token: bad, baseUrl: BASE_URL });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError); // refused, so there is a refusal to read
    for (const text of renderings(error)) expect(text).not.toContain(TOKEN);
  });
});

describe('the token never leaves in a rendering of the client', () => {
  it('util.inspect, JSON, String and console output show no token', () => {
    const { client } = clientWith(() => json(member('m1')));
    void client.members; // namespaces bound
    for (const text of renderings(client)) expect(text).not.toContain(TOKEN);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    console.log(client, client.members);
    expect(inspect(log.mock.calls, { depth: 10, showHidden: true })).not.toContain(TOKEN);
    log.mockRestore();
  });

  it("validation: 'warn' messages show no token", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client } = clientWith(() => json({ id: TOKEN }), { validation: 'warn' });
    await client.members.get('m1');
    expect(warn).toHaveBeenCalled();
    expect(inspect(warn.mock.calls, { depth: 10 })).not.toContain(TOKEN);
    warn.mockRestore();
  });

  it('the token travels only in the Authorization header, never in the URL', async () => {
    const { client, requests } = clientWith(() => json({ data: [], page: 1, pageSize: 10, total: 0, totalPages: 0 }));
    await client.members.list({ page: 1 });
    expect(requests[0]!.url).not.toContain(TOKEN);
    expect(requests[0]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });
});

describe('issue 10 hardening: client — item 5: no shape of cause carries the token, to any depth', () => {
  const bearer = `Bearer ${TOKEN}`;
  const deepChain = (depth: number) => {
    let error = new Error(`bottom: ${bearer}`);
    for (let i = 0; i < depth; i++) error = new Error(`level ${i}`, { cause: error });
    return error;
  };
  const cyclic = () => {
    const error = new Error('socket closed') as Error & Record<string, unknown>;
    const request = { headers: { authorization: bearer }, error };
    error.request = request;
    error.self = error;
    return error;
  };
  const withGetters = () => {
    const error = new Error('getters');
    Object.defineProperty(error, 'explodes', {
      enumerable: true,
      get: () => {
        throw new Error('no');
      },
    });
    Object.defineProperty(error, 'leaks', { enumerable: true, get: () => bearer });
    Object.defineProperty(error, 'hiddenLeak', { enumerable: false, value: { authorization: bearer } });
    return error;
  };
  const hostileMessage = () => {
    const thrown = {
      toString: () => {
        throw new Error('no toString');
      },
    } as Record<string, unknown>;
    Object.defineProperty(thrown, 'message', {
      get: () => {
        throw new Error('no message');
      },
    });
    thrown.config = { headers: { Authorization: bearer } };
    return thrown;
  };

  const thrown: [string, (request: Request) => unknown][] = [
    ['a string quoting the token', () => `request failed with headers authorization=${bearer}`],
    ['a non-Error object', () => ({ message: `failed: ${bearer}`, code: 'ECONNRESET' })],
    [
      'an AggregateError whose errors quote it',
      () => new AggregateError([new TypeError('first'), new Error(`second ${bearer}`), bearer], 'all attempts failed'),
    ],
    [
      'an axios-like error with config.headers.Authorization',
      () => Object.assign(new Error('Network Error'), { config: { url: 'https://api.test', headers: { Authorization: bearer } } }),
    ],
    ['an error with cycles', cyclic],
    ['getters that throw, and getters that return it', withGetters],
    ['Symbol keys and Symbol descriptions', () => Object.assign(new Error('symbols'), { [Symbol('auth')]: bearer, [Symbol(TOKEN)]: 'x' })],
    [
      'a Map and a Set',
      () =>
        Object.assign(new Error('collections'), {
          map: new Map<unknown, unknown>([
            ['authorization', bearer],
            [TOKEN, 1],
          ]),
          set: new Set([bearer]),
        }),
    ],
    ['a Headers object', (request) => Object.assign(new Error('headers'), { headers: new Headers(request.headers) })],
    ['the Request itself', (request) => Object.assign(new Error('request'), { request })],
    [
      'a Response echoing it in a header',
      () => Object.assign(new Error('response'), { response: new Response('', { status: 502, headers: { 'x-echo': bearer } }) }),
    ],
    [
      'a URL and URLSearchParams quoting it',
      () =>
        Object.assign(new Error('url'), {
          url: new URL(`https://api.test/?access_token=${TOKEN}`),
          query: new URLSearchParams({ token: TOKEN }),
        }),
    ],
    ['a cause 100 levels deep', () => deepChain(100)],
    ['a throwing toString and message getter', hostileMessage],
    [
      'a Proxy whose traps throw',
      () =>
        Object.assign(new Error('proxy'), {
          proxy: new Proxy(
            { secret: bearer },
            {
              ownKeys: () => {
                throw new Error('trap');
              },
            },
          ),
        }),
    ],
    [
      'a Proxy whose every trap throws, inside and as the error',
      () => {
        const trap = () => {
          throw new Error(`trap ${bearer}`);
        };
        const traps = { getPrototypeOf: trap, ownKeys: trap, get: trap, getOwnPropertyDescriptor: trap, has: trap };
        return new Proxy(Object.assign(new Error(bearer), { inner: new Proxy({ secret: bearer }, traps) }), { getPrototypeOf: trap });
      },
    ],
    [
      'a caller-class error, cause of a cause',
      () =>
        new (class FetchFailure extends Error {})('outer', {
          cause: new Error('inner', { cause: { headers: [['authorization', bearer]] } }),
        }),
    ],
  ];

  it.each(thrown)('a custom fetch throwing %s: ConnectionError, token nowhere', async (_, fail) => {
    const { client } = clientWith(
      (request) => {
        throw fail(request);
      },
      { maxRetries: 0 },
    );
    const error = (await client.members.get('m1').catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ConnectionError);
    for (const text of deepRenderings(error)) expect(text).not.toContain(TOKEN);
  });

  /**
   * Causes whose text comes from code run only when rendered (a hook, a prototype getter, a
   * Proxy trap), so a walk of what they hold sees nothing and nothing there mentions the token.
   */
  const custom = Symbol.for('nodejs.util.inspect.custom');
  const hooked: [string, () => unknown][] = [
    ['an own util.inspect.custom', () => Object.assign(new Error('ic'), { [custom]: () => TOKEN })],
    ['an own toJSON', () => Object.assign(new Error('tj'), { toJSON: () => ({ a: TOKEN }) })],
    [
      'a getter on its class prototype',
      () =>
        new (class Leaky extends Error {
          get detail() {
            return TOKEN;
          }
        })('pg'),
    ],
    [
      'an inherited util.inspect.custom and toString',
      () =>
        new (class Quoting extends Error {
          [custom]() {
            return TOKEN;
          }
          override toString() {
            return TOKEN;
          }
        })('ih'),
    ],
    ['a nested object with a toJSON', () => Object.assign(new Error('nested'), { details: { toJSON: () => bearer } })],
    [
      'an own getter that is clean only once',
      () => {
        let reads = 0;
        return Object.defineProperty(new Error('once'), 'later', { enumerable: true, get: () => (reads++ ? bearer : 'clean') });
      },
    ],
    [
      'a Proxy whose traps hide its target',
      () => Object.assign(new Error('proxy'), { p: new Proxy({ authorization: bearer }, { ownKeys: () => [], get: () => 'clean' }) }),
    ],
    ['a Map with an own property', () => Object.assign(new Error('map'), { map: Object.assign(new Map(), { authorization: bearer }) })],
    [
      'a class whose constructor is a Proxy naming it',
      () => {
        class Quiet extends Error {}
        Quiet.prototype.constructor = new Proxy(Quiet, { get: (target, key) => (key === 'name' ? TOKEN : Reflect.get(target, key)) });
        return new Quiet('named');
      },
    ],
  ];

  it.each(hooked)('a custom fetch throwing a cause with %s: the hooks are dropped, token nowhere', async (_, fail) => {
    const { client } = clientWith(
      () => {
        throw fail();
      },
      { maxRetries: 0 },
    );
    const error = (await client.members.get('m1').catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ConnectionError);
    const texts = [
      inspect(error, { depth: 20 }),
      inspect(error, { depth: 20, getters: true, showHidden: true }),
      JSON.stringify(error.cause),
      String(error.cause),
      String(error),
      ...deepRenderings(error),
    ];
    for (const text of texts) expect(text).not.toContain(TOKEN);
  });

  it('a cause that had hooks keeps its name, message, stack, cause and data', async () => {
    const inner = new Error('inner');
    const thrown = Object.assign(new TypeError('outer', { cause: inner }), { code: 'ECONNRESET', toJSON: () => TOKEN });
    const { client } = clientWith(
      () => {
        throw thrown;
      },
      { maxRetries: 0 },
    );
    const cause = ((await client.members.get('m1').catch((e: unknown) => e)) as Error).cause as Error & { code: string };
    expect(cause).not.toBe(thrown);
    expect(cause).toMatchObject({ name: 'TypeError', message: 'outer', stack: thrown.stack, code: 'ECONNRESET' });
    expect(cause.cause).toMatchObject({ name: 'Error', message: 'inner', stack: inner.stack });
    expect(typeof (cause as Error & { toJSON?: unknown }).toJSON).not.toBe('function');
    expect(JSON.stringify(cause)).toBe('{"code":"ECONNRESET","toJSON":{}}');
  });

  it('a clean cause is kept as it is (identity, class), and a redacted one keeps its shape', async () => {
    class FetchFailure extends Error {}
    const clean = new FetchFailure('no route to host');
    const { client } = clientWith(
      () => {
        throw clean;
      },
      { maxRetries: 0 },
    );
    expect(((await client.members.get('m1').catch((e: unknown) => e)) as Error).cause).toBe(clean);
    const { client: leaky } = clientWith(
      () => {
        throw new AggregateError([new TypeError(`x ${bearer}`)], 'all failed', { cause: 'c' });
      },
      { maxRetries: 0 },
    );
    const cause = ((await leaky.members.get('m1').catch((e: unknown) => e)) as Error).cause as AggregateError;
    expect(cause).toBeInstanceOf(AggregateError);
    expect(cause.message).toBe('all failed');
    expect(cause.cause).toBe('c');
    expect(cause.errors[0]).toMatchObject({ name: 'TypeError', message: 'x Bearer [redacted]' });
  });

  it('an abort reason quoting the token is redacted too', async () => {
    const { client } = clientWith(() => json(member('m1')));
    const pending = client.members.get('m1', { signal: AbortSignal.abort({ why: `user left; ${bearer}` }) }).catch((e: unknown) => e);
    const error = (await pending) as Error;
    expect(error).toBeInstanceOf(AbortError);
    for (const text of deepRenderings(error)) expect(text).not.toContain(TOKEN);
  });
});

describe('issue 23 hardening: client — items 1 and 2: the token leaves by no channel, whatever fails', () => {
  const bearer = `Bearer ${TOKEN}`;
  const EVENTS = ['request', 'response', 'retry', 'rateLimitWait'] as const;

  /** Hangs until the request's signal aborts (a timeout, or the caller's abort), then rejects as fetch does. */
  const hang: Handler = (request) =>
    new Promise((_, reject) => {
      const { signal } = request;
      if (signal.aborted) reject(signal.reason);
      else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  /** A first answer that spends the window: the next request waits `resetAfter` seconds. */
  const spent = (resetAfter: string) => json(member('m1'), 200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': resetAfter });

  interface Scenario {
    handler: Handler;
    options?: ClientOptions;
    /** The call that fails (or is held), made after `before`; `signal` is aborted at `abortOn`. */
    call: (client: CommunityServerClient, signal: AbortSignal) => Promise<unknown>;
    before?: (client: CommunityServerClient) => Promise<unknown>;
    /** Aborts the call's signal when the client emits this event. */
    abortOn?: (typeof EVENTS)[number];
    /** The error the call ends with (`undefined`: it succeeds). */
    error: (new (...args: never[]) => Error) | undefined;
    /** An event the scenario must have emitted, so that its channel was exercised. */
    emits: (typeof EVENTS)[number];
  }

  const scenarios: [string, Scenario][] = [
    [
      'a network error quoting the Authorization header, retried once',
      {
        handler: (request) => {
          throw new TypeError(`fetch failed: sent authorization: ${request.headers.get('authorization')}`);
        },
        options: { maxRetries: 1 },
        call: (client) => client.members.get('m1'),
        error: ConnectionError,
        emits: 'retry',
      },
    ],
    [
      'a timeout of a call whose path holds the token, retried once',
      {
        handler: hang,
        options: { timeout: 20, maxRetries: 1 },
        call: (client) => client.members.get(TOKEN),
        error: TimeoutError,
        emits: 'retry',
      },
    ],
    [
      'an abort while the attempt is out, the token in the path',
      {
        handler: hang,
        call: (client, signal) => client.members.get(TOKEN, { signal }),
        abortOn: 'request',
        error: AbortError,
        emits: 'request',
      },
    ],
    [
      'an abort reason quoting the header, during the wait before a retry',
      {
        handler: () => json(errorBody('down', 'down'), 503, { 'retry-after': '30' }),
        call: (client, signal) => client.members.get(TOKEN, { signal }),
        abortOn: 'retry',
        error: AbortError,
        emits: 'retry',
      },
    ],
    [
      'a 404 of a call whose path holds the token',
      {
        handler: () => json(errorBody('member_not_found', 'no such member'), 404),
        call: (client) => client.members.get(TOKEN),
        error: NotFoundError,
        emits: 'response',
      },
    ],
    [
      'retried 503s of a call whose path holds the token',
      {
        handler: () => json(errorBody('down', `down for ${bearer}`), 503, { 'retry-after': '0' }),
        options: { maxRetries: 2 },
        call: (client) => client.members.get(TOKEN),
        error: ServiceUnavailableError,
        emits: 'retry',
      },
    ],
    [
      'a body failing its schema, the token in the path and the body',
      {
        handler: () => json({ id: TOKEN }),
        call: (client) => client.members.get(TOKEN),
        error: ResponseValidationError,
        emits: 'response',
      },
    ],
    [
      'a rate-limit hold of a call whose path holds the token',
      {
        handler: (_, attempt) => (attempt === 1 ? spent('0.05') : json(member('m1'))),
        before: (client) => client.members.get('m1'),
        call: (client) => client.members.get(TOKEN),
        error: undefined,
        emits: 'rateLimitWait',
      },
    ],
    [
      'a rate-limit refusal (the wait outlasts the timeout) of a call whose path holds the token',
      {
        handler: () => spent('100'),
        options: { timeout: 1000 },
        before: (client) => client.members.get('m1'),
        call: (client) => client.members.get(TOKEN),
        error: RateLimitError,
        emits: 'response',
      },
    ],
  ];

  it.each(scenarios)('%s: not in the error, a log line at debug, an event, a span', async (_, scenario) => {
    const lines: string[] = [];
    const write = (line: string) => void lines.push(line);
    const { client } = clientWith(scenario.handler, {
      logLevel: 'debug',
      logger: { error: write, warn: write, info: write, debug: write },
      ...scenario.options,
    });
    const controller = new AbortController();
    const events: [string, unknown][] = [];
    for (const name of EVENTS) {
      client.on(name, (event) => {
        events.push([name, event]);
        if (name === scenario.abortOn) controller.abort(new Error(`gave up; headers were ${bearer}`));
      });
    }
    const exporter = new InMemorySpanExporter();
    instrument(client, { tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) });

    await scenario.before?.(client);
    const outcome = await scenario.call(client, controller.signal).then(
      () => undefined,
      (error: unknown) => error,
    );

    if (scenario.error) expect(outcome).toBeInstanceOf(scenario.error);
    else expect(outcome).toBeUndefined();
    expect(events.map(([name]) => name)).toContain(scenario.emits);
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(scenario.before ? 2 : 1);
    const texts = [
      ...(outcome === undefined ? [] : deepRenderings(outcome as Error)),
      ...lines,
      inspect(events, { depth: Infinity }),
      JSON.stringify(events),
      ...spans.map((span) =>
        inspect({ name: span.name, attributes: span.attributes, events: span.events, status: span.status }, { depth: Infinity }),
      ),
    ];
    for (const text of texts) expect(text).not.toContain(TOKEN);
  });
});

/** What `pending` rejects with (it must reject). */
const rejection = (pending: PromiseLike<unknown>): Promise<Error> =>
  Promise.resolve(pending).then(
    () => expect.unreachable('resolved'),
    (thrown: unknown) => thrown as Error,
  );

describe('issue 23 hardening 2: the token in every form a URL gives it, and cut short', () => {
  /** A token of characters a URL encodes: passed as an id it travels as `cs%2Ftest%2B…`. */
  const SPECIAL = 'cs/test+5f2b=9c1e?7a&#x';
  const FORMS = [SPECIAL, encodeURIComponent(SPECIAL)];

  it('passed as a path id and a list parameter: not in the error, a log line at debug, an event, a span', async () => {
    const lines: string[] = [];
    const write = (line: string) => void lines.push(line);
    const { client } = clientWith(
      () => {
        throw new TypeError('fetch failed');
      },
      { token: SPECIAL, maxRetries: 1, logLevel: 'debug', logger: { error: write, warn: write, info: write, debug: write } },
    );
    const events: unknown[] = [];
    for (const name of ['request', 'response', 'retry'] as const) client.on(name, (event) => void events.push(event));
    const exporter = new InMemorySpanExporter();
    instrument(client, { tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) });

    const errors = [await rejection(client.members.get(SPECIAL)), await rejection(client.members.list({ orderBy: SPECIAL }))];
    for (const error of errors) expect(error).toBeInstanceOf(ConnectionError);
    expect(exporter.getFinishedSpans()).toHaveLength(2);
    const texts = [
      ...errors.flatMap(deepRenderings),
      ...lines,
      JSON.stringify(events),
      ...exporter.getFinishedSpans().map((span) => inspect({ attributes: span.attributes, events: span.events, status: span.status })),
    ];
    expect(lines.length).toBeGreaterThan(0);
    for (const text of texts) for (const form of FORMS) expect(text).not.toContain(form);
  });

  it('a token holding " or \\, echoed JSON-escaped in a body that is not JSON, is redacted in that form too', async () => {
    const quoted = 'cs"test\\5f2b9c1e';
    const escaped = JSON.stringify(quoted).slice(1, -1);
    const { client } = clientWith(() => new Response(`{"error": "bad token ${escaped}", cut short`, { status: 500 }), {
      token: quoted,
      maxRetries: 0,
    });
    const error = await rejection(client.members.get('m1'));
    for (const text of deepRenderings(error)) for (const form of [quoted, escaped]) expect(text).not.toContain(form);
  });

  it('an error body cut at 2048 characters in the middle of the token leaves no head of it', async () => {
    const body = `${'x'.repeat(2040)}${TOKEN} and more`;
    const { client } = clientWith(() => new Response(body, { status: 500 }), { maxRetries: 0 });
    const error = await rejection(client.members.get('m1'));
    expect((error as { details?: unknown }).details).toBe(`${'x'.repeat(2040)}[redacted]`);
    for (const text of deepRenderings(error)) expect(text).not.toContain(TOKEN.slice(0, 6));
  });
});

describe('issue 23 hardening 2: a token passed where another argument goes is never quoted back', () => {
  /** Longer than the 40 characters a refused value is quoted to, so a cut would show most of it. */
  const LONG = `cs_live_${'0123456789abcdef'.repeat(3)}`;
  const refusals = (token: string): [string, () => unknown][] => {
    const client = new CommunityServerClient({ token, baseUrl: BASE_URL, fetch: () => Promise.reject(new Error('never sent')) });
    return [
      ['the client built from the token alone', () => new CommunityServerClient(token as never)],
      ['tokens.current(token)', () => (client.tokens.current as (options: unknown) => unknown)(token)],
      ['members.get(id, token)', () => (client.members.get as (id: string, options: unknown) => unknown)('m1', token)],
      ['members.list(token)', () => client.members.list(token as never)],
      ['a timeout of the token', () => client.members.get('m1', { timeout: token as never })],
      ['a list parameter named by the token', () => client.members.list({ [token]: 1 })],
    ];
  };

  it.each([
    ['a token of 18 characters', TOKEN],
    ['a token of 56 characters', LONG],
  ])('%s: each refusal is an InvalidArgumentError showing no part of it', async (_, token) => {
    for (const [what, refuse] of refusals(token)) {
      const error = await Promise.resolve()
        .then(refuse)
        .then(
          () => expect.unreachable(`${what} was not refused`),
          (thrown: unknown) => thrown as Error,
        );
      expect(error, what).toBeInstanceOf(InvalidArgumentError);
      for (const text of deepRenderings(error)) expect(text, what).not.toContain(token.slice(0, 6));
    }
  });
});
