/**
 * `watch()` at its edges: lists whose default order is not
 * newest first, a `Retry-After` of years, an inline `AbortSignal.timeout()` that was collected,
 * and a watch closed before the list's own first request answered.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { AbortError } from 'community-server-sdk';
import { createMockApi, WORLD_END } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { log } from '../../fixtures';
import { clientWith, errorBody, json, mockClient } from '../../helpers';
import { listServer } from './list-server';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Everything a watch yields within `ms`, then closes it. */
async function yieldedWithin<T>(feed: AsyncIterator<T> & { close(): void }, ms: number): Promise<T[]> {
  const items: T[] = [];
  const stop = setTimeout(() => feed.close(), ms);
  for (;;) {
    const result = await feed.next();
    if (result.done) break;
    items.push(result.value);
  }
  clearTimeout(stop);
  return items;
}

describe('lists whose default order is not newest first: their first page is not the baseline', () => {
  const mock = createMockApi({ seed: 1 });
  const client = mockClient(mock, { maxRetries: undefined });
  const main = mock.store.main;

  it('roles (oldest first), one per page: nothing already there is yielded; a new role is', async () => {
    const feed = client.roles.list({ pageSize: 1 }).watch({ intervalMs: 10 });
    expect(await yieldedWithin(feed, 200)).toEqual([]);
    const again = client.roles.list({ pageSize: 1 }).watch({ intervalMs: 10 });
    const first = again.next();
    await wait(100); // the baseline is read
    main.roles.insert({ id: 'role-new', name: 'Dispatcher', createdAt: WORLD_END + 60 });
    expect((await first).value).toMatchObject({ id: 'role-new' });
    again.close();
  });

  it('call notes (oldest first) and department members (by rank): nothing already there is yielded', async () => {
    const call = main.cad!.calls.all().find((c) => main.cad!.notes.where('callId', c.id).length > 1)!;
    const [department] = main.departments.all();
    expect(await yieldedWithin(client.cad.calls.notes(call.id, { pageSize: 1 }).watch({ intervalMs: 10 }), 200)).toEqual([]);
    expect(await yieldedWithin(client.departments.members.list(department!.id, { pageSize: 1 }).watch({ intervalMs: 10 }), 200)).toEqual(
      [],
    );
  });
});

it('a 429 whose Retry-After is years away is waited out for at most an hour, never a timer overflow that polls at once', async () => {
  const server = listServer((row) => ({ ...log, ...row }), [{ id: 'log_1', createdAt: 1000 }]);
  const { client, requests } = clientWith(
    (request, n) =>
      n === 1 ? server.handler(request, n) : json(errorBody('rate_limited', 'slow down'), 429, { 'retry-after': '99999999' }),
    { maxRetries: 0, rateLimit: 'off' },
  );
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.name);
  process.on('warning', onWarning);
  try {
    const feed = client.logs.list().watch({ intervalMs: 20 });
    expect(await yieldedWithin(feed, 500)).toEqual([]);
    // The list call, the first poll (429), then a wait (capped at an hour): nothing more.
    expect(requests.length).toBeLessThanOrEqual(3);
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  } finally {
    process.off('warning', onWarning);
  }
});

it('a watch closed before the list call answered ends at once; the same signal on the list call aborts that request too', async () => {
  // The list call's own request is the caller's (its signal, its timeout): the watch does not
  // tie every list call to an AbortController of its own, which would cost each call ~10 µs.
  const signals: AbortSignal[] = [];
  const { client } = clientWith(
    (request) => {
      signals.push(request.signal);
      return new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
    },
    { maxRetries: 0, rateLimit: 'off' },
  );
  const stop = new AbortController();
  const list = client.logs.list({}, { signal: stop.signal });
  const feed = list.watch({ intervalMs: 10, signal: stop.signal });
  const pending = feed.next();
  await wait(20);
  expect(signals).toHaveLength(1);
  expect(signals[0]!.aborted).toBe(false);
  stop.abort();
  expect(await pending).toEqual({ done: true, value: undefined });
  expect(signals[0]!.aborted).toBe(true);
  expect(await list.catch((error: unknown) => error)).toBeInstanceOf(AbortError);
  expect(signals).toHaveLength(1); // the watch sent nothing of its own
});

it('an inline AbortSignal.timeout() ends the watch even when the garbage collector runs meanwhile', async (context) => {
  if (!existsSync(`${root}/dist/index.js`)) return context.skip('dist/ is missing: run `npm run build` first (npm test does)');
  // A signal linked only through AbortSignal.any can be collected, and a collected timeout signal
  // never fires: the watch must hold it. Run in a child with --expose-gc, collecting every 10 ms.
  const script = `
    const { CommunityServerClient } = await import(${JSON.stringify(`${root}/dist/index.js`)});
    const empty = JSON.stringify({ data: [], page: 1, pageSize: 10, total: 0, totalPages: 0 });
    const fetch = async () => new Response(empty, { headers: { 'content-type': 'application/json' } });
    const client = new CommunityServerClient({ token: 'cs_gc_test', baseUrl: 'https://community.test', fetch });
    const collect = setInterval(() => globalThis.gc(), 10);
    const started = Date.now();
    for await (const item of client.logs.list().watch({ intervalMs: 20, signal: AbortSignal.timeout(300) })) void item;
    clearInterval(collect);
    console.log(Date.now() - started);
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { timeout: 10_000 });
  expect(Number(stdout.trim())).toBeLessThan(3_000);
}, 15_000);
