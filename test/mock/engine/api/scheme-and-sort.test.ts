/**
 * Issue 19, fidelity: the mock takes `sort` exactly as the document it serves declares it
 * (`asc|desc`), and the `Bearer` scheme in any case, as RFC 9110 §11.1 has auth schemes.
 */
import { createMockApi } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { rawAnswer } from '../../../helpers';

describe('sort is asc or desc, as openapi.json declares it', () => {
  it('ASC and Desc are 400 invalid_parameter naming sort; asc and desc order the list', async () => {
    const mock = createMockApi({ seed: 1 });
    for (const sort of ['ASC', 'Desc']) {
      const answer = await rawAnswer(mock, `/api/v1/server/logs?sort=${sort}`);
      expect(answer.status, sort).toBe(400);
      expect(answer.json.error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'sort', value: sort } });
    }
    const times = async (sort: string) =>
      (await rawAnswer(mock, `/api/v1/server/logs?sort=${sort}&pageSize=50`)).json.data.map((log: { createdAt: number }) => log.createdAt);
    const ascending = await times('asc');
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    const descending = await times('desc');
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
  });
});

describe('the bearer scheme in any case', () => {
  it('Bearer, bearer and BEARER (and more than one space) present the token', async () => {
    const mock = createMockApi({ seed: 1 });
    for (const scheme of ['Bearer ', 'bearer ', 'BEARER ', 'bEaReR  ']) {
      const answer = await rawAnswer(mock, '/api/v1/server/info', {
        token: null,
        headers: { authorization: `${scheme}${mock.tokens.main}` },
      });
      expect(answer.status, scheme).toBe(200);
    }
    const [lower] = mock.requests.slice(1);
    expect(lower).toMatchObject({ token: 'main', status: 200 });
  });

  it('another scheme, or none, is still 401', async () => {
    const mock = createMockApi({ seed: 1 });
    for (const authorization of [`Basic ${mock.tokens.main}`, `Bearer${mock.tokens.main}`, mock.tokens.main]) {
      expect((await rawAnswer(mock, '/api/v1/server/info', { token: null, headers: { authorization } })).status, authorization).toBe(401);
    }
  });

  it('a token counts against one rate-limit window however its scheme is spelled', async () => {
    const mock = createMockApi({ seed: 1, rateLimit: { limit: 2, windowMs: 60_000 } });
    const ask = (scheme: string) =>
      rawAnswer(mock, '/api/v1/server/info', { token: null, headers: { authorization: `${scheme} ${mock.tokens.main}` } });
    expect((await ask('Bearer')).status).toBe(200);
    expect((await ask('bearer')).status).toBe(200);
    expect((await ask('BEARER')).status).toBe(429);
  });
});
