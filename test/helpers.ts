/**
 * Test doubles shared by the suites: a recording `fetch`, response builders, and the two ways a
 * test reaches the mock (a client of it, and a raw request to it).
 */
import { CommunityServerClient, type ClientOptions } from 'community-server-sdk';
import type { MockApi } from 'community-server-sdk/mock';

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

/** The origin `mock.fetch` is addressed at in-process (any origin serves; one keeps URLs alike). */
export const MOCK_ORIGIN = 'https://community.test';

/**
 * A client of `mock`: the main token, in-process through `mock.fetch`, and no retries, so a
 * failure shows at once. Any option overrides those; with a `baseUrl` (an HTTP mock's `url`) it
 * goes over the network instead, and `maxRetries: undefined` restores the client's default.
 */
export function mockClient(mock: MockApi, options: ClientOptions = {}) {
  const door = options.baseUrl === undefined ? { baseUrl: MOCK_ORIGIN, fetch: mock.fetch } : {};
  return new CommunityServerClient({ token: mock.tokens.main, maxRetries: 0, ...door, ...options });
}

/** `mock.fetch`, each answer of `path` held until `held.release()`: the service answered, the client has not heard yet. */
export function heldAnswers(mock: MockApi, path: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = { count: 0, release };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await mock.fetch(input, init);
    if (new URL(input instanceof Request ? input.url : String(input)).pathname === path) {
      held.count++;
      await released;
    }
    return response;
  };
  return { fetch, held };
}

/**
 * Two members join at once (one poll of `feed`, a watch of `client.members.list()`, reads both);
 * the first is yielded; then the second is renamed on the service and `client.cache.invalidate('members')`
 * runs; then the second is yielded. Returns the second as the service first had it, and as yielded.
 */
export async function yieldedAfterInvalidation(
  mock: MockApi,
  client: CommunityServerClient,
  feed: AsyncIterator<unknown> & { cursor: unknown },
) {
  for (const deadline = Date.now() + 5_000; feed.cursor === undefined && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 5)); // until the starting point is read
  }
  const now = Math.floor(Date.now() / 1000) + 1; // newer than every seeded member
  const first = mock.store.main.members.create({ createdAt: now });
  const second = mock.store.main.members.create({ createdAt: now + 1 });
  const firstYielded = (await feed.next()).value as { id: string };
  mock.store.main.members.update(second.id, { username: 'renamed' });
  await client.cache.invalidate('members');
  return { first, firstYielded, second, yielded: (await feed.next()).value as { id: string } };
}

export interface RawRequest {
  /** The bearer token (default the main one); `null` sends no Authorization header. */
  token?: string | null;
  method?: string;
  headers?: Record<string, string>;
  /** A body sent as is. */
  body?: string;
  /** A body sent as JSON, with its content type. */
  json?: unknown;
  /** An HTTP mock's `url`, to go over the network; default in-process through `mock.fetch`. */
  baseUrl?: string;
}

/**
 * A request to the mock as any HTTP client sends it, bypassing the SDK, so what a test checks is
 * what is on the wire. `path` is the path and query, e.g. `/api/v1/server/members?page=2`.
 */
export function rawRequest(
  mock: MockApi,
  path: string,
  { token = mock.tokens.main, method = 'GET', headers = {}, body, json, baseUrl }: RawRequest = {},
): Promise<Response> {
  const init: RequestInit = {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
  };
  const sent = json === undefined ? body : JSON.stringify(json);
  if (sent !== undefined) init.body = sent;
  return baseUrl === undefined ? mock.fetch(`${MOCK_ORIGIN}${path}`, init) : fetch(`${baseUrl}${path}`, init);
}

/** A response read whole: its status, headers, text, and the text parsed when it is JSON. */
export async function readAnswer(response: Response) {
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined; // a text body (e.g. `/health`) or none (HEAD)
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** {@link rawRequest}, its answer read whole by {@link readAnswer}. */
export const rawAnswer = async (mock: MockApi, path: string, request?: RawRequest) => readAnswer(await rawRequest(mock, path, request));

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
