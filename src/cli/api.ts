/**
 * `community-server api <METHOD> <path>`: one request as written, for what no command covers (a
 * query parameter the table does not name, an endpoint newer than this SDK). The path is the
 * base URL's (it must start with `/`: an absolute URL would take the token to another host);
 * the answer is printed as any command's, unchecked by a schema; a non-2xx status is the SDK's
 * typed error (exit 1). Sent once, never retried. A path of the table whose request needs no
 * token (the health probes) goes without one.
 * @module
 */
import { AbortError, ConnectionError, responseError, TimeoutError } from '../core/errors';
import { describeThrown } from '../core/describe';
import { operations } from '../operations/index';
import { API_METHODS, API_OPTIONS } from './subcommand-flags';
import { connect } from './connection';
import type { Cli } from './context';
import { UsageError } from './failure';
import { parse } from './flags';
import { printDocument, printingOf } from './output/printer';

/** How long the request may take. */
const TIMEOUT_MS = 30_000;

const HELP = `Usage: community-server api <METHOD> <path> [flags]

Sends one request as written and prints the answer, e.g.
  community-server api GET /api/v1/server/info
  community-server api GET '/api/v1/server/logs?pageSize=5&orderBy=createdAt'

<METHOD>  ${API_METHODS.join(', ')}
<path>    the path under the base URL, starting with /, with any query string

Takes --output, --fields and the connection flags of every command (community-server --help).
`;

/** Whether the table's request at `path` (a query string ignored) needs no token. */
function needsNoToken(method: string, path: string): boolean {
  const bare = path.split('?')[0]!;
  return operations().some(
    ({ endpoint }) =>
      !endpoint.auth && endpoint.method === method && new RegExp(`^${endpoint.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(bare),
  );
}

export async function run(args: readonly string[], cli: Cli): Promise<void> {
  const { values, positionals } = parse(args, API_OPTIONS, 'api');
  if (values.help) return cli.out.write(HELP);
  const [rawMethod, path, ...extra] = positionals;
  if (rawMethod === undefined || path === undefined || extra.length) throw new UsageError('api takes <METHOD> <path>', 'api');
  const method = rawMethod.toUpperCase();
  if (!(API_METHODS as readonly string[]).includes(method)) {
    throw new UsageError(`<METHOD> must be one of ${API_METHODS.join(', ')}`, 'api');
  }
  if (!path.startsWith('/') || path.startsWith('//')) {
    throw new UsageError('<path> must start with / and name a path under the base URL, not another host', 'api');
  }
  const printing = printingOf(values, cli);
  const connection = await connect(values, cli, { needsToken: !needsNoToken(method, path) });
  const url = new URL(connection.baseUrl + path);
  const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9' };
  if (connection.token) headers.authorization = `Bearer ${connection.token}`;
  const signal = AbortSignal.any([cli.signal, AbortSignal.timeout(TIMEOUT_MS)]);
  let response: Response;
  let body: string;
  try {
    response = await connection.fetch(url, { method, headers, signal });
    body = await response.text();
  } catch (error) {
    if (cli.signal.aborted) throw new AbortError('interrupted', { cause: error });
    if (signal.aborted) throw new TimeoutError(`${method} ${url.pathname} took longer than ${TIMEOUT_MS} ms`);
    throw new ConnectionError(`${method} ${url.pathname} failed: ${reasonOf(error)}`, { cause: error });
  }
  if (!response.ok) throw responseError(response, body, { method, path: url.pathname }, connection.token);
  await printDocument(answerOf(response, body), printing, cli.out);
}

/** What a failed fetch says, with its cause's code (`fetch failed (ECONNREFUSED)`). */
function reasonOf(error: unknown): string {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return `${describeThrown(error)}${typeof code === 'string' ? ` (${code})` : ''}`;
}

/** The answer's JSON when it says it is JSON and is; its text otherwise. */
function answerOf(response: Response, body: string): unknown {
  if (!/\bjson\b/i.test(response.headers.get('content-type') ?? '')) return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
