/**
 * The mock over real HTTP (node:http): one server for the root mock, its control API at
 * `/__mock/*` and its sessions under `/sessions/{id}`. Each request is read once (its target,
 * its body up to 1 MiB, its `Authorization`), handed to the session's or the root's control plane
 * or engine, and its answer written out with CORS headers for pages on another origin.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Incoming } from '../../engine/api/pipeline';
import { readAuthorization } from '../../engine/auth';
import { isNetworkFault } from '../../engine/faults';
import {
  errorAnswer,
  internalError,
  invalidPath,
  isNoAnswer,
  MAX_BODY_BYTES,
  MockHttpError,
  NO_ANSWER,
  payloadTooLarge,
  type MockAnswer,
} from '../../engine/replies';
import { isControlPath } from '../control/plane';
import type { Served, Sessions } from '../sessions/sessions';

/** The root mock a server serves: its engine and control plane, and the wrapper of its `fetch` when it has one now. */
export interface Root extends Served {
  /** The mock's `fetch` where it is a wrapper of the engine's own (to count or change what it answers); `undefined` else. */
  wrapper(): typeof globalThis.fetch | undefined;
}

/** What the admin token presented to the API reads as: a bearer header with no token. */
const NO_TOKEN = readAuthorization('Bearer');

// Browsers on another origin (a dashboard on a dev server) may call the mock directly.
const CORS = {
  'access-control-allow-origin': '*',
  // PUT for the control API (`PUT /__mock/health`), which a browser test drives too.
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE, OPTIONS',
  // Any header a client sends: `RequestOptions.headers`, `traceparent`/`tracestate` of a traced
  // call. `*` covers every header but `Authorization`, which must be named; it is safe because
  // the mock answers any origin without credentials (cookies): a page sends only what it holds.
  'access-control-allow-headers': 'authorization, *',
  'access-control-expose-headers':
    'allow, retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, x-ratelimit-reset-after',
  'access-control-max-age': '600',
};

async function readBody(incoming: IncomingMessage): Promise<Buffer | 'too large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return 'too large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Writes `answer` out: its status, headers and body (none for a HEAD: node:http drops it). */
function send(outgoing: ServerResponse, { status, headers, body }: MockAnswer): void {
  outgoing.writeHead(status, { ...CORS, ...headers }).end(body ?? undefined);
}

/** An error this door finds itself, before the mock sees the request; the body is the mock's error shape. */
const refuse = (outgoing: ServerResponse, error: MockHttpError) => send(outgoing, errorAnswer(error, 'object'));

// A request body's text as `Request.text()` reads it: UTF-8, a byte-order mark dropped, bad bytes replaced.
const utf8 = new TextDecoder();

/** The origin a request was sent to, as its `Host` names it (`http://localhost:4010`), or the server's own. */
function originOf(incoming: IncomingMessage, own: string): string {
  try {
    const origin = new URL(`http://${incoming.headers.host ?? ''}`).origin;
    return origin === 'null' ? own : origin;
  } catch {
    return own;
  }
}

/** Answers one request: a session's or the root's, its control API's or its API's. */
async function answer(root: Root, sessions: Sessions, origin: string, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const method = incoming.method ?? 'GET';
  if (method === 'OPTIONS') return send(outgoing, { status: 204, headers: {}, body: null });
  let url: URL;
  try {
    url = new URL(incoming.url ?? '/', origin);
    if (url.origin !== origin) throw new Error('absolute-form request target for another origin');
  } catch {
    return refuse(outgoing, invalidPath('the request target is not a path'));
  }
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(incoming);
  if (body === 'too large') {
    return refuse(outgoing, payloadTooLarge());
  }
  // Looked up once the body is read: nothing awaits between here and the session's answer beginning.
  const entered = sessions.enter(url.pathname);
  if (entered instanceof MockHttpError) return refuse(outgoing, entered);
  const served = entered?.session ?? root;
  try {
    await serve(served, entered?.path ?? url.pathname, url, method, body, incoming, outgoing);
  } finally {
    if (entered) sessions.release(entered.session);
  }
}

