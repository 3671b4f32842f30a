/**
 * The client a command talks through, from its flags and environment: the base URL
 * (`--base-url`, env `COMMUNITY_SERVER_BASE_URL`), the token (env `COMMUNITY_SERVER_TOKEN`,
 * `--token-file PATH` or `--token-stdin`; never an argument, which `ps` and shell history would
 * show), or `--mock [--seed N]`: a seeded mock in this process, no server and no token needed.
 * Everything here is checked before any request: a problem is a {@link UsageError} (exit 2).
 * @module
 */
import { readFile, stat } from 'node:fs/promises';
import type { CommunityServerClient } from '../src/client';
import type { Logger } from '../src/core/log';
import { MIN_TOKEN_LENGTH, TOKEN_CHARS } from '../src/core/token';
import type { Cli } from './context';
import { UsageError } from './failure';
import { visible } from './terminal';

/** The flags of every command that talks to the API, as `parseArgs` takes them. */
export const CONNECTION_OPTIONS = {
  'base-url': { type: 'string' },
  'token-file': { type: 'string' },
  'token-stdin': { type: 'boolean' },
  mock: { type: 'boolean' },
  seed: { type: 'string' },
} as const;

/** Their values, as `parseArgs` gives them. */
export interface ConnectionFlags {
  'base-url'?: string | undefined;
  'token-file'?: string | undefined;
  'token-stdin'?: boolean | undefined;
  mock?: boolean | undefined;
  seed?: string | undefined;
}

/** Where the token may come from, as usage errors say it. */
export const TOKEN_SOURCES = 'set COMMUNITY_SERVER_TOKEN, or pass --token-file PATH or --token-stdin';

/** What a command talks through. */
export interface Connection {
  readonly client: CommunityServerClient;
  /** The base URL requests go to (the mock's made-up origin with `--mock`). */
  readonly baseUrl: string;
  /** The token, if any: for the raw requests of `api` (never to be written anywhere). */
  readonly token: string | undefined;
  /** The fetch requests go through (the mock's with `--mock`). */
  readonly fetch: typeof globalThis.fetch;
  /** Stops what the connection runs (the mock's activity). */
  close(): void;
}

export interface ConnectOptions {
  /** Whether the requests to make need the token (health probes do not). */
  needsToken: boolean;
  /** With `--mock`: the mock's world changes by itself, one event every this many ms (for `watch`). */
  mockActivityMs?: number | undefined;
}

/** Longer than any token file: a bigger file is not one. */
const MAX_TOKEN_FILE_BYTES = 64 * 1024;
/** Where `--mock` pretends the API is: a reserved name, never reachable. */
const MOCK_ORIGIN = 'https://mock.community-server.invalid';

/**
 * The client's class, loaded when a command first connects: with it comes ky, whose import
 * starts Node's fetch (undici), which `--help` and a usage error have no use for.
 */
const clientClass = async () => (await import('../src/client')).CommunityServerClient;

/** `--token`, refused wherever it appears (before `--`), with where a token comes from instead. */
export function refuseTokenArgument(argv: readonly string[]): void {
  for (const arg of argv) {
    if (arg === '--') return;
    if (arg === '--token' || arg.startsWith('--token=')) {
      throw new UsageError(
        `--token is not accepted: a token on the command line shows in \`ps\` and in shell history. Instead, ${TOKEN_SOURCES}`,
      );
    }
  }
}

/** The client `flags` describe; its token joins `cli.secrets`. */
export async function connect(flags: ConnectionFlags, cli: Cli, options: ConnectOptions): Promise<Connection> {
  const logger = stderrLogger(cli);
  if (flags.mock) return connectMock(flags, logger, options);
  if (flags.seed !== undefined) throw new UsageError('--seed goes with --mock');
  const token = await readToken(flags, cli);
  if (token !== undefined) cli.secrets.add(token);
  if (token === undefined && options.needsToken) throw new UsageError(`no token: ${TOKEN_SOURCES} (or try --mock)`);
  const baseUrl = flags['base-url'] ?? nonEmpty(cli.io.env.COMMUNITY_SERVER_BASE_URL);
  if (baseUrl === undefined) throw new UsageError('no base URL: pass --base-url URL or set COMMUNITY_SERVER_BASE_URL (or try --mock)');
  const client = new (await clientClass())({ token, baseUrl, logger });
  return { client, baseUrl, token, fetch: globalThis.fetch, close: () => undefined };
}

