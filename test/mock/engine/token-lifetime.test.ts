/**
 * Token lifetimes (issue 10, item 13): `expiresInDays` is a whole number of days from 1 to 36500
 * (a hundred years), so a token's `expiresAt` is always a representable date that `toDate` reads
 * as such. The mock answers anything else with 400 `invalid_request` naming the field; the SDK
 * refuses it before any request, from the same schema.
 */
import { InvalidArgumentError, toDate } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { describe, expect, it, vi } from 'vitest';
import { mockClient, rawRequest } from '../../helpers';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const mock = createMockApi({ seed: 6, now: () => NOW });

const create = (body: unknown) => rawRequest(mock, '/api/v1/tokens', { method: 'POST', json: body });

describe('#13 a token’s lifetime is bounded, so its expiry is always a real date', () => {
  it.each([3_650_000, 36_501, 1e15, 0, -1, 1.5, Number.MAX_SAFE_INTEGER])(
    'the mock answers expiresInDays %s with 400 invalid_request naming the field',
    async (days) => {
      const response = await create({ name: 'bot', expiresInDays: days });
      expect(response.status).toBe(400);
      const { error } = await response.json();
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(/^expiresInDays must be (at least 1|at most 36500|an integer or null), got /);
      expect(error.details.issues[0].path).toBe('expiresInDays');
    },
  );

  it('the bounds themselves are accepted: 1 day and 36500 days, whose expiry toDate reads as 2126', async () => {
    for (const [days, year] of [
      [1, 2026],
      [36_500, 2126],
    ] as const) {
      const response = await create({ name: `bot-${days}`, expiresInDays: days });
      expect(response.status).toBe(201);
      const token = await response.json();
      expect(token.expiresAt).toBe(Math.floor(NOW / 1000) + days * 86_400);
      expect(toDate(token.expiresAt).getUTCFullYear()).toBe(year);
    }
  });

  it('the SDK refuses an unbounded lifetime before any request, naming the field', async () => {
    const fetch = vi.fn(mock.fetch);
    const client = mockClient(mock, { fetch });
    for (const days of [3_650_000, 36_501]) {
      const error = await client.tokens.create({ name: 'bot', expiresInDays: days }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toContain('expiresInDays must be at most 36500');
    }
    expect(fetch).not.toHaveBeenCalled();
  });
});
