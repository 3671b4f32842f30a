/**
 * What the transport relies on ky for, pinned: a ky upgrade that changes any of it fails here,
 * before it can change the SDK's retries. The SDK owns its retry loop (`src/core/retry-policy.ts`)
 * and asks ky for one attempt at a time: `retry: 0` must mean exactly one call of our `fetch`,
 * whatever the failure; `throwHttpErrors: false` must hand back every answer; a timeout must reject
 * with the `TimeoutError` class ky exports, covering the whole `fetch` promise (our fetch reads the
 * body inside it); a failing fetch must reject with what it threw; the caller's signal must reach it.
 */
import ky, { TimeoutError } from 'ky';
import { describe, expect, it } from 'vitest';

/** A `fetch` double: answers with `answer` and records each call (the body read then: ky cancels it once the call settles). */
function counting(answer: () => Response | Promise<Response>) {
  const calls: { method: string; headers: Headers; body: string }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    calls.push({ method: request.method, headers: request.headers, body: await request.clone().text() });
    return answer();
  };
  return { fetch, calls };
}

const options = { retry: 0, throwHttpErrors: false, timeout: 200 } as const;

describe('ky with retry: 0, as the transport uses it: one attempt, whatever happens', () => {
  it.each([
    [408, {}],
    [429, { 'retry-after': '0' }],
    [500, {}],
    [503, { 'retry-after': '0' }],
  ])('a %i is answered once and handed back, not retried', async (status, headers) => {
    const { fetch, calls } = counting(() => new Response('{}', { status, headers }));
    const response = await ky('https://api.test/x', { ...options, fetch });
    expect(response.status).toBe(status);
    expect(calls).toHaveLength(1);
  });

  it('a fetch that rejects is called once, and ky rejects with what it threw', async () => {
    const thrown = new TypeError('fetch failed');
    const { fetch, calls } = counting(() => Promise.reject(thrown));
    await expect(ky('https://api.test/x', { ...options, fetch })).rejects.toBe(thrown);
    expect(calls).toHaveLength(1);
  });

  it("a fetch slower than the timeout (a body read inside it included) rejects with ky's exported TimeoutError, once", async () => {
    const { fetch, calls } = counting(() => new Promise<Response>((resolve) => setTimeout(() => resolve(new Response('{}')), 1_000)));
    const error = await ky('https://api.test/x', { ...options, fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(calls).toHaveLength(1);
  });

  it('a GET, a POST with a JSON body and a DELETE each reach the fetch once, with method, headers and body as given', async () => {
    const { fetch, calls } = counting(() => new Response('{}', { status: 503 }));
    await ky('https://api.test/x', { ...options, fetch, method: 'GET', headers: { accept: 'application/json' } });
    await ky('https://api.test/x', { ...options, fetch, method: 'POST', json: { name: 'n' } });
    await ky('https://api.test/x', { ...options, fetch, method: 'DELETE' });
    expect(calls.map((request) => request.method)).toEqual(['GET', 'POST', 'DELETE']);
    expect(calls[0]!.headers.get('accept')).toBe('application/json');
    expect(calls[1]!.headers.get('content-type')).toBe('application/json');
    expect(calls[1]!.body).toBe('{"name":"n"}');
  });

  it("the caller's abort reaches the fetch's signal", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const fetch = (input: RequestInfo | URL) =>
      new Promise<Response>((_, reject) => {
        seen = (input as Request).signal;
        seen.addEventListener('abort', () => reject(seen!.reason));
      });
    const pending = ky('https://api.test/x', { ...options, timeout: 5_000, fetch, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    expect(seen?.aborted).toBe(true);
  });
});
