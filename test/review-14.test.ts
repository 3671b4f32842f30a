/**
 * Review of issue 14 as a careless user and a hostile service would use it: a log sink that
 * fails must not fail the SDK's work, and a 400 must not echo megabytes the caller sent.
 */
import { RateLimitError, type Logger } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { clientWith, errorBody, json, member, rawAnswer, sleep } from './helpers';

/** A logger each of whose methods throws, counting the lines it was offered. */
function throwingLogger() {
  let offered = 0;
  const fail = () => {
    offered++;
    throw new Error('log sink down');
  };
  const logger: Logger = { error: fail, warn: fail, info: fail, debug: fail };
  return { logger, offered: () => offered };
}

describe('a logger that throws does not fail the call', () => {
  it('a retried GET at debug still returns its answer', async () => {
    const { logger, offered } = throwingLogger();
    const { client, requests } = clientWith(
      (_, attempt) => (attempt === 1 ? json(errorBody('unavailable', 'down'), 503, { 'retry-after': '0' }) : json(member('m1'))),
      { logLevel: 'debug', logger, validation: 'warn' },
    );
    await expect(client.members.get('m1')).resolves.toMatchObject({ id: 'm1' });
    expect(requests).toHaveLength(2);
    expect(offered()).toBeGreaterThanOrEqual(3); // two attempts and the retry's wait were offered
  });

  it('nor does an async one that rejects: no unhandled rejection', async () => {
    const rejected: unknown[] = [];
    const record = (reason: unknown) => void rejected.push(reason);
    process.on('unhandledRejection', record);
    try {
      const fail = () => Promise.reject(new Error('log sink down'));
      // What the rule warns of is the case under test: an async writer where a sync one is typed.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises
      const logger: Logger = { error: fail, warn: fail, info: fail, debug: fail };
      const { client } = clientWith(() => json(member('m1')), { logLevel: 'debug', logger });
      await expect(client.members.get('m1')).resolves.toMatchObject({ id: 'm1' });
      await sleep(50); // past the turn Node reports unhandled rejections in
      expect(rejected).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('nor does one at warn, for a plain-http baseUrl', () => {
    const { logger, offered } = throwingLogger();
    expect(() => clientWith(() => json(member('m1')), { baseUrl: 'http://api.test', logger })).not.toThrow();
    expect(offered()).toBe(1);
  });
});

describe('a Retry-After of more digits than a number holds', () => {
  it('is a wait longer than any, so the 429 is not retried at once', async () => {
    const { client, requests } = clientWith(() => json(errorBody('rate_limited', 'slow down'), 429, { 'retry-after': '9'.repeat(30) }));
    const error = await client.members.get('m1').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(2 ** 31);
    expect(requests).toHaveLength(1);
  });
});

describe('a 400 names the problem without echoing what was sent', () => {
  const mock = createMockApi();
  const LIMIT = 1000;

  it.each([
    ['a blank name of a megabyte', { name: ' '.repeat(1 << 20) }],
    ['an unknown key of a megabyte', { name: 'ci', ['k'.repeat(1 << 20)]: 1 }],
    ['ten thousand unknown keys', Object.fromEntries(Array.from({ length: 10_000 }, (_, n) => [`key${n}`, n]))],
  ])('%s', async (_, body) => {
    const answer = await rawAnswer(mock, '/api/v1/tokens', { method: 'POST', json: body });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('invalid_request');
    expect(answer.json.error.message.length).toBeLessThan(LIMIT);
    expect(answer.text.length).toBeLessThan(4 * LIMIT);
  });

  it.each([
    ['a sort of a megabyte', `sort=${'x'.repeat(1 << 20)}`],
    ['a page repeated ten thousand times', Array.from({ length: 10_000 }, () => 'page=1').join('&')],
  ])('a query parameter: %s', async (_, query) => {
    const answer = await rawAnswer(mock, `/api/v1/server/members?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('invalid_parameter');
    expect(answer.json.error.message.length).toBeLessThan(LIMIT);
  });
});
