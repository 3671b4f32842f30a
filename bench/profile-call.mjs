// A CPU profile of one kind of call over loopback HTTP, against the fixture server:
// `npm run build && node --cpu-prof --cpu-prof-dir=test-output/profile bench/profile-call.mjs sdk 4000`
// (sides: raw, ky, sdk; no side: all three, timed). What the profile shows is in bench/RESULTS.md.
import { fork } from 'node:child_process';
import ky from 'ky';
import { CommunityServerClient } from 'community-server-sdk';
const child = fork(new URL('./fixture-server.mjs', import.meta.url).pathname, [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const port = await new Promise((r) => child.stdout.once('data', (c) => r(Number(String(c).trim()))));
const base = `http://127.0.0.1:${port}`;
const TOKEN = 'cst_bench_token_0123456789';
const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
const url = `${base}/api/v1/server/members?pageSize=100`;
const client = new CommunityServerClient({ token: TOKEN, baseUrl: base });
const sides = {
  raw: async () => (await fetch(url, { headers })).json(),
  ky: () => ky(url, { headers }).json(),
  sdk: () => client.members.list({ pageSize: 100 }),
};
const which = process.argv[2];
const n = Number(process.argv[3] ?? 3000);
const order = which ? [which] : ['raw', 'ky', 'sdk'];
const res = {};
for (let r = 0; r < 6; r++) {
  for (const s of order) {
    const t = performance.now();
    for (let i = 0; i < n / 6; i++) await sides[s]();
    res[s] = (res[s] ?? 0) + performance.now() - t;
  }
}
for (const s of order) console.log(s, ((res[s] / n) * 1000).toFixed(1), 'µs/req');
child.kill();