/** Answers a request of `served` (the root or a session) whose path from its base is `path`. */
async function serve(
  { engine, control, wrapper }: Served & Partial<Root>,
  path: string,
  url: URL,
  method: string,
  body: Buffer | undefined,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  // Read once, for the control API's admin token or the API's admission and journal alike.
  const authorization = readAuthorization(incoming.headers.authorization ?? null);
  // The control API never reaches the mock: it is not journaled, not rate limited, not delayed.
  if (isControlPath(path)) {
    const request = {
      method,
      path,
      query: url.searchParams,
      authorization,
      body: body ? new Uint8Array(body) : undefined,
      origin: originOf(incoming, url.origin),
    };
    return send(outgoing, await control.answer(request));
  }
  // Aborted when the client goes away before its answer is written. Made only when the mock
  // waits (latency, a fault's delay) and so asks for it: most requests never do, and an
  // AbortController (with the DOMException of its abort) per request costs ~6% of the server's time.
  let controller: AbortController | undefined;
  let gone = false;
  outgoing.once('close', () => {
    gone = !outgoing.writableFinished;
    if (gone) controller?.abort();
  });
  const read: Incoming = {
    method: method.toUpperCase(),
    // A session's mock sees the path from its base, as a client with the session's baseUrl means it.
    path,
    query: url.searchParams,
    // The admin token opens no API request, whatever the store holds (a row written in-process
    // with it as a secret included): presented, it reaches the mock as a bearer header with no
    // token, which the mock answers, journals and counts as any token it does not know.
    authorization: control.presentsAdminToken(authorization) ? NO_TOKEN : authorization,
    body: body && utf8.decode(body),
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (gone) controller.abort();
      }
      return controller.signal;
    },
  };
  // A mock whose `fetch` was wrapped (to count or change what it answers) is served through its wrapper.
  const through = wrapper?.();
  const answer = through
    ? await answerByFetch(through, read, new URL(path + url.search, url.origin), incoming.headers)
    : await engine.pipeline.answer(read);
  // No answer (a network fault, or the caller went away): the connection fails, as one that broke.
  if (isNoAnswer(answer)) return void outgoing.destroy();
  send(outgoing, answer);
}

/**
 * The answer of `fetch` (a wrapper of the mock's own) to `read`, sent to `target` with the
 * request's `headers`: what the HTTP server answered every request with before it had the
 * pipeline to itself. A rejection for a network fault, or for the client gone away, is no answer.
 */
async function answerByFetch(
  fetch: typeof globalThis.fetch,
  read: Incoming,
  target: URL,
  headers: IncomingMessage['headers'],
): Promise<MockAnswer> {
  const sent = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) sent.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  if (read.authorization.header !== null) sent.set('authorization', read.authorization.header);
  try {
    const response = await fetch(target, { method: read.method, headers: sent, signal: read.signal ?? null, body: read.body ?? null });
    return { status: response.status, headers: Object.fromEntries(response.headers), body: new Uint8Array(await response.arrayBuffer()) };
  } catch (error) {
    if (read.signal?.aborted || isNetworkFault(error)) return NO_ANSWER;
    throw error;
  }
}

/** A running server: where it listens, and how it stops. */
export interface Listening {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Serves `root` and `sessions` on `host:port` (0: any free port) until `close()`, which closes every session too. */
export async function listen(root: Root, sessions: Sessions, port: number, host: string): Promise<Listening> {
  let origin = '';
  const server = createServer((incoming, outgoing) => {
    answer(root, sessions, origin, incoming, outgoing).catch((error: unknown) => {
      // A bug of the mock's own: said in the spec's error shape, or, once the answer began, by a broken connection.
      if (outgoing.headersSent || outgoing.destroyed) return outgoing.destroy();
      refuse(outgoing, internalError(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${hostname}:${address.port}`;
  return {
    url: origin,
    port: address.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        sessions.closeAll();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
