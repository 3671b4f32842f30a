/**
 * What the SDK costs on top of a bare `fetch` + `res.json()` of the same request (issue 31's
 * goals: ≤ 1.30× on loopback, ky's own cost without its timeout; ≤ 2.0× in memory):
 * - `members.list({ pageSize: 100 })`, validation on, over loopback HTTP;
 * - the same on an in-memory fetch, where nothing but the client costs;
 * - `members.get(id)` over loopback HTTP.
 * Each comes with ky alone (`ky(url, { timeout, retry: 0 }).json()`, no SDK, the client's
 * timeout) against the same baseline, the floor the transport sets, and the SDK ÷ that ky
 * (goal ≤ 1.02×): what the SDK adds to its transport.
 * The server runs in a child process, so only client-side work is compared.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import ky from 'ky';
import { CommunityServerClient, DEFAULTS } from 'community-server-sdk';
import { PRECISE, format, interleave, row, runWhenMain, type Comparison, type Interleaved } from './harness';

const TOKEN = 'cst_bench_token_0123456789';

async function startServer() {
  const child = fork(fileURLToPath(new URL('./fixture-server.mjs', import.meta.url)), [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

const rate = <Side extends string>(run: Interleaved<Side>, side: Side) => format(run.rate(side), 'req/s');

export async function sdkOverhead(): Promise<Comparison[]> {
  const server = await startServer();
  try {
    const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
    // ky as the SDK drives it: the client's per-attempt timeout, ky's retries off.
    const kyOptions = { headers, timeout: DEFAULTS.timeout, retry: 0 };
    const listUrl = `${server.url}/api/v1/server/members?pageSize=100`;
    const getUrl = `${server.url}/api/v1/server/members/m7`;
    const client = new CommunityServerClient({ token: TOKEN, baseUrl: server.url });
    // The same client without the schema: the SDK's own work apart from validation.
    const unchecked = new CommunityServerClient({ token: TOKEN, baseUrl: server.url, validation: 'off' });

    const page = await (await fetch(listUrl, { headers })).text();
    const memoryFetch = (async () => new Response(page, { headers: { 'content-type': 'application/json' } })) as typeof globalThis.fetch;
    const memoryUrl = 'https://bench.test/api/v1/server/members?pageSize=100';
    const memoryClient = new CommunityServerClient({ token: TOKEN, baseUrl: 'https://bench.test', fetch: memoryFetch });
    const memoryUnchecked = new CommunityServerClient({
      token: TOKEN,
      baseUrl: 'https://bench.test',
      fetch: memoryFetch,
      validation: 'off',
    });

    const cases = [
      {
        name: '`members.list({ pageSize: 100 })`, validation on, loopback HTTP',
        goal: '≤ 1.30×',
        sdk: () => client.members.list({ pageSize: 100 }),
        unchecked: () => unchecked.members.list({ pageSize: 100 }),
        ky: () => ky(listUrl, kyOptions).json(),
        raw: async () => (await fetch(listUrl, { headers })).json() as Promise<unknown>,
      },
      {
        name: 'the same on an in-memory fetch (pure client cost)',
        goal: '≤ 2.0×',
        sdk: () => memoryClient.members.list({ pageSize: 100 }),
        unchecked: () => memoryUnchecked.members.list({ pageSize: 100 }),
        ky: () => ky(memoryUrl, { ...kyOptions, fetch: memoryFetch }).json(),
        raw: async () => (await memoryFetch(memoryUrl, { headers })).json() as Promise<unknown>,
      },
      {
        name: '`members.get(id)`, loopback HTTP',
        goal: '≤ 1.30×',
        sdk: () => client.members.get('m7'),
        unchecked: () => unchecked.members.get('m7'),
        ky: () => ky(getUrl, kyOptions).json(),
        raw: async () => (await fetch(getUrl, { headers })).json() as Promise<unknown>,
      },
    ];
    const rows: Comparison[] = [];
    for (const { name, goal, sdk, unchecked: off, ky: kyAlone, raw } of cases) {
      // Many short rounds: a goal a few percent apart needs the medians of many rounds, where a
      // collection or the machine's other work lands in few of them.
      const run = await interleave({ sdk, off, ky: kyAlone, raw }, PRECISE);
      const sdkRow = row(name, rate(run, 'sdk'), `raw fetch + json: ${rate(run, 'raw')}`, run.timeRatio('sdk', 'raw'), goal);
      const transport = run.timeRatio('ky', 'raw').median;
      const own = run.timeRatio('sdk', 'ky').median;
      const withoutSchema = run.timeRatio('off', 'ky').median;
      sdkRow.note =
        `ky alone, making the same request in the same rounds, takes ${transport.toFixed(2)}× the raw time (next row), and the SDK ${own.toFixed(2)}× ky's: ` +
        "that is the SDK's own work (argument checks, rate-limit gate, schema validation, result objects); " +
        `with \`validation: 'off'\` the SDK takes ${withoutSchema.toFixed(2)}× ky's (the last row of the three), so the schema is about ${Math.max(0, own - withoutSchema).toFixed(2)}× of it ` +
        "(ky's side parses the JSON and checks nothing)." +
        (sdkRow.met
          ? ''
          : ` With ky's per-request cost alone at ${transport.toFixed(2)}×, ${goal} is out of reach while ky is the transport; see the README's "Performance" section.`) +
        ' Where ky\'s time goes: the "part of a call" rows below (each call builds three Requests that follow an AbortSignal, ky\'s, its clone and the one fetch makes from it, where a bare fetch builds one without).';
      rows.push(sdkRow, {
        name: '↳ context: ky alone, the same request, the same timeout',
        value: rate(run, 'ky'),
        baseline: `raw fetch + json: ${rate(run, 'raw')}`,
        ratio: run.timeRatio('ky', 'raw'),
        goal: null,
        met: null,
      });
      rows.push(
        row(
          '↳ the SDK ÷ ky alone with the same timeout, the same request',
          rate(run, 'sdk'),
          `ky alone: ${rate(run, 'ky')}`,
          run.timeRatio('sdk', 'ky'),
          '≤ 1.02×',
        ),
        {
          name: "↳ context: the same with `validation: 'off'` (the SDK without its schema) ÷ ky alone",
          value: rate(run, 'off'),
          baseline: `ky alone: ${rate(run, 'ky')}`,
          ratio: run.timeRatio('off', 'ky'),
          goal: null,
          met: null,
        },
      );
    }
    return rows;
  } finally {
    server.stop();
  }
}

await runWhenMain(import.meta.url, sdkOverhead);
