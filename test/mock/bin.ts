/** Runs the built bin (`dist/cli.js`, built by `npm test` first) for the tests of its doors and flags. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** Starts the built bin (with `env` as its whole environment when given); `ready` resolves with its first lines once it has printed its tokens. */
export function startBin(args: string[], env?: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(env && { env }) });
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
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, ready, exit };
}
