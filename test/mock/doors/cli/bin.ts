/** Runs the built bin (`dist/cli.js`, built by `npm test` first) for the tests of its doors and flags. */
import { spawn, type SpawnOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../../../dist/cli.js', import.meta.url));

/**
 * Starts `command` (a bin, however it is run); `ready` resolves with its first lines once it has
 * printed its tokens.
 */
export function startProcess(command: string, args: string[], options: SpawnOptions = {}) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  // Decoded as a stream: a character split across two chunks stays whole.
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('try: curl')) resolve(stdout);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  ready.catch(() => undefined); // awaited only by the tests that expect it to start
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, ready, exit };
}

/** Starts the built bin of this checkout (with `env` as its whole environment when given). */
export const startBin = (args: string[], env?: NodeJS.ProcessEnv) => startProcess(process.execPath, [cli, ...args], env ? { env } : {});
