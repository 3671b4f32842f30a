/**
 * `community-server-sdk/core` (issue 31): `createCore()` and one function per method. Each of the
 * 64 functions gives, against the mock, what the client's method gives; the functions file is
 * the generator's output of today; a bundle of `createCore` and three functions holds those three
 * requests and their schemas, and none of the cache's store, the fleet's and watch's code, the
 * store-backed gate, the listeners or the deep redaction walk (they load on first use: read from
 * esbuild's metafile of a split build); bad options and a first argument that is no core throw
 * before any request.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CommunityServerClient, Page } from 'community-server-sdk';
import * as core from 'community-server-sdk/core';
import {
  createCore,
  InvalidArgumentError,
  membersGet,
  membersList,
  NotFoundError,
  RateLimitError,
  serverInfo,
  withOptions,
} from 'community-server-sdk/core';
import { createMockApi } from 'community-server-sdk/mock';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import * as schemas from 'community-server-sdk/schemas';
import { coreFunctionsFile, functionName, renderCoreFunctions } from '../../scripts/core/functions';
import { allEndpoints } from '../../src/resources/catalog';
import { MOCK_ORIGIN, recordingFetch, json, member, target } from '../helpers';
import { method, pick, rows } from '../mock/engine/api/contract-rows';

const SEED = 7;
type Fn = (core: core.Core, ...args: unknown[]) => PromiseLike<unknown> & { toArray?(options: object): Promise<unknown[]> };
const functionOf = (name: string) => (core as unknown as Record<string, Fn>)[functionName(name)]!;

/** What a call gave, comparably: a page's fields and its first items collected, any other result, or the error's class, status and code. */
async function outcome(call: () => PromiseLike<unknown> & { toArray?(options: object): Promise<unknown[]> }) {
  try {
    const pending = call();
    const result = await pending;
    if (result instanceof Page) {
      const { data, page, pageSize, total, totalPages } = result;
      return { data, page, pageSize, total, totalPages, collected: await pending.toArray!({ limit: 25 }) };
    }
    return { result };
  } catch (error) {
    const { name, status, code, message } = error as { name: string; status?: number; code?: string; message: string };
    return { error: { name, status, code, message } };
  }
}

/** `value` with each clock stamp (any `lastUsedAt`; `createdAt` too in a row just made) matched as any number. */
function unstamped(value: unknown, made: boolean, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => unstamped(item, made));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, unstamped(item, made, name)]));
  }
  const stamp = key === 'lastUsedAt' || (made && key === 'createdAt');
  return stamp && typeof value === 'number' ? expect.any(Number) : value;
}

describe('every function of /core gives what the client method gives', () => {
  it('covers the 64 requests, each named as its line', () => {
    const functions = Object.keys(core).filter((name) => allEndpoints().some((endpoint) => functionName(endpoint.name) === name));
    expect(functions).toHaveLength(64);
    expect(rows.map((row) => row.name).sort()).toEqual(
      allEndpoints()
        .map((endpoint) => endpoint.name)
        .sort(),
    );
  });

  it.each(rows.map((row) => [row.name, row] as const))('%s', async (_, row) => {
    // Two mocks of one seed: a write through one leaves the other's world as it was.
    const [forClient, forCore] = [createMockApi({ seed: SEED }), createMockApi({ seed: SEED })];
    const args = row.args(pick(forClient.store));
    const client = new CommunityServerClient({ token: forClient.tokens.main, baseUrl: MOCK_ORIGIN, fetch: forClient.fetch, maxRetries: 0 });
    const made = createCore({ token: forCore.tokens.main, baseUrl: MOCK_ORIGIN, fetch: forCore.fetch, maxRetries: 0 });
    const viaClient = await outcome(() => method(client, row.name)(...args));
    const viaCore = await outcome(() => functionOf(row.name)(made, ...args));
    expect(viaClient).not.toHaveProperty('error');
    // The mock stamps rows with its clock (a created token's `createdAt`, the calling token's
    // `lastUsedAt`), and the clock may tick to the next second between the two calls.
    const justMade = row.name === 'tokens.create';
    expect(unstamped(viaCore, justMade)).toEqual(unstamped(viaClient, justMade));
    // And a failure too, the same: an id nothing has, where the request takes one.
    if (row.missing?.includes('last')) {
      const missing = [...args.slice(0, -1), typeof args.at(-1) === 'number' ? 999_999 : 'no-such-id'];
      const failedClient = await outcome(() => method(client, row.name)(...missing));
      expect(failedClient).toHaveProperty('error.name', 'NotFoundError');
      expect(await outcome(() => functionOf(row.name)(made, ...missing))).toEqual(failedClient);
    }
  });
});

