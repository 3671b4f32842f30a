/**
 * What the SDK costs on top of a bare `fetch` + `res.json()` of the same request:
 * - `members.list({ pageSize: 100 })`, validation on, over loopback HTTP (goal ≤ 1.15×);
 * - the same on an in-memory fetch, where nothing but the SDK costs (goal ≤ 2.0×);
 * - `members.get(id)` over loopback HTTP (goal ≤ 1.15×).
 * The server runs in a child process, so only client-side work is compared.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CommunityServerClient } from 'community-server-sdk';
import { measure, ratioOf, smoke, type Comparison } from './harness';

const TOKEN = 'cst_bench_token_0123456789';
const options = smoke ? { rounds: 1, operations: 20, warmup: 5 } : { rounds: 11, operations: 500, warmup: 500 };

async function startServer() {
  const child = fork(fileURLToPath(new URL('./fixture-server.mjs', import.meta.url)), [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** Interleaves the two measures, round by round, so load drift hits both alike. */
async function compare(name: string, goal: string, sdk: () => Promise<unknown>, raw: () => Promise<unknown>): Promise<Comparison> {
  const sdkRates = [];
  const rawRates = [];
  for (let pass = 0; pass < 3; pass++) {
    rawRates.push(await measure(raw, options));
    sdkRates.push(await measure(sdk, options));
  }
  return ratioOf(name, goal, sdkRates, rawRates, 'time');
}

export async function sdkOverhead(): Promise<Comparison[]> {
  const server = await startServer();
  try {
    const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
    const client = new CommunityServerClient({ token: TOKEN, baseUrl: server.url });
    const listUrl = `${server.url}/api/v1/server/members?pageSize=100`;
    const getUrl = `${server.url}/api/v1/server/members/m7`;

    const page = await (await fetch(listUrl, { headers })).text();
    const memoryFetch = (async () => new Response(page, { headers: { 'content-type': 'application/json' } })) as typeof globalThis.fetch;
    const memoryClient = new CommunityServerClient({ token: TOKEN, baseUrl: 'https://bench.test', fetch: memoryFetch });

    return [
      await compare('`members.list({ pageSize: 100 })`, validation on, loopback HTTP', '≤ 1.15×', () => client.members.list({ pageSize: 100 }), async () => (await fetch(listUrl, { headers })).json()),
      await compare('the same on an in-memory fetch (pure SDK cost)', '≤ 2.0×', () => memoryClient.members.list({ pageSize: 100 }), async () => (await memoryFetch('https://bench.test/api/v1/server/members?pageSize=100', { headers })).json()),
      await compare('`members.get(id)`, loopback HTTP', '≤ 1.15×', () => client.members.get('m7'), async () => (await fetch(getUrl, { headers })).json()),
    ];
  } finally {
    server.stop();
  }
}
