/**
 * Mock sessions (issue 26) on the built package:
 * - throughput: one HTTP mock in a process of its own, answering 8 list requests at a time from
 *   a node:http keep-alive agent of 8 connections, spread over 8 sessions ÷ all to one session
 *   (goal ≥ 0.9×: sessions share the server without costing it throughput), and one session ÷
 *   the root mock as context (what routing to a session costs);
 * - opening a session, the server's world (copied) and a seed of its own (built once, then kept):
 *   ≤ 150 ms each; the first build of a new seed as context;
 * - the live heap after opening, using and closing 1,000 sessions, against before: within 10 MB.
 *
 *   npx tsx bench/sessions.ts
 */
import { execFile } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mockServer, type Served } from './servers';
import { format, interleave, row, runWhenMain, smoke, spread, type Comparison } from './harness';

const root = fileURLToPath(new URL('..', import.meta.url));
const CONCURRENCY = 8;
const SESSIONS = 8;
/** The budget for opening a seeded session. */
const OPEN_BUDGET_MS = 150;
/** The budget for what 1,000 sessions may leave behind. */
const HEAP_BUDGET_MB = 10;

/** The keep-alive connections every request of the bench goes over: 8, as 8 workers would hold. */
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** A request over the agent: its status and body (parsed when JSON). */
function send(url: string, method: string, token: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const sent = request(
      url,
      { method, agent, headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, json: text ? (JSON.parse(text) as unknown) : undefined });
        });
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

interface Target {
  readonly baseUrl: string;
  readonly token: string;
}

interface OpenedSession extends Target {
  readonly id: string;
}

async function openSession(server: Served, options: object = {}): Promise<OpenedSession> {
  const { status, json } = await send(`${server.url}/__mock/sessions`, 'POST', server.adminToken!, options);
  if (status !== 201) throw new Error(`opening a session answered ${status}: ${JSON.stringify(json)}`);
  const { id, baseUrl, tokens } = json as { id: string; baseUrl: string; tokens: { main: string } };
  return { id, baseUrl, token: tokens.main };
}

const closeSession = async (server: Served, { id }: OpenedSession) => {
  const { status } = await send(`${server.url}/__mock/sessions/${id}`, 'DELETE', server.adminToken!);
  if (status !== 204) throw new Error(`closing session ${id} answered ${status}`);
};

/** One operation: CONCURRENCY list requests at once, request k to `targets[k % targets.length]`, each body parsed. */
const listRequests = (targets: readonly Target[]) => async (i: number) => {
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, k) => {
      const { baseUrl, token } = targets[k % targets.length]!;
      const { status } = await send(`${baseUrl}/api/v1/server/members?page=${((i * CONCURRENCY + k) % 20) + 1}`, 'GET', token);
      if (status !== 200) throw new Error(`${baseUrl} answered ${status}`);
    }),
  );
};

async function throughput(server: Served): Promise<Comparison[]> {
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => openSession(server)));
  const run = await interleave(
    {
      eight: listRequests(sessions),
      one: listRequests(sessions.slice(0, 1)),
      root: listRequests([{ baseUrl: server.url, token: server.token }]),
    },
    { rounds: 30, operations: 25, warmup: 100 },
  );
  const perSecond = (side: 'eight' | 'one' | 'root') => {
    const { median, low, high } = run.rate(side);
    return format({ median: median * CONCURRENCY, low: low * CONCURRENCY, high: high * CONCURRENCY }, 'req/s');
  };
  const sessionsRow = row(
    `HTTP mock list requests/s, ${SESSIONS} sessions serving at once (8 keep-alive connections, 8 requests at a time)`,
    perSecond('eight'),
    `one session: ${perSecond('one')}`,
    run.rateRatio('eight', 'one'),
    '≥ 0.9×',
  );
  sessionsRow.note =
    'One HTTP mock of the built package in a process of its own (`bench/mock-server.mjs`); the bench process loads it through a node:http keep-alive agent of 8 connections, 8 list requests at a time, each body read: all 8 to one session, or one to each of 8. The three sides (8 sessions, 1 session, the root mock) run in alternating rounds.';
  return [
    sessionsRow,
    {
      name: '↳ context: one session ÷ the root mock, the same requests',
      value: perSecond('one'),
      baseline: `the root mock: ${perSecond('root')}`,
      ratio: run.rateRatio('one', 'root'),
      goal: null,
      met: null,
    },
  ];
}

