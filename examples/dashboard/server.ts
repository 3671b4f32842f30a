/**
 * A tiny static file server for the built dashboard: loopback only, files of one folder only,
 * GET and HEAD only. Enough for a browser (or a test) to load the page and register the worker.
 * @module
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  // A service worker script must be served as JavaScript or the browser refuses to register it.
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export interface StaticServer {
  /** e.g. `http://127.0.0.1:41234/` */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves the files under `dir` on 127.0.0.1; `port` 0 picks a free one. */
export async function serveStatic(dir: string, port = 0): Promise<StaticServer> {
  const base = resolve(dir);
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const path = safePath(base, request.url ?? '/');
    const file = path === undefined ? undefined : await stat(path).catch(() => undefined);
    if (path === undefined || !file?.isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
      'content-length': file.size,
      // Always the latest build: a rebuilt bundle must never meet a cached page.
      'cache-control': 'no-store',
    });
    if (request.method === 'HEAD') response.end();
    else {
      createReadStream(path)
        .on('error', () => response.destroy())
        .pipe(response);
    }
  };
  // A request that fails ends its own connection; it never becomes an unhandled rejection.
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', done);
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}/`,
    close: () => new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done()))),
  };
}

/** The file a URL path names inside `base` (`/` is `index.html`), or `undefined` if it would leave `base`. */
function safePath(base: string, url: string): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, 'http://localhost').pathname);
  } catch {
    return undefined; // broken percent-encoding
  }
  const path = resolve(join(base, pathname.endsWith('/') ? `${pathname}index.html` : pathname));
  return path.startsWith(base + sep) ? path : undefined;
}
