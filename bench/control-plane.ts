/**
 * The HTTP mock's throughput with the control plane (`/__mock/*`) present and no fault set,
 * against the same server before issue 17 (goal ≥ 0.95×: the control plane costs API traffic
 * under 5 %), and beside Prism 5.14's mock of the same OpenAPI document answering the same
 * request (context: what users of a stateless mock get).
 *
 * Each server runs in a process of its own, on loopback, so none shares the event loop of the
 * load it answers. One operation is 8 concurrent `GET /api/v1/server/members?page=n` over
 * keep-alive, each body read and parsed, as a dashboard reads a list.
 * Prism is installed on first use into `.cache/prism-5.14.2/` (the smoke form skips it unless it
 * is there already: CI does not fetch it for a figure it does not judge).
 *
 *   npx tsx bench/control-plane.ts
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { BEFORE_CONTROL, builtAtRevision } from './baseline';
import { format, interleave, row, runWhenMain, smoke, type Comparison } from './harness';

const root = fileURLToPath(new URL('..', import.meta.url));
const PRISM_VERSION = '5.14.2';
const prismDir = `${root}.cache/prism-${PRISM_VERSION}`;
const prismBin = `${prismDir}/node_modules/.bin/prism`;
const CONCURRENCY = 8;

export interface Served {
  url: string;
  token: string;
  /** The server's admin token, where it has one (not Prism). */
  adminToken?: string;
  child: ChildProcess;
}

/** Starts `command`, and resolves once `ready` finds what it needs in the output it has printed. */
function serve(command: string, args: string[], ready: (output: string) => Omit<Served, 'child'> | undefined): Promise<Served> {
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

const firstJsonLine = (output: string) => {
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
async function prismServer(): Promise<Served | { missing: string }> {
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

/** One operation: CONCURRENCY list requests at once, each body parsed. */
const listRequests =
  ({ url, token }: Served) =>
  async (i: number) => {
    const headers = { authorization: `Bearer ${token}` };
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, k) => {
        const response = await fetch(`${url}/api/v1/server/members?page=${((i * CONCURRENCY + k) % 20) + 1}`, { headers });
        if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
        await response.json();
      }),
    );
  };

export async function controlPlaneThroughput(): Promise<Comparison[]> {
  const before = await Promise.all([builtAtRevision(BEFORE_CONTROL, 'mocks/index.ts'), builtAtRevision(BEFORE_CONTROL, 'mocks/node.ts')]);
  const missing = before.find((built) => 'missing' in built);
  if (missing && 'missing' in missing) throw new Error(`the control-plane bench needs its baseline: ${missing.missing}`);
  const [beforeIndex, beforeNode] = before as { file: string }[];
  const servers: Served[] = [];
  try {
    const after = await mockServer(`${root}dist/mock.js`, `${root}dist/mock/node.js`);
    servers.push(after);
    const old = await mockServer(beforeIndex!.file, beforeNode!.file);
    servers.push(old);
    const prism = await prismServer();
    if ('child' in prism) servers.push(prism);
    const sides = { after: listRequests(after), before: listRequests(old), ...('child' in prism ? { prism: listRequests(prism) } : {}) };
    const run = await interleave<'after' | 'before' | 'prism'>(
      sides as Record<'after' | 'before' | 'prism', (i: number) => Promise<void>>,
      {
        rounds: 30,
        operations: 25,
        warmup: 100,
      },
    );
    const perSecond = (side: 'after' | 'before' | 'prism') => {
      const { median, low, high } = run.rate(side);
      return format({ median: median * CONCURRENCY, low: low * CONCURRENCY, high: high * CONCURRENCY }, 'req/s');
    };
    const rows = [
      row(
        'HTTP mock list requests/s, control plane present (no fault set)',
        perSecond('after'),
        `the same server before issue 17 (${BEFORE_CONTROL.slice(0, 7)}): ${perSecond('before')}`,
        run.rateRatio('after', 'before'),
        '≥ 0.95×',
      ),
    ];
    if ('child' in prism) {
      rows.push({
        name: `HTTP mock list requests/s beside Prism ${PRISM_VERSION} (\`prism mock openapi.json\`)`,
        value: perSecond('after'),
        baseline: `Prism ${PRISM_VERSION}, same request, same document: ${perSecond('prism')}`,
        ratio: run.rateRatio('after', 'prism'),
        goal: null,
        met: null,
        note:
          'Prism answers every request statelessly with an example generated from the schema (one member, no paging, any bearer accepted); ' +
          'this mock authenticates the token, pages a seeded store of real rows and journals the request.',
      });
    } else {
      rows[0]!.note = `Prism row not measured: ${prism.missing}.`;
    }
    return rows;
  } finally {
    for (const { child } of servers) child.kill();
  }
}

await runWhenMain(import.meta.url, controlPlaneThroughput);
