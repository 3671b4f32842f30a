/** Test doubles shared by the suites: a recording `fetch` and response builders. */
import { CommunityServerClient, type ClientOptions } from 'community-server-sdk';

export const TOKEN = 'cs_test_5f2b9c1e7a';
export const BASE_URL = 'https://api.test';

export type Handler = (request: Request, attempt: number) => Response | Promise<Response>;

/** A `fetch` that answers with `handler` and records every request it was given. */
export function recordingFetch(handler: Handler) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request.clone()); // a clone: ky cancels the sent body once the call settles
    return handler(request, requests.length);
  };
  return { fetch, requests };
}

/** A client whose fetch is `handler`, plus the requests it sent. */
export function clientWith(handler: Handler, options: ClientOptions = {}) {
  const { fetch, requests } = recordingFetch(handler);
  const client = new CommunityServerClient({ token: TOKEN, baseUrl: BASE_URL, fetch, ...options });
  return { client, requests };
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export const errorBody = (code: string, message: string, details?: unknown) => ({ error: { code, message, details } });

export const member = (id: string) => ({ id, serverId: 'srv_1', roles: ['r1'], createdAt: 1763596800 });

/** Path and query of a recorded request, e.g. `/api/v1/server/members?page=2`. */
export const target = (request: Request) => {
  const url = new URL(request.url);
  return url.pathname + url.search;
};

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A paged list of `total` members served like the API: `page`/`pageSize`/`limit` from the query,
 * default page size 10. `delay` holds each answer back, to observe concurrency.
 */
export function pagedMembers(total: number, delay = 0) {
  let inFlight = 0;
  const stats = { maxInFlight: 0 };
  const handler: Handler = async (request) => {
    inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    try {
      if (delay) await sleep(delay);
      const query = new URL(request.url).searchParams;
      const page = Number(query.get('page') ?? 1);
      const pageSize = Number(query.get('pageSize') ?? query.get('limit') ?? 10);
      const start = (page - 1) * pageSize;
      const data = Array.from({ length: Math.max(0, Math.min(pageSize, total - start)) }, (_, i) => member(`m${start + i + 1}`));
      return json({ data, page, pageSize, total, totalPages: Math.ceil(total / pageSize) });
    } finally {
      inFlight--;
    }
  };
  return { handler, stats };
}
