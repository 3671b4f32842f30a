import { CommunityServerError, InvalidArgumentError, Page, PagePromise } from 'community-server-sdk';
import { describe, expect, it } from 'vitest';
import { clientWith, json, member, pagedMembers, target } from './helpers';

const ids = (items: { id: string }[]) => items.map((item) => item.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);

describe('a list call', () => {
  it('awaits to a Page with the envelope, and can step through pages', async () => {
    const { client, requests } = clientWith(pagedMembers(25).handler);
    const listing = client.members.list();
    expect(listing).toBeInstanceOf(PagePromise);
    const first = await listing;
    expect(first).toBeInstanceOf(Page);
    expect(first).toMatchObject({ page: 1, pageSize: 10, total: 25, totalPages: 3 });
    expect(ids(first.data)).toEqual(range(1, 10));
    expect(first.hasNextPage()).toBe(true);
    const third = await (await first.getNextPage()).getNextPage();
    expect(ids(third.data)).toEqual(range(21, 25));
    expect(third.hasNextPage()).toBe(false);
    await expect(third.getNextPage()).rejects.toThrow(CommunityServerError);
    expect(requests.map(target)).toEqual([
      '/api/v1/server/members',
      '/api/v1/server/members?page=2',
      '/api/v1/server/members?page=3',
    ]);
  });
});

describe('for await', () => {
  it('walks every item of every page in order, one request per page and none past the end', async () => {
    const { client, requests } = clientWith(pagedMembers(95).handler);
    const seen: string[] = [];
    for await (const m of client.members.list({ pageSize: 20, orderBy: 'createdAt', sort: 'asc' })) seen.push(m.id);
    expect(seen).toEqual(range(1, 95));
    expect(requests.map(target)).toEqual([
      '/api/v1/server/members?pageSize=20&orderBy=createdAt&sort=asc',
      ...[2, 3, 4, 5].map((p) => `/api/v1/server/members?pageSize=20&orderBy=createdAt&sort=asc&page=${p}`),
    ]);
  });

  it('is lazy: breaking after the first item leaves the other pages unrequested', async () => {
    const { client, requests } = clientWith(pagedMembers(1000).handler);
    for await (const m of client.members.list()) {
      expect(m.id).toBe('m1');
      break;
    }
    expect(requests).toHaveLength(1);
  });

  it('fetches page N+1 only once page N is used up', async () => {
    const { client, requests } = clientWith(pagedMembers(30).handler);
    let count = 0;
    for await (const _ of client.members.list()) {
      count++;
      expect(requests).toHaveLength(Math.ceil(count / 10));
    }
    expect(count).toBe(30);
  });

  it('an empty list makes one request and yields nothing', async () => {
    const { client, requests } = clientWith(pagedMembers(0).handler);
    const seen = [];
    for await (const m of client.members.list()) seen.push(m);
    expect(seen).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('stops on an empty page even if the envelope claims more pages', async () => {
    const { client, requests } = clientWith((request) => {
      const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
      return json({ data: page === 1 ? [member('a')] : [], page, pageSize: 1, total: 99, totalPages: 99 });
    });
    const seen = [];
    for await (const m of client.members.list()) seen.push(m.id);
    expect(seen).toEqual(['a']);
    expect(requests).toHaveLength(2);
  });

  it('keeps path parameters and params on every page of a nested list', async () => {
    const { client, requests } = clientWith(pagedMembers(12).handler, { validation: 'off' });
    const pages = [];
    for await (const page of client.departments.members.list('dept 1', { limit: 5 }).pages()) pages.push(page.page);
    expect(pages).toEqual([1, 2, 3]);
    expect(requests.map(target)).toEqual([
      '/api/v1/server/departments/dept%201/members?limit=5',
      '/api/v1/server/departments/dept%201/members?limit=5&page=2',
      '/api/v1/server/departments/dept%201/members?limit=5&page=3',
    ]);
  });

  it('a failing page surfaces its error to the loop', async () => {
    const { client } = clientWith((request, attempt) =>
      attempt === 1 ? pagedMembers(30).handler(request, attempt) : json({ error: { code: 'boom', message: 'boom' } }, 400),
    );
    const seen: string[] = [];
    await expect(async () => {
      for await (const m of client.members.list()) seen.push(m.id);
    }).rejects.toMatchObject({ status: 400, code: 'boom' });
    expect(seen).toHaveLength(10);
  });
});

describe('toArray', () => {
  it('collects every item in order', async () => {
    const { client, requests } = clientWith(pagedMembers(53).handler);
    expect(ids(await client.members.list().toArray())).toEqual(range(1, 53));
    expect(requests).toHaveLength(6);
  });

  it.each([1, 2, 4, 8])('fetches pages 2..N at most %i at a time, keeping order', async (concurrency) => {
    const { handler, stats } = pagedMembers(200, 15);
    const { client, requests } = clientWith(handler);
    const items = await client.members.list().toArray({ concurrency });
    expect(ids(items)).toEqual(range(1, 200));
    expect(requests).toHaveLength(20);
    expect(stats.maxInFlight).toBe(concurrency);
  });

  it('with limit, fetches only the pages that hold the first `limit` items', async () => {
    const { client, requests } = clientWith(pagedMembers(500).handler);
    const items = await client.members.list({ pageSize: 20 }).toArray({ limit: 45 });
    expect(ids(items)).toEqual(range(1, 45));
    expect(requests.map(target)).toEqual([
      '/api/v1/server/members?pageSize=20',
      '/api/v1/server/members?pageSize=20&page=2',
      '/api/v1/server/members?pageSize=20&page=3',
    ]);
  });

  it('a limit within the first page makes exactly one request', async () => {
    const { client, requests } = clientWith(pagedMembers(500).handler);
    expect(await client.members.list().toArray({ limit: 3 })).toHaveLength(3);
    expect(await client.members.list().toArray({ limit: 0 })).toEqual([]);
    expect(requests).toHaveLength(2);
  });

  it('a limit beyond the list collects the whole list', async () => {
    const { client, requests } = clientWith(pagedMembers(25).handler);
    expect(await client.members.list().toArray({ limit: 1000 })).toHaveLength(25);
    expect(requests).toHaveLength(3);
  });

  it('stops starting pages after one fails, and rejects with its error', async () => {
    const { client, requests } = clientWith((request, attempt) => {
      const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
      return page === 3 ? json({ error: { code: 'nope', message: 'nope' } }, 404) : pagedMembers(500).handler(request, attempt);
    });
    await expect(client.members.list().toArray({ concurrency: 1 })).rejects.toMatchObject({ status: 404 });
    expect(requests).toHaveLength(3);
  });

  it.each([{ limit: -1 }, { limit: 1.5 }, { concurrency: 0 }, { concurrency: 2.5 }])('rejects bad options %o', async (options) => {
    const { client } = clientWith(pagedMembers(5).handler);
    await expect(client.members.list().toArray(options)).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
