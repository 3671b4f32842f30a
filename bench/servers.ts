/**
 * The servers the HTTP benches load, each in a process of its own so none shares the event loop
 * (or, pinned, the core) of the load it answers: the HTTP mock of a given build, Prism's mock of
 * the same OpenAPI document, and the bare floor server. Prism is installed on first use into
 * `.cache/prism-5.14.2/` (the smoke form skips it unless it is there already: CI does not fetch
 * it for a figure it does not judge).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { smoke } from './harness';

const root = fileURLToPath(new URL('..', import.meta.url));
export const PRISM_VERSION = '5.14.2';
const prismDir = `${root}.cache/prism-${PRISM_VERSION}`;
const prismBin = `${prismDir}/node_modules/.bin/prism`;

export interface Served {
  url: string;
  token: string;
  /** The server's admin token, where it has one (not Prism). */
  adminToken?: string;
  child: ChildProcess;
}

/** Starts `command`, and resolves once `ready` finds what it needs in the output it has printed. */
export function serve(command: string, args: string[], ready: (output: string) => Omit<Served, 'child'> | undefined): Promise<Served> {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${command} did not start within 60 s:\n${output}`)), 60_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill();
      reject(error);
    };
    child.once('exit', (code) => fail(new Error(`${command} exited (${code}) before it served:\n${output}`)));
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = ready(output);
      if (!found) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout.off('data', read);
      child.stdout.resume(); // Prism logs every request: keep draining it, or it blocks on a full pipe
      resolve({ ...found, child });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
}

/** The first line of `output` that is a JSON object, parsed. */
export const firstJsonLine = (output: string) => {
  const line = output.split('\n').find((text) => text.startsWith('{'));
  return line ? (JSON.parse(line) as { url: string; token: string; adminToken: string }) : undefined;
};

/** An HTTP mock of `createMockApi` from `indexFile` and `startMockHttpServer` from `nodeFile`, in a process of its own. */
export const mockServer = (indexFile: string, nodeFile: string, ...extra: string[]) =>
  serve(process.execPath, [`${root}bench/mock-server.mjs`, indexFile, nodeFile, ...extra], firstJsonLine);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}

/** Prism's mock of the API's own OpenAPI document; installed on first use, or the reason it is not here. */
export async function prismServer(): Promise<Served | { missing: string }> {
  if (!existsSync(prismBin)) {
    if (smoke) return { missing: 'the smoke form does not install Prism' };
    try {
      execFileSync('npm', ['install', '--prefix', prismDir, '--no-audit', '--no-fund', `@stoplight/prism-cli@${PRISM_VERSION}`], {
        stdio: 'ignore',
      });
    } catch (error) {
      return { missing: `Prism ${PRISM_VERSION} could not be installed here (${(error as Error).message.split('\n')[0]})` };
    }
  }
  const port = await freePort();
  return serve(prismBin, ['mock', `${root}openapi.json`, '-h', '127.0.0.1', '-p', String(port)], (output) =>
    output.includes('Prism is listening') ? { url: `http://127.0.0.1:${port}`, token: 'prism-accepts-any-bearer' } : undefined,
  );
}