describe('the functions file', () => {
  it('is what the generator writes now (npm run core:functions)', async () => {
    expect(
      readFileSync(coreFunctionsFile, 'utf8') === (await renderCoreFunctions()),
      'src/resources/functions.ts is stale: run `npm run core:functions`',
    ).toBe(true);
  });
});

describe('a bundle of createCore and three functions', () => {
  const entry = fileURLToPath(new URL('../../src/core.ts', import.meta.url));

  /** A split build of `source`: what loads up front (the entry and the chunks it imports) and what loads on use. */
  async function split(source: string) {
    const result = await build({
      stdin: { contents: source, resolveDir: fileURLToPath(new URL('../..', import.meta.url)), loader: 'ts' },
      bundle: true,
      splitting: true,
      format: 'esm',
      outdir: '/virtual',
      write: false,
      metafile: true,
      platform: 'neutral',
      mainFields: ['module', 'main'],
      logLevel: 'silent',
    });
    const { outputs } = result.metafile;
    const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);
    const texts = new Map(result.outputFiles.map((file) => [base(file.path), file.text]));
    const start = Object.keys(outputs).find((name) => outputs[name]!.entryPoint === '<stdin>')!;
    const upFront = new Set<string>();
    const visit = (name: string) => {
      if (upFront.has(name)) return;
      upFront.add(name);
      for (const imported of outputs[name]!.imports) if (imported.kind === 'import-statement') visit(imported.path);
    };
    visit(start);
    const inputsOf = (names: Iterable<string>) =>
      [...names].flatMap((name) =>
        Object.entries(outputs[name]!.inputs)
          .filter(([, input]) => input.bytesInOutput > 0)
          .map(([input]) => input),
      );
    const onUse = Object.keys(outputs).filter((name) => !upFront.has(name) && !name.endsWith('.map'));
    return {
      inputs: inputsOf(upFront),
      text: [...upFront].map((name) => texts.get(base(name)) ?? '').join('\n'),
      lazyInputs: inputsOf(onUse),
    };
  }

  it('holds those three requests and their two schemas; the cache store, fleet, watch, store gate, listeners and deep redaction load on use', async () => {
    const { inputs, text, lazyInputs } = await split(`export { createCore, membersList, membersGet, serverInfo } from '${entry}';`);
    const lines = allEndpoints().filter((endpoint) => new RegExp(`\\(\\s*"${endpoint.name}",`).test(text));
    expect(lines.map((endpoint) => endpoint.name).sort()).toEqual(['members.get', 'members.list', 'server.info']);
    const held = Object.entries(schemas)
      .filter(([name, value]) => value instanceof z.ZodMiniType && new RegExp(`\\bvar ${name} =`).test(text))
      .map(([name]) => name);
    expect(held.sort()).toEqual(['MemberSchema', 'ServerInfoSchema']);
    const absent = [
      'src/core/cache.ts', // the store, TTLs and fences
      'src/core/store-gate.ts',
      'src/core/rate-limit-hold.ts', // holding requests while the window is spent, and its queue
      'src/core/queue.ts',
      'src/core/page-walk.ts', // a list's walks past its first page: pages(), for await, toArray()
      'src/core/watch/run.ts',
      'src/core/watch/poller.ts',
      'src/core/watch/fleet.ts',
      'src/core/events.ts',
      'src/core/redact.ts',
      'src/client.ts',
    ];
    expect(inputs.filter((input) => absent.includes(input) || input.startsWith('src/redis'))).toEqual([]);
    expect(text).not.toMatch(/function memoryStore/);
    // What loads on first use is there, split off.
    expect(lazyInputs).toEqual(
      expect.arrayContaining([
        'src/core/cache.ts',
        'src/core/store-gate.ts',
        'src/core/rate-limit-hold.ts',
        'src/core/page-walk.ts',
        'src/core/watch/run.ts',
        'src/core/redact.ts',
      ]),
    );
  });

  it('the check can fail: the whole entry holds every request', async () => {
    const { text } = await split(`export * from '${entry}';`);
    expect(allEndpoints().filter((endpoint) => new RegExp(`\\(\\s*"${endpoint.name}",`).test(text))).toHaveLength(64);
  });
});

