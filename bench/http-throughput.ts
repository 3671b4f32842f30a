/**
 * The HTTP mock against the physical floor (issue 26): requests per second of
 * `GET /api/v1/server/members?pageSize=100` and `GET /api/v1/server/members/{id}` answered by
 * the mock (`startMockHttpServer`, the built package), ÷ the same requests answered by a bare
 * node:http server that sends, for each URL, the very status, headers and body bytes the mock
 * sent for it, captured first (`bench/floor-server.mjs`). Goal ≥ 0.5× on both. And the mock ÷ the
 * mock before its layers (`BEFORE_LAYERS`, issue 33, built in this run): goal ≥ 0.95×, no worse
 * within the noise of the rounds. Beside them, as context: the mock as it was before its request
 * pipeline was rebuilt (`BEFORE_PIPELINE`, built in this run), and Prism 5.14's mock of the same
 * OpenAPI document.
 *
 * Load: one client process (`bench/load-client.mjs`), a node:http keep-alive agent of 8
 * connections, 8 requests in flight, no pipelining, each body read whole. Every server runs in
 * a process of its own, one at a time under load: the sides alternate in rounds, and each ratio
 * is taken round by round. Where `taskset` is available, the client is pinned to CPU 0 and the
 * servers to CPU 1, so client and server each get one core of two.
 *
 *   npm run build && npx tsx bench/http-throughput.ts
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { BEFORE_LAYERS, BEFORE_PIPELINE, builtAtRevision } from './baseline';
import { format, interleave, runWhenMain, smoke, type Comparison, type Spread } from './harness';
import { firstJsonLine, mockServer, PRISM_VERSION, prismServer, serve, type Served } from './servers';

const root = fileURLToPath(new URL('..', import.meta.url));
const GOAL = 0.5;
/** The mock's layers (issue 33) cost its throughput nothing beyond the noise of the rounds. */
const NO_WORSE = 0.95;

type Side = 'floor' | 'mock' | 'layers' | 'before' | 'prism';

/** Requests per batch, per side: each side's batch takes ~0.1–0.3 s here, so a round sees one moment of the machine. */
const BATCH: Record<Side, number> = smoke
  ? { floor: 16, mock: 16, layers: 16, before: 16, prism: 16 }
  : { floor: 4000, mock: 2000, layers: 2000, before: 1000, prism: 250 };

/** What a server answered one request with, as the floor replays it. */
interface Captured {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The headers node:http writes itself on every answer: the floor's own server adds them as the mock's does. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One GET of `url`, answered whole, over a connection of its own. */
function capture(url: string, token: string): Promise<Captured> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !TRANSPORT.has(name)) as [string, string][]);
        resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    })
      .on('error', reject)
      .end();
  });
}

