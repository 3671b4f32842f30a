/**
 * The HTTP mock's throughput with the control plane (`/__mock/*`) present and no fault set,
 * against the same server before issue 17 (goal ≥ 0.95×: the control plane costs API traffic
 * under 5 %), and beside Prism 5.14's mock of the same OpenAPI document answering the same
 * request (context: what users of a stateless mock get).
 *
 * Each server runs in a process of its own, on loopback, so none shares the event loop of the
 * load it answers. One operation is 8 concurrent `GET /api/v1/server/members?page=n` over
 * keep-alive, each body read and parsed, as a dashboard reads a list.
 * Prism is installed on first use (see `servers.ts`).
 *
 *   npx tsx bench/control-plane.ts
 */
import { fileURLToPath } from 'node:url';
import { BEFORE_CONTROL, builtAtRevision } from './baseline';
import { format, interleave, row, runWhenMain, type Comparison } from './harness';
import { mockServer, PRISM_VERSION, prismServer, type Served } from './servers';

const root = fileURLToPath(new URL('..', import.meta.url));
const CONCURRENCY = 8;

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