describe("a core's rate-limit gate, whose holds load when a request first waits", () => {
  /** A core whose service answers each call with `remaining` left in a window that resets in 0.3 s. */
  const spentAfter = (remaining: (n: number) => number) =>
    recordingFetch((request, n) =>
      json(member(target(request).split('/').pop()!), 200, {
        'x-ratelimit-remaining': String(remaining(n)),
        'x-ratelimit-reset-after': '0.3',
      }),
    );

  it('holds the calls that come while the window is spent, and lets them go in their order once it resets', async () => {
    const { fetch, requests } = spentAfter((n) => (n === 1 ? 0 : 10));
    const made = createCore({ token: 'cs_test_5f2b9c1e7a', baseUrl: 'https://api.test', fetch });
    await membersGet(made, 'm1');
    const started = performance.now();
    const answers = await Promise.all(['m2', 'm3', 'm4'].map((id) => membersGet(made, id)));
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(answers.map((answer) => answer.id)).toEqual(['m2', 'm3', 'm4']);
    expect(requests.map(target)).toEqual(['m1', 'm2', 'm3', 'm4'].map((id) => `/api/v1/server/members/${id}`));
  });

  it('refuses at once, with RateLimitError and nothing sent, a call the spent window would hold past its timeout', async () => {
    const { fetch, requests } = spentAfter(() => 0);
    const made = createCore({ token: 'cs_test_5f2b9c1e7a', baseUrl: 'https://api.test', fetch });
    await membersGet(made, 'm1');
    const error = await membersGet(made, 'm2', { timeout: 100 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'rate_limit_wait_exceeds_timeout', status: 429 });
    expect(requests).toHaveLength(1);
  });
});

describe('bad options and arguments throw before any request', () => {
  it.each([
    [{ timeout: 0 }, /timeout must be a number of milliseconds/],
    [{ deadline: -1 }, /deadline must be a number of milliseconds/],
    [{ middleware: () => undefined }, /middleware must be an array of functions/],
    [{ middleware: ['x'] }, /middleware must be an array of functions/],
    [{ validation: 'strict' }, /validation must be 'error', 'warn' or 'off'/],
    [{ cache: { ttlMs: 0 } }, /cache.ttlMs must be/],
    [{ rateLimit: 'sometimes' }, /rateLimit must be 'wait', 'off' or a RateLimitStore/],
    [{ tokn: 'x' }, /unknown client option "tokn"/],
  ])('createCore(%j)', (options, message) => {
    const { fetch, requests } = recordingFetch(() => json(member('m1')));
    const build = () => createCore({ token: 'cs_test_5f2b9c1e7a', baseUrl: 'https://api.test', fetch, ...options } as never);
    expect(build).toThrow(InvalidArgumentError);
    expect(build).toThrow(message);
    expect(requests).toHaveLength(0);
  });

  it('a function whose first argument is no core', async () => {
    expect(() => membersGet({} as never, 'm1')).toThrow(/the first argument must be what createCore\(\) returns, got an object/);
    expect(() => membersList(undefined as never)).toThrow(InvalidArgumentError);
  });

  it('a bad argument rejects, as the client method does', async () => {
    const { fetch, requests } = recordingFetch(() => json(member('m1')));
    const made = createCore({ token: 'cs_test_5f2b9c1e7a', baseUrl: 'https://api.test', fetch });
    await expect(membersGet(made, '')).rejects.toThrow(/memberId must not be empty/);
    await expect(membersList(made, { page: 0 })).rejects.toThrow(/page must be a whole number/);
    expect(requests).toHaveLength(0);
  });
});

describe('a core', () => {
  it('hides its token from util.inspect and JSON', async () => {
    const { inspect } = await import('node:util');
    const token = 'cs_secret_token_do_not_show';
    const made = createCore({ token, baseUrl: 'https://api.test' });
    expect(inspect(made, { depth: 5, showHidden: true })).not.toContain(token);
    expect(JSON.stringify(made)).not.toContain(token);
    expect(made.baseUrl).toBe('https://api.test');
  });

  it('answers its functions through the same coalescing and cache as withOptions cores made from it', async () => {
    const mock = createMockApi({ seed: SEED });
    const made = createCore({ token: mock.tokens.main, baseUrl: MOCK_ORIGIN, fetch: mock.fetch, cache: { ttlMs: 60_000 } });
    const patient = withOptions(made, { timeout: 60_000 });
    const id = mock.store.main.members.all()[0]!.id;
    await membersGet(made, id);
    await membersGet(patient, id);
    expect(made.cache.stats()).toEqual({ hits: 1, misses: 1, coalesced: 0 });
    expect(mock.requests.filter((request) => request.endpoint === 'members.get')).toHaveLength(1);
    // Any dotted name drops what it names (a core has no table to check it against); others are refused.
    await made.cache.invalidate('members');
    await membersGet(patient, id);
    expect(made.cache.stats().misses).toBe(2);
    await expect(made.cache.invalidate('members..get')).rejects.toThrow(InvalidArgumentError);
  });

  it('serverInfo and a 404 come back typed', async () => {
    const mock = createMockApi({ seed: SEED });
    const made = createCore({ token: mock.tokens.main, baseUrl: MOCK_ORIGIN, fetch: mock.fetch, maxRetries: 0 });
    expect((await serverInfo(made)).id).toBe(mock.store.main.info.id);
    await expect(membersGet(made, 'nobody')).rejects.toBeInstanceOf(NotFoundError);
  });
});