/** Pins `child` and all its threads to `cpu`; whether it could (no `taskset` here: not pinned). */
function pin(child: ChildProcess, cpu: number): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(child.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The load client's process, and a batch of requests sent through it. */
function loadClient() {
  const child = fork(`${root}bench/load-client.mjs`, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let pending: ((result: { ms: number; failures: number; error?: string }) => void) | undefined;
  child.on('message', (result: { ms: number; failures: number; error?: string }) => pending?.(result));
  const batch = (url: string, token: string, count: number, status = 200) =>
    new Promise<number>((resolve, reject) => {
      pending = ({ ms, failures, error }) => {
        if (error || failures) reject(new Error(error ?? `${url}: ${failures} of ${count} answers were not ${status}`));
        else resolve(ms);
      };
      child.send({ url, headers: { authorization: `Bearer ${token}` }, count, status });
    });
  return { child, batch };
}

const scaled = ({ median, low, high }: Spread, by: number): Spread => ({ median: median * by, low: low * by, high: high * by });

export async function httpThroughput(): Promise<Comparison[]> {
  const before = await Promise.all(
    [BEFORE_PIPELINE, BEFORE_LAYERS].flatMap((rev) => [builtAtRevision(rev, 'mocks/index.ts'), builtAtRevision(rev, 'mocks/node.ts')]),
  );
  const missing = before.find((built) => 'missing' in built);
  if (missing && 'missing' in missing) throw new Error(`the HTTP throughput bench needs its baselines: ${missing.missing}`);
  const [beforeIndex, beforeNode, layersIndex, layersNode] = before as { file: string }[];
  const children: ChildProcess[] = [];
  try {
    const mock = await mockServer(`${root}dist/mock.js`, `${root}dist/mock/node.js`);
    children.push(mock.child);
    const old = await mockServer(beforeIndex!.file, beforeNode!.file);
    children.push(old.child);
    const layered = await mockServer(layersIndex!.file, layersNode!.file);
    children.push(layered.child);
    const prism = await prismServer();
    if ('child' in prism) children.push(prism.child);

    // The URLs, and the floor: what the mock answers for each, captured, then served bare.
    const page = await capture(`${mock.url}/api/v1/server/members?pageSize=100`, mock.token);
    const memberId = (JSON.parse(page.body.toString('utf8')) as { data: { id: string }[] }).data[0]!.id;
    const targets = { list: '/api/v1/server/members?pageSize=100', get: `/api/v1/server/members/${memberId}` };
    const answers: Record<string, unknown> = {};
    for (const target of Object.values(targets)) {
      const { status, headers, body } = await capture(`${mock.url}${target}`, mock.token);
      if (status !== 200) throw new Error(`the mock answered ${target} with ${status}`);
      answers[target] = { status, headers, body: body.toString('base64') };
    }
    mkdirSync(`${root}test-output`, { recursive: true });
    const file = `${root}test-output/floor-answers.json`;
    writeFileSync(file, JSON.stringify(answers));
    const floor = await serve(process.execPath, [`${root}bench/floor-server.mjs`, file], (output) => {
      const line = firstJsonLine(output);
      return line && { url: line.url, token: mock.token };
    });
    children.push(floor.child);

    const client = loadClient();
    children.push(client.child);
    const servers: Partial<Record<Side, Served>> = { floor, mock, layers: layered, before: old, ...('child' in prism ? { prism } : {}) };
    const pinned =
      pin(client.child, 0) && Object.values(servers).every((served) => pin(served.child, 1))
        ? 'the client pinned to CPU 0 and every server to CPU 1 (`taskset`)'
        : 'not pinned to CPUs (`taskset` unavailable)';
    const sides = Object.keys(servers) as Side[];

    const rows: Comparison[] = [];
    for (const [label, target] of [
      ['a 100-member page, `GET /api/v1/server/members?pageSize=100`', targets.list],
      ['one member, `GET /api/v1/server/members/{id}`', targets.get],
    ] as const) {
      const operation = (side: Side) => () => client.batch(`${servers[side]!.url}${target}`, servers[side]!.token, BATCH[side]);
      const run = await interleave(
        Object.fromEntries(sides.map((side) => [side, operation(side)])) as Record<Side, () => Promise<number>>,
        {
          rounds: 20,
          operations: 1,
          warmup: 2,
        },
      );
      const rate = (side: Side) => scaled(run.rate(side), BATCH[side]);
      const ratio = (side: Side) => scaled(run.rateRatio(side, 'floor'), BATCH[side] / BATCH.floor);
      const perSecond = (side: Side) => format(rate(side), 'req/s');
      const mockRatio = ratio('mock');
      rows.push({
        name: `HTTP mock ÷ the floor (a bare node:http server sending the mock's very answer): ${label}`,
        value: perSecond('mock'),
        baseline: `the floor: ${perSecond('floor')}`,
        ratio: mockRatio,
        goal: `≥ ${GOAL}×`,
        met: mockRatio.median >= GOAL,
        note:
          `Load from a client process of its own: a node:http keep-alive agent of 8 connections, 8 requests in flight, no pipelining, each body read whole; ${pinned}. ` +
          `Batches of ${BATCH.floor} (floor), ${BATCH.mock} (mock), ${BATCH.layers} (before its layers), ${BATCH.before} (before its pipeline), ${BATCH.prism} (Prism) requests, the sides in alternating rounds, each ratio taken round by round.`,
      });
      const layersRatio = scaled(run.rateRatio('mock', 'layers'), BATCH.mock / BATCH.layers);
      rows.push({
        name: `↳ the mock ÷ the mock before its layers (${BEFORE_LAYERS.slice(0, 7)}, issue 33), the same requests`,
        value: perSecond('mock'),
        baseline: `before its layers: ${perSecond('layers')}`,
        ratio: layersRatio,
        goal: `≥ ${NO_WORSE}×`,
        met: layersRatio.median >= NO_WORSE,
      });
      rows.push({
        name: `↳ context: the mock before its request pipeline was rebuilt (${BEFORE_PIPELINE.slice(0, 7)}), the same requests`,
        value: perSecond('before'),
        baseline: `the floor: ${perSecond('floor')}`,
        ratio: ratio('before'),
        goal: null,
        met: null,
      });
      if (servers.prism) {
        rows.push({
          name: `↳ context: Prism ${PRISM_VERSION} (\`prism mock openapi.json\`), the same requests`,
          value: perSecond('prism'),
          baseline: `the floor: ${perSecond('floor')}`,
          ratio: ratio('prism'),
          goal: null,
          met: null,
        });
      }
    }
    if (!('child' in prism)) rows[0]!.note += ` Prism not measured: ${prism.missing}.`;
    return rows;
  } finally {
    for (const child of children) child.kill();
  }
}

await runWhenMain(import.meta.url, httpThroughput);