async function connectMock(flags: ConnectionFlags, logger: Logger, options: ConnectOptions): Promise<Connection> {
  for (const flag of ['base-url', 'token-file', 'token-stdin'] as const) {
    if (flags[flag] !== undefined) throw new UsageError(`--mock needs no --${flag}: it serves a seeded mock in this process`);
  }
  const seed = flags.seed === undefined ? 1 : Number(flags.seed);
  if (!(Number.isSafeInteger(seed) && seed >= 0 && /^\d+$/.test(flags.seed ?? '1'))) {
    throw new UsageError(`--seed must be a whole number ≥ 0, got "${flags.seed}"`);
  }
  // Loaded only now: the mock (msw, faker) is most of the bin's code and no other command needs it.
  const { createMockApi } = await import('../mocks/index');
  const activity = options.mockActivityMs === undefined ? {} : { activity: { intervalMs: options.mockActivityMs } };
  const mock = createMockApi({ seed, ...activity });
  const token = mock.tokens.main;
  const client = new (await clientClass())({ token, baseUrl: MOCK_ORIGIN, fetch: mock.fetch, logger });
  return { client, baseUrl: MOCK_ORIGIN, token, fetch: mock.fetch, close: () => mock.activity.stop() };
}

/** The token from `--token-file`, `--token-stdin` or the environment, surrounding whitespace trimmed; checked. */
async function readToken(flags: ConnectionFlags, cli: Cli): Promise<string | undefined> {
  const file = flags['token-file'];
  if (file !== undefined && flags['token-stdin']) throw new UsageError('pass either --token-file or --token-stdin, not both');
  if (file !== undefined) return checkToken(await readTokenFile(file), `the file ${file} (--token-file)`);
  if (flags['token-stdin']) return checkToken(await readStdin(cli), 'stdin (--token-stdin)');
  const fromEnv = nonEmpty(cli.io.env.COMMUNITY_SERVER_TOKEN);
  return fromEnv === undefined ? undefined : checkToken(fromEnv, 'COMMUNITY_SERVER_TOKEN');
}

async function readTokenFile(path: string): Promise<string> {
  try {
    if ((await stat(path)).size > MAX_TOKEN_FILE_BYTES) throw new UsageError(`--token-file ${path} is larger than any token file`);
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as { code?: string }).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'a directory' : code;
    throw new UsageError(`--token-file ${path}: cannot read it (${reason ?? String(error)})`);
  }
}

/** All of stdin (a pipe or a file: read from a terminal, the token would show as it is typed). */
async function readStdin(cli: Cli): Promise<string> {
  const { stdin } = cli.io;
  if (stdin.isTTY) {
    throw new UsageError('--token-stdin reads the token from a pipe or a file, e.g. `… --token-stdin < token.txt`; stdin is a terminal');
  }
  let text = '';
  stdin.setEncoding('utf8');
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.length > MAX_TOKEN_FILE_BYTES) throw new UsageError('--token-stdin: stdin holds more than any token');
  }
  return text;
}

/** `raw` trimmed, if it is a token; else a usage error naming `source`, never the value. */
function checkToken(raw: string, source: string): string {
  const token = raw.trim();
  if (token === '') throw new UsageError(`no token in ${source}: it is empty`);
  if (!TOKEN_CHARS.test(token)) {
    throw new UsageError(`the token from ${source} holds characters no token has (spaces, a second line, non-ASCII); value not shown`);
  }
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new UsageError(`the token from ${source} is ${token.length} characters long, shorter than any token; value not shown`);
  }
  return token;
}

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** The client's log lines (warnings by default, `COMMUNITY_SERVER_LOG` for more), on stderr. */
function stderrLogger(cli: Cli): Logger {
  const line = (level: string) => (message: unknown) => void cli.err.line(`community-server: ${level}: ${visible(String(message))}`);
  return { error: line('error'), warn: line('warning'), info: line('info'), debug: line('debug') };
}
