/**
 * `deadline` (issue 31): the whole call, every attempt, retry wait (a `Retry-After` included) and
 * rate-limit wait, then `TimeoutError`; per call (`RequestOptions.deadline`) over the client's;
 * `timeout` stays per attempt. A `fetch` that reads only the `Request`'s signal sees the deadline's
 * abort; the caller's own abort is still an `AbortError`; a call that joined another leaves at its
 * own deadline; once a call settles, its timer and its listener on the caller's signal are gone.
 */
import { getEventListeners } from 'node:events';
import { AbortError, CommunityServerClient, InvalidArgumentError, TimeoutError } from 'community-server-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE_URL, TOKEN, clientWith, errorBody, json, member, recordingFetch } from '../helpers';

afterEach(() => void vi.useRealTimers());

/** How long `promise` took to settle, and how it settled. */
async function timed(promise: Promise<unknown>) {
  const started = performance.now();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - started };
}

describe('the deadline covers the whole call', () => {
  it('retries stop at it: TimeoutError naming it, after fewer attempts than maxRetries allows', async () => {
    const { client, requests } = clientWith(() => json(errorBody('unavailable', 'down'), 503), { maxRetries: 10, deadline: 700 });
    const { error, ms } = await timed(client.members.get('m1'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('GET /api/v1/server/members/m1 timed out: its deadline of 700 ms for the whole call passed');
    expect(ms).toBeGreaterThanOrEqual(690);
    expect(ms).toBeLessThan(1_500);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.length).toBeLessThan(6);
  });

  it('a Retry-After longer than what is left is not waited out past it', async () => {
    const { client, requests } = clientWith(() => json(errorBody('rate_limited', 'slow down'), 429, { 'retry-after': '5' }), {
      deadline: 300,
    });
    const { error, ms } = await timed(client.members.get('m1'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(ms).toBeLessThan(1_500);
    expect(requests).toHaveLength(1);
  });

  it('a rate-limit wait ends at it', async () => {
    // The first answer spends the window for 5 s; the next call is held by the gate.
    const { client, requests } = clientWith(() =>
      json(member('m1'), 200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '5' }),
    );
    await client.members.get('m1');
    const { error, ms } = await timed(client.members.get('m2', { deadline: 250 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(ms).toBeGreaterThanOrEqual(240);
    expect(ms).toBeLessThan(1_500);
    expect(requests).toHaveLength(1); // the held call never went
  });

  it('a hanging attempt ends at it, and a fetch that reads only the Request’s signal sees the abort', async () => {
    let seen: AbortSignal | undefined;
    const fetch = (input: RequestInfo | URL) =>
      new Promise<Response>((_, reject) => {
        seen = (input as Request).signal;
        seen.addEventListener('abort', () => reject(new Error('aborted')));
      });
    const client = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, timeout: 10_000 });
    const { error, ms } = await timed(client.members.get('m1', { deadline: 200 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(ms).toBeLessThan(1_500);
    expect(seen?.aborted).toBe(true);
  });

  it('per call over the client’s; timeout stays per attempt', async () => {
    const slow = () => new Promise<Response>((resolve) => setTimeout(() => resolve(json(member('m1'))), 150));
    const { client } = clientWith(slow, { deadline: 100, timeout: 1_000 });
    await expect(client.members.get('m1')).rejects.toBeInstanceOf(TimeoutError);
    await expect(client.members.get('m1', { deadline: 1_000 })).resolves.toEqual(member('m1'));
    // A timeout per attempt, retried, within a longer deadline: the per-attempt message, as before.
    const { client: perAttempt } = clientWith(slow, { timeout: 50, maxRetries: 1, deadline: 5_000 });
    await expect(perAttempt.members.get('m1')).rejects.toThrow(/timed out after 50 ms per attempt/);
  });
});

describe('with a caller’s signal', () => {
  it('the caller’s abort before it is an AbortError', async () => {
    const controller = new AbortController();
    const { client } = clientWith(() => new Promise<Response>(() => {}), { deadline: 5_000 });
    const pending = client.members.get('m1', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 20);
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toEqual(new Error('user left'));
  });

  it('once the call settles, no listener of its is left on the caller’s signal, nor a timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    const { client } = clientWith(() => json(member('m1')));
    await client.members.get('m1', { signal: controller.signal, deadline: 60_000 });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
    const failing = clientWith(() => json(errorBody('not_found', 'no'), 404)).client;
    await expect(failing.members.get('m1', { signal: controller.signal, deadline: 60_000 })).rejects.toThrow();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('coalesced calls', () => {
  it('a call that joined another leaves at its own deadline; the other gets its answer', async () => {
    const { client, requests } = clientWith(() => new Promise<Response>((resolve) => setTimeout(() => resolve(json(member('m1'))), 300)));
    const patient = client.members.get('m1');
    const hasty = client.members.get('m1', { deadline: 100 });
    await expect(hasty).rejects.toBeInstanceOf(TimeoutError);
    await expect(patient).resolves.toEqual(member('m1'));
    expect(requests).toHaveLength(1);
  });
});

describe('the option', () => {
  it.each([0, -5, Number.NaN, 2 ** 31, '100'])(
    'deadline %j is refused before any request, on the client and per call',
    async (deadline) => {
      const { fetch, requests } = recordingFetch(() => json(member('m1')));
      expect(() => new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, deadline: deadline as never })).toThrow(
        /deadline must be a number of milliseconds/,
      );
      const client = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch });
      await expect(client.members.get('m1', { deadline: deadline as never })).rejects.toThrow(InvalidArgumentError);
      expect(requests).toHaveLength(0);
    },
  );
});
