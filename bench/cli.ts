/**
 * The command `community-server` (issue 32), built, in fresh processes against a members server
 * of its own on loopback (bench/members-server.mjs):
 * - `members list --all --output jsonl` over 10,000 members, wall time from start to exit, ÷ a
 *   script doing the same with the SDK's own `for await` (bench/sdk-walk.mjs: pages of 100, one
 *   JSON line per member), in alternating rounds (goal ≤ 1.2×);
 * - its peak resident memory over 100,000 members ÷ over 10,000, full collections forced every
 *   20 ms (goal ≤ 1.2×: flat in the number of members, as it streams a page at a time); for
 *   context, the same without forced collections beside the SDK's walk over 100,000;
 * - context: `community-server --help`, wall time from start to exit, beside `node -e ''`.
 */
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { format, row, runWhenMain, smoke, spread, type Comparison } from './harness';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = `${root}dist/community-server.js`;
const TOKEN = 'cs_bench_0123456789abcdef';

/** Starts a members server of `total` members; resolves with its URL and its stop. */
async function membersServer(total: number) {
  const child = fork(fileURLToPath(new URL('./members-server.mjs', import.meta.url)), [String(total)], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [port] = (await once(child.stdout!, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${String(port).trim()}`, stop: () => child.kill() };
}

/** Runs node with `args`, stdout read and counted in lines; resolves with milliseconds, lines and, if preloaded, the peak RSS and live heap (MB). */
async function timed(args: string[], url: string): Promise<{ ms: number; lines: number; rssMb: number; liveMb: number }> {
  const start = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH, COMMUNITY_SERVER_BASE_URL: url, COMMUNITY_SERVER_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let lines = 0;
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 10) lines++;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number];
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`);
  const [, liveKb = Number.NaN, rssKb = Number.NaN] = /peak-live-kb (\d+) peak-rss-kb (\d+)/.exec(stderr) ?? [];
  return { ms, lines, rssMb: Number(rssKb) / 1024, liveMb: Number(liveKb) / 1024 };
}

const COMMAND = [BIN, 'members', 'list', '--all', '--output', 'jsonl'];
const SDK_WALK = [`${root}bench/sdk-walk.mjs`];
const PEAKS = ['--import', fileURLToPath(new URL('./peak-rss.mjs', import.meta.url))];
const COLLECTED = ['--expose-gc', ...PEAKS];

export async function cliBench(): Promise<Comparison[]> {
  const [small, large] = smoke ? [1_000, 3_000] : [10_000, 100_000];
  const rounds = smoke ? 1 : 7;
  const [smallServer, largeServer] = await Promise.all([membersServer(small), membersServer(large)]);
  try {
    const cli: number[] = [];
    const sdk: number[] = [];
    const smallRun = { rss: [] as number[], live: [] as number[] };
    const largeRun = { rss: [] as number[], live: [] as number[] };
    const uncollected = { cli: [] as number[], sdk: [] as number[] };
    const help: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // Alternating which goes first, so the machine's drift falls on both sides alike.
      const sides = [
        async () => cli.push(check(await timed(COMMAND, smallServer.url), small).ms),
        async () => sdk.push(check(await timed(SDK_WALK, smallServer.url), small).ms),
      ];
      for (const side of round % 2 ? sides.reverse() : sides) await side();
      for (const [server, members, peaks] of [
        [smallServer, small, smallRun],
        [largeServer, large, largeRun],
      ] as const) {
        const run = check(await timed([...COLLECTED, ...COMMAND], server.url), members);
        peaks.rss.push(run.rssMb);
        peaks.live.push(run.liveMb);
      }
      uncollected.cli.push(check(await timed([...PEAKS, ...COMMAND], largeServer.url), large).rssMb);
      uncollected.sdk.push(check(await timed([...PEAKS, ...SDK_WALK], largeServer.url), large).rssMb);
      help.push((await timed([BIN, '--help'], smallServer.url)).ms);
      bare.push((await timed(['-e', ''], smallServer.url)).ms);
    }
    const walk = row(
      `\`community-server members list --all --output jsonl\` over ${small.toLocaleString('en')} members, loopback HTTP, start to exit`,
      format(spread(cli), 'ms'),
      `the SDK's \`for await\` (pages of 100) writing the same lines: ${format(spread(sdk), 'ms')}`,
      spread(cli.map((ms, i) => ms / sdk[i]!)),
      '≤ 1.2×',
    );
    walk.note =
      'Both sides are fresh Node processes on the built package, timed from spawn to exit (start-up included), against one members server of their own in a third process; each counts the lines written (every member once).';
    const memory = row(
      `peak resident memory of that command over ${large.toLocaleString('en')} members, full collections forced every 20 ms`,
      format(spread(largeRun.rss), 'MB', 1),
      `${small.toLocaleString('en')} members: ${format(spread(smallRun.rss), 'MB', 1)}`,
      spread(largeRun.rss.map((mb, i) => mb / smallRun.rss[i]!)),
      '≤ 1.2×',
    );
    memory.note =
      "`process.resourceUsage().maxRSS` of the command's process, read as it exits (bench/peak-rss.mjs, preloaded with `--import`): the whole process, Node's own ~40 MB included. Collections are forced (`--expose-gc`, every 20 ms) so the figure is what the walk keeps; without them V8 lets garbage pile up longer in a longer run, in the SDK's own walk alike (the context row after next).";
    const live: Comparison = {
      name: '↳ context: its peak live heap (after a full collection) over the same',
      value: format(spread(largeRun.live), 'MB', 1),
      baseline: `${small.toLocaleString('en')} members: ${format(spread(smallRun.live), 'MB', 1)}`,
      ratio: spread(largeRun.live.map((mb, i) => mb / smallRun.live[i]!)),
      goal: null,
      met: null,
    };
    const unforced: Comparison = {
      name: `↳ context: peak resident memory over ${large.toLocaleString('en')} members, no forced collections, the command ÷ the SDK's \`for await\``,
      value: format(spread(uncollected.cli), 'MB', 1),
      baseline: `the SDK's walk: ${format(spread(uncollected.sdk), 'MB', 1)}`,
      ratio: spread(uncollected.cli.map((mb, i) => mb / uncollected.sdk[i]!)),
      goal: null,
      met: null,
    };
    const startup: Comparison = {
      name: '↳ context: `community-server --help`, start to exit',
      value: format(spread(help), 'ms'),
      baseline: `\`node -e ''\`: ${format(spread(bare), 'ms')}`,
      ratio: spread(help.map((ms, i) => ms / bare[i]!)),
      goal: null,
      met: null,
    };
    return [walk, memory, live, unforced, startup];
  } finally {
    smallServer.stop();
    largeServer.stop();
  }
}

/** `run`, having printed every member once (a walk that stopped short would time well). */
function check<Run extends { lines: number }>(run: Run, members: number): Run {
  if (run.lines !== members) throw new Error(`printed ${run.lines} lines for ${members} members`);
  return run;
}

await runWhenMain(import.meta.url, cliBench);
