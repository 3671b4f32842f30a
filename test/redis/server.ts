/**
 * A throwaway `redis-server` for the tests and the fleet benchmark: Debian's binary on a free
 * loopback port, no persistence, in a temp dir; stopped by its PID. Where the binary is missing,
 * `redisMissing()` says why (the tests skip with it, except in CI, where it fails).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BINARY = 'redis-server';

/** Why Redis cannot run here, or `undefined` when it can. */
export function redisMissing(): string | undefined {
  const probe = spawnSync(BINARY, ['--version'], { encoding: 'utf8' });
  if (probe.error) return `${BINARY} not found (${probe.error.message}); .ci/run installs Debian's redis-server`;
  return undefined;
}

/** A free loopback port, from the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly pid: number;
  /** Kills it (SIGKILL: a crash, not a shutdown) and waits for the exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port (after `kill`). */
  restart(): Promise<void>;
  /** Stops it for good and removes its directory. */
  stop(): Promise<void>;
}

/** Starts `redis-server` on a free port and resolves once it answers PING. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sdk-redis-'));
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: 'ignore',
    });
    const started = Date.now();
    while (!(await answers(port))) {
      if (child.exitCode !== null || Date.now() - started > 10_000) throw new Error(`redis-server did not start on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    process.kill(running.pid!, 'SIGKILL');
    await exited;
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child!.pid!;
    },
    kill,
    restart: launch,
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
