/**
 * Sessions on the built bin (`dist/cli.js`, `npm run build` first), driven as a parallel suite
 * drives it: four worker processes (session-worker.mjs, on the built SDK) each open a session on
 * one bin and hammer it at once, each with its own fault, clock, health or rate limit; none sees
 * anything of another, and the root mock sees none of them. `--max-sessions` bounds them.
 */
import { fileURLToPath } from 'node:url';
import { CommunityServerClient, RateLimitError } from 'community-server-sdk';
import { connectMock } from 'community-server-sdk/mock/remote';
import { describe, expect, it } from 'vitest';
import { startBin, startProcess } from '../cli/bin';

const ADMIN = 'ci-admin-token-for-sessions-0123';
const worker = fileURLToPath(new URL('./session-worker.mjs', import.meta.url));

interface WorkerReport {
  index: number;
  baseUrl: string;
  tokens: Record<string, string>;
  statuses: number[];
  journal: { endpoint: string | null; token: string | null; status: number; at: number }[];
}

/** Runs worker `index` against `url` to its end, and reads its report. */
async function runWorker(url: string, index: number): Promise<WorkerReport> {
  const { exit } = startProcess(process.execPath, [worker, url, ADMIN, String(index)]);
  const { code, stdout, stderr } = await exit;
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as WorkerReport;
}

describe('four worker processes on one bin', () => {
  it('each journal holds exactly its own requests; one worker’s fault, clock, health or rate limit changes nothing for the others or the root', async () => {
    const bin = startBin(['--port', '0', '--admin-token', ADMIN, '--max-sessions', '4']);
    const output = await bin.ready;
    const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
    const rootMain = /^\s+main\s+(\S+)$/m.exec(output)![1]!;
    try {
      expect(output).toContain('sessions: up to 4 at once');
      const reports = await Promise.all([0, 1, 2, 3].map((index) => runWorker(url, index)));
      const calls = (report: WorkerReport, call: 0 | 1 | 2) => report.statuses.filter((_status, at) => at % 3 === call);
      const [faulted, advanced, unhealthy, limited] = reports;

      for (const report of reports) {
        // Its journal is its calls, in order, with its statuses: nothing of anyone else's.
        expect(
          report.journal.map((row) => row.status),
          `worker ${report.index}`,
        ).toEqual(report.statuses);
        expect(report.journal.map((row) => row.endpoint)).toEqual(
          report.statuses.map((_status, at) => ['roles.list', 'members.list', 'health.check'][at % 3]),
        );
        expect(new Set(report.journal.map((row) => row.token))).toEqual(new Set(['main', null]));
      }
      expect(calls(faulted!, 0)).toEqual(Array(20).fill(503));
      expect(calls(unhealthy!, 2)).toEqual(Array(20).fill(503));
      expect(limited!.statuses.filter((status) => status === 429)).toHaveLength(35); // 40 counted requests, 5 admitted
      for (const report of [advanced!, unhealthy!, limited!]) expect(calls(report, 0).filter((status) => status === 503)).toEqual([]);
      for (const report of [faulted!, advanced!, limited!]) expect(calls(report, 2)).toEqual(Array(20).fill(200));
      for (const report of [faulted!, advanced!, unhealthy!]) expect(report.statuses).not.toContain(429);
      const hourAhead = Date.now() + 1_800_000;
      expect(Math.min(...advanced!.journal.map((row) => row.at))).toBeGreaterThan(hourAhead);
      for (const report of [faulted!, unhealthy!, limited!]) {
        expect(Math.max(...report.journal.map((row) => row.at))).toBeLessThan(hourAhead);
      }

      // A session's token opens nothing elsewhere: not the root, not another session.
      for (const report of reports) {
        for (const other of reports) {
          const status = (
            await fetch(`${other.baseUrl}/api/v1/server/info`, { headers: { authorization: `Bearer ${report.tokens.main}` } })
          ).status;
          // Worker 3's own: past its rate limit, a 429 (after authentication), never a 401.
          expect(status, `${report.index} at ${other.index}`).toBe(report !== other ? 401 : report === limited ? 429 : 200);
        }
        expect((await fetch(`${url}/api/v1/server/info`, { headers: { authorization: `Bearer ${report.tokens.main}` } })).status).toBe(401);
      }
      // The root: none of their requests in its journal, none of their rows in its store, its health on.
      const owner = connectMock(url, ADMIN);
      expect((await owner.requests()).map((row) => row.token)).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
      const members = await new CommunityServerClient({ token: rootMain, baseUrl: url }).members.list({ pageSize: 100 }).toArray();
      expect(members.filter((member) => String(member.username).startsWith('worker-'))).toEqual([]);
      expect((await fetch(`${url}/health`)).status).toBe(200);

      // --max-sessions 4: the four are open, a fifth is refused until one closes.
      expect(await owner.sessions.list()).toHaveLength(4);
      await expect(owner.sessions.create()).rejects.toBeInstanceOf(RateLimitError);
      const [first] = await owner.sessions.list();
      await fetch(`${url}/__mock/sessions/${first!.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN}` } });
      await (await owner.sessions.create()).close();
    } finally {
      bin.child.kill('SIGTERM');
      expect((await bin.exit).code).toBe(0);
    }
  });
});

describe('--max-sessions 0', () => {
  it('turns sessions off: opening one is a 429', async () => {
    const bin = startBin(['--port', '0', '--admin-token', ADMIN, '--max-sessions', '0']);
    const url = /listening on (http:\/\/\S+)/.exec(await bin.ready)![1]!;
    try {
      await expect(connectMock(url, ADMIN).sessions.create()).rejects.toBeInstanceOf(RateLimitError);
    } finally {
      bin.child.kill('SIGTERM');
      await bin.exit;
    }
  });
});

describe('--max-session-rows (issue 30 item 6)', () => {
  it('bounds the rows of the open sessions’ worlds together: past it, opening one is a 429 saying so', async () => {
    const bin = startBin(['--port', '0', '--admin-token', ADMIN, '--max-session-rows', '5000']);
    const url = /listening on (http:\/\/\S+)/.exec(await bin.ready)![1]!;
    try {
      const owner = connectMock(url, ADMIN);
      await owner.sessions.create(); // the seed's world: 3,423 rows
      const refused = await owner.sessions.create().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RateLimitError);
      expect(refused).toMatchObject({ code: 'too_many_session_rows', message: expect.stringContaining('at most 5000') });
    } finally {
      bin.child.kill('SIGTERM');
      await bin.exit;
    }
  });
});