/** Milliseconds each of `count` openings took (each closed again, untimed). */
async function openingTimes(server: Served, options: object, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const session = await openSession(server, options);
    times.push(performance.now() - started);
    await closeSession(server, session);
  }
  return times;
}

async function opening(server: Served): Promise<Comparison[]> {
  const count = smoke ? 2 : 40;
  // A seed never asked for: its world is built, once.
  const firstBuilds = [];
  for (let seed = 100; seed < (smoke ? 101 : 105); seed++) firstBuilds.push(...(await openingTimes(server, { seed }, 1)));
  const measured = (name: string, times: number[]): Comparison => {
    const figure = spread(times);
    return {
      name,
      value: format(figure, 'ms', 1),
      baseline: `budget ${OPEN_BUDGET_MS} ms`,
      ratio: spread(times.map((ms) => ms / OPEN_BUDGET_MS)),
      goal: `≤ ${OPEN_BUDGET_MS} ms`,
      met: figure.median <= OPEN_BUDGET_MS,
    };
  };
  // Warm, uncounted: the code compiled, and seed 7's world built by its first session.
  await openingTimes(server, {}, smoke ? 1 : 10);
  await openingTimes(server, { seed: 7 }, 1);
  return [
    measured('opening a session over HTTP, the server’s own seeded world (copied)', await openingTimes(server, {}, count)),
    measured(
      'opening a session over HTTP with a seed of its own (`{ seed: 7 }`), its world kept from the first',
      await openingTimes(server, { seed: 7 }, count),
    ),
    {
      name: '↳ context: the first session of a seed the server has not built yet',
      value: format(spread(firstBuilds), 'ms', 1),
      baseline: '—',
      ratio: null,
      goal: null,
      met: null,
      note: 'A seeded world is built once per seed and row counts (faker draws every row), then kept, the four most recent, by the mock that opens the sessions; each session copies it (structuredClone) and builds its own store, handlers and control API.',
    },
  ];
}

async function heap(): Promise<Comparison> {
  const total = smoke ? 10 : 1_000;
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', 'bench/session-heap.mjs', String(total)], { cwd: root });
  const { before, after } = JSON.parse(stdout) as { before: number; after: number };
  const grownMb = (after - before) / 2 ** 20;
  return {
    name: `live heap after opening, using and closing ${total.toLocaleString('en')} sessions, against before`,
    value: `${(after / 2 ** 20).toFixed(1)} MB (${grownMb >= 0 ? '+' : ''}${grownMb.toFixed(1)} MB)`,
    baseline: `before: ${(before / 2 ** 20).toFixed(1)} MB`,
    ratio: null,
    goal: `≤ +${HEAP_BUDGET_MB} MB`,
    met: grownMb <= HEAP_BUDGET_MB,
    note: '`heapUsed` after full collections, in a process of its own (`bench/session-heap.mjs`): each session is opened, answers one members list, and is closed; twenty go first, uncounted.',
  };
}

export async function sessionsBench(): Promise<Comparison[]> {
  const server = await mockServer(`${root}dist/mock.js`, `${root}dist/mock/node.js`, String(SESSIONS + 2));
  try {
    return [...(await throughput(server)), ...(await opening(server)), await heap()];
  } finally {
    server.child.kill();
    agent.destroy();
  }
}

await runWhenMain(import.meta.url, sessionsBench);
