/**
 * What a request leaves behind once it is answered (issue 33): nothing but what the journal, the
 * store and the bounded caches say they keep. With the journal off, 20,000 in-process requests
 * under a caller's long-lived signal (a bot's shutdown signal, a client's 30 s timeout) add at
 * most 0.2 KB each to the heap after a full collection; and the caller's signal carries no
 * listener of a request that was answered.
 */
import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createMockApi } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';

setFlagsFromString('--expose-gc');
/** A full collection, made available to this worker by the flag above. */
const collect = runInNewContext('gc') as () => void;

const REQUESTS = 20_000;
const KEPT_PER_REQUEST_BYTES = 0.2 * 1024;

describe('a request answered leaves nothing behind', () => {
  const mock = createMockApi({ journal: { limit: 0 } });
  const id = mock.store.main.members.all()[0]!.id;
  const url = `https://community.test/api/v1/server/members/${id}`;
  const headers = { authorization: `Bearer ${mock.tokens.main}` };

  it('the caller’s signal holds no listener once its requests are answered', async () => {
    const shutdown = new AbortController();
    for (let i = 0; i < 200; i++) await (await mock.fetch(url, { headers, signal: shutdown.signal })).text();
    const request = new Request(url, { headers, signal: shutdown.signal });
    await (await mock.fetch(request)).text();
    // The Request the caller built follows the signal itself; the mock adds nothing beside it.
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(1);
    await (await mock.fetch(url, { headers, signal: shutdown.signal })).text();
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(1);
  });

  it(`${REQUESTS} requests under one long-lived signal keep at most 0.2 KB each after a collection`, async () => {
    const shutdown = new AbortController();
    const answer = async () => (await mock.fetch(url, { headers, signal: shutdown.signal })).text();
    for (let i = 0; i < 1_000; i++) await answer(); // warm: compiled code, the route's caches
    collect();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < REQUESTS; i++) await answer();
    collect();
    const kept = (process.memoryUsage().heapUsed - before) / REQUESTS;
    expect(kept, `${kept.toFixed(0)} bytes kept per request`).toBeLessThanOrEqual(KEPT_PER_REQUEST_BYTES);
  }, 60_000);
});
