/**
 * The token admission's counters (`TokenAdmission`: rate limit and auth-failure suspension) under a flood of made-up tokens (issue 23, item 14): with a rate limit
 * and an auth-failure limit on, every credential presented gets a window and a failure count.
 * They are keyed by a fixed-size digest, never by the text presented, and at most
 * `MAX_STRANGERS` (10,000) of them are kept for credentials that are no token of the store, so
 * 20,000 random tokens of 4 KB keep 4.7 MB of heap on Node 20 (88 MB before: both counters kept
 * each token's text), and the store's own tokens keep their windows and suspensions through the
 * flood.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createMockApi } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { rawAnswer, rawRequest } from '../../helpers';

/** A full garbage collection, without starting node with `--expose-gc`. */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** The live heap once the event loop has turned (undici frees a Request's bookkeeping between macrotasks) and garbage is collected. */
const heapAfterCollection = async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  collect();
  collect();
  return process.memoryUsage().heapUsed;
};

/** A made-up bearer secret of `length` characters, different for each `index`. */
const madeUp = (index: number, length: number) => `${index.toString(36)}-`.padEnd(length, 'x');

/** A mock that allows `limit` requests an hour and suspends a token for an hour after `failures`; no journal. */
const gated = (limit: number, failures: number) =>
  createMockApi({
    seed: 1,
    now: () => Date.UTC(2026, 10, 20),
    rateLimit: { limit, windowMs: 3_600_000 },
    authFailureLimit: { failures, durationMs: 3_600_000 },
    journal: { limit: 0 },
  });

describe('issue 23 #14: made-up tokens cost bounded memory', () => {
  it('20,000 made-up tokens of 4 KB in a one-hour window keep under 8 MB', async () => {
    const mock = gated(100, 5);
    const roles = (token: string) => rawRequest(mock, '/api/v1/server/roles', { token }).then((response) => response.status);
    await roles(madeUp(-1, 4096)); // the mock's own first-use costs, outside the measure
    const before = await heapAfterCollection();
    for (let index = 0; index < 20_000; index++) {
      expect(await roles(madeUp(index, 4096))).toBe(401);
      if (index % 500 === 0) await new Promise((resolve) => setImmediate(resolve)); // as a server's event loop turns
    }
    const kept = (await heapAfterCollection()) - before;
    // Before: both counters kept each 4 KB text, 88 MB in all.
    expect(kept).toBeLessThan(8 * 1024 * 1024);
  }, 120_000);

  it('the store’s tokens keep their windows and suspensions through the flood', async () => {
    const mock = gated(2, 1);
    expect((await rawAnswer(mock, '/api/v1/server/roles')).status).toBe(200); // main: one of its two
    expect((await rawAnswer(mock, '/api/v1/server/roles', { token: mock.tokens.revoked })).status).toBe(401); // suspended now
    for (let index = 0; index < 12_000; index++) await rawRequest(mock, '/api/v1/server/roles', { token: madeUp(index, 64) });
    const second = await rawAnswer(mock, '/api/v1/server/roles');
    expect([second.status, second.headers.get('x-ratelimit-remaining')]).toEqual([200, '0']);
    expect((await rawAnswer(mock, '/api/v1/server/roles')).status).toBe(429);
    expect((await rawAnswer(mock, '/api/v1/server/roles', { token: mock.tokens.revoked })).json.error).toBe(
      'token suspended after repeated authentication failures',
    );
    // A made-up token is counted by its digest as it was by its text: its own window, its own suspension.
    const stranger = madeUp(99_999, 64);
    expect((await rawAnswer(mock, '/api/v1/server/roles', { token: stranger })).json.error).toBe('invalid or expired token');
    expect((await rawAnswer(mock, '/api/v1/server/roles', { token: stranger.toUpperCase() })).json.error).toBe('invalid or expired token');
    expect((await rawAnswer(mock, '/api/v1/server/roles', { token: stranger })).json.error).toBe(
      'token suspended after repeated authentication failures',
    );
  }, 120_000);
});
