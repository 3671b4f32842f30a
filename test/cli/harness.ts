/**
 * How the CLI tests run the command: the built bin (`dist/community-server.js`, `npm run build`
 * first) in a process of its own as a user would, with nothing of this process's environment
 * but PATH; the HTTP mock bin beside it (`dist/cli.js`), one per test file; and, for checks over
 * all 64 commands at once, the same dispatcher in this process.
 */
import { spawn } from 'node:child_process';
import { createServer, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { connectMock, type RemoteMock } from 'community-server-sdk/mock/remote';
import { createCli, type Io } from '../../src/cli/context';
import { runCli } from '../../src/cli/run';
import { startBin } from '../mock/doors/cli/bin';

export const BIN = fileURLToPath(new URL('../../dist/community-server.js', import.meta.url));

/** What a run of the bin left. */
export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** The environment beyond PATH. */
  env?: Record<string, string>;
  /** What stdin holds (default: nothing, closed at once). */
  input?: string;
  cwd?: string;
}

/** Starts the bin on `args`; `done` resolves when it exits. */
export function startCommand(args: readonly string[], { env = {}, input = '', cwd }: RunOptions = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, cwd, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  const done = new Promise<Ran>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done, output: () => ({ stdout, stderr }) };
}

/** Runs the bin on `args` to its end. */
export const runCommand = (args: readonly string[], options: RunOptions = {}): Promise<Ran> => startCommand(args, options).done;

/** The HTTP mock bin, started for a test file: its URL, tokens, and a connection to its control API. */
export interface HttpMock {
  url: string;
  tokens: Record<'main' | 'noCad' | 'readOnly' | 'expired' | 'revoked' | 'admin', string>;
  remote: RemoteMock;
  stop(): Promise<void>;
}

export async function startHttpMock(args: readonly string[] = []): Promise<HttpMock> {
  const bin = startBin(['--port', '0', ...args]);
  const output = await bin.ready;
  const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
  const tokens = Object.fromEntries(
    [...output.matchAll(/^ {2}(\w+)\s+(\S+)$/gm)].map(([, name, token]) => [name, token]),
  ) as HttpMock['tokens'];
  return {
    url,
    tokens,
    remote: connectMock(url, tokens.admin),
    stop: async () => {
      bin.child.kill('SIGTERM');
      await bin.exit;
    },
  };
}

/** Runs the dispatcher in this process on `argv`, with `env` and `input` as its environment and stdin. */
export async function runInProcess(
  argv: readonly string[],
  { env = {}, input = '' }: { env?: Record<string, string>; input?: string } = {},
) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { stdout: '', stderr: '' };
  stdout.setEncoding('utf8').on('data', (chunk: string) => (chunks.stdout += chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => (chunks.stderr += chunk));
  const io: Io = { stdout, stderr, stdin: PassThrough.from([input]), env };
  const code = await runCli(argv, createCli(io, new AbortController().signal));
  return { code, ...chunks };
}

/** Runs the bin on a terminal of its own (a pseudo-terminal, through Python's `pty`): what a user at a shell sees, `\r\n` line ends and all. */
export function runOnTerminal(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  const script = 'import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)';
  return new Promise((resolve) => {
    const child = spawn('python3', ['-c', script, process.execPath, BIN, ...args], {
      env: { PATH: process.env.PATH, TERM: 'xterm', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * A service of the test's own making on loopback, for answers no honest service gives: each
 * request goes to `handler` (replaceable per test), and is counted.
 */
export async function startFixtureService() {
  const seen: string[] = [];
  const fixture = {
    url: '',
    /** The URLs asked for, in order. */
    seen,
    handler: ((_request, response) => response.writeHead(404).end()) as RequestListener,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request, response) => {
    seen.push(request.url ?? '');
    fixture.handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fixture.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fixture;
}

/** A JSON answer. */
export const json = (response: ServerResponse, body: unknown, status = 200) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
