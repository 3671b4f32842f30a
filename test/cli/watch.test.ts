/**
 * `community-server watch` (issue 32, item 2), as a user runs it: new items as JSON lines;
 * `--forward-to` a receiver (one in Node, and examples/webhooks/receiver.py in Python with its
 * standard library) with every signature checked, the order kept, a receiver that fails twice
 * then recovers, Ctrl-C during a delivery; `--cursor-file` resuming a restarted watch with
 * nothing lost or repeated; and what it refuses before sending anything. Drives the built bin
 * against the HTTP mock bin; new log rows are added through the mock's control API.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { verifyWebhookSignature } from 'community-server-sdk/webhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Forwarder } from '../../src/cli/watch/forward';
import { runCommand, startCommand, startHttpMock, type HttpMock } from './harness';

const SECRET = 'whsec_test_6c0f2a9d41b7e385';
const RECEIVER_PY = fileURLToPath(new URL('../../examples/webhooks/receiver.py', import.meta.url));

let mock: HttpMock;
let dir: string;
const started: { child: { kill(signal: NodeJS.Signals): boolean } }[] = [];
beforeAll(async () => {
  mock = await startHttpMock();
  dir = mkdtempSync(`${tmpdir()}/cli-watch-`);
});
afterAll(async () => {
  await mock.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => mock.remote.reset());
afterEach(() => {
  for (const { child } of started.splice(0)) child.kill('SIGKILL');
});

const env = { COMMUNITY_SERVER_TOKEN: '', COMMUNITY_SERVER_BASE_URL: '', COMMUNITY_SERVER_WEBHOOK_SECRET: SECRET };
const watchEnv = () => ({ ...env, COMMUNITY_SERVER_TOKEN: mock.tokens.main, COMMUNITY_SERVER_BASE_URL: mock.url });

/** Resolves once `check` holds, polling; fails after `ms`. */
async function waitFor<T>(check: () => T | Promise<T>, ms = 10_000): Promise<NonNullable<Awaited<T>>> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`still not so after ${ms} ms: ${check.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts `watch logs list`, polling every 100 ms, keeping its place in `cursorFile`; resolves once it has a starting point. */
async function startWatch(cursorFile: string, extra: string[] = []) {
  const watch = startCommand(['watch', 'logs', 'list', '--interval-ms', '100', '--cursor-file', cursorFile, ...extra], { env: watchEnv() });
  started.push(watch);
  // A new watch writes its place once it has taken it; a restarted one resumes from the file's.
  await waitFor(() => existsSync(cursorFile));
  return watch;
}

let clock = Math.floor(Date.now() / 1000);
/** Adds a log to the mock, newer than every one before it; returns its id. */
async function addLog(text: string): Promise<string> {
  return (await mock.remote.store('main.logs').create({ text, createdAt: ++clock })).id;
}

const lines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: string; text: string });

/** A receiver in this process: each delivery recorded with its signature checked; `answer` decides each reply by its number. */
async function startReceiver(answer: (n: number) => number | 'reset' | 'hang' = () => 204) {
  const deliveries: { valid: boolean; body: { endpoint: string; item: { id: string; text: string } }; answered: number | string }[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      void (async () => {
        const signature = request.headers['community-server-signature'];
        const valid = await verifyWebhookSignature(body, typeof signature === 'string' ? signature : null, SECRET);
        const reply = answer(deliveries.length + 1);
        deliveries.push({ valid, body: JSON.parse(body), answered: reply });
        if (reply === 'reset') request.socket.destroy();
        else if (reply !== 'hang') response.writeHead(reply).end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?key=query-secret`,
    deliveries,
    /** Ids of the deliveries it took (2xx), in order. */
    taken: () => deliveries.filter(({ answered }) => typeof answered === 'number' && answered < 300).map(({ body }) => body.item.id),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('watch', () => {
  it('prints each new item of the list as one JSON line, oldest first, and ends on Ctrl-C with exit 0', async () => {
    const watch = await startWatch(`${dir}/plain.json`);
    const ids = [await addLog('first'), await addLog('second'), await addLog('third')];
    await waitFor(() => lines(watch.output().stdout).length === 3);
    watch.child.kill('SIGINT');
    const { code, stdout, stderr } = await watch.done;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(lines(stdout).map(({ id, text }) => [id, text])).toEqual([
      [ids[0], 'first'],
      [ids[1], 'second'],
      [ids[2], 'third'],
    ]);
  });

  it('--forward-to POSTs each item signed, in order, retrying a receiver that fails twice, and prints each once delivered', async () => {
    const receiver = await startReceiver((n) => (n === 2 ? 503 : n === 3 ? 'reset' : 204));
    try {
      const watch = await startWatch(`${dir}/forward.json`, ['--forward-to', receiver.url]);
      const ids = [await addLog('a'), await addLog('b'), await addLog('c')];
      await waitFor(() => receiver.taken().length === 3);
      await waitFor(() => lines(watch.output().stdout).length === 3);
      watch.child.kill('SIGINT');
      const { code, stdout, stderr } = await watch.done;
      expect(code).toBe(0);
      expect(receiver.taken()).toEqual(ids);
      expect(receiver.deliveries.map(({ body }) => body.item.id)).toEqual([ids[0], ids[1], ids[1], ids[1], ids[2]]);
      expect(receiver.deliveries.every(({ valid, body }) => valid && body.endpoint === 'logs.list')).toBe(true);
      expect(lines(stdout).map(({ id }) => id)).toEqual(ids);
      const retries = stderr.trimEnd().split('\n');
      expect(retries).toHaveLength(2);
      expect(retries[0]).toMatch(
        /^community-server: delivery to http:\/\/127\.0\.0\.1:\d+\/hook failed \(status 503\); attempt 2 in \d\.\d s$/,
      );
      expect(retries[1]).toMatch(/failed \(ECONNRESET|network error|UND_ERR_SOCKET\); attempt 3 in/);
      expect(stderr).not.toContain('query-secret');
    } finally {
      await receiver.close();
    }
  });

  it('--cursor-file: a restarted watch delivers what entered the list while it was stopped, nothing missed, nothing repeated', async () => {
    const receiver = await startReceiver();
    const cursorFile = `${dir}/resume.json`;
    try {
      const first = await startWatch(cursorFile, ['--forward-to', receiver.url]);
      const before = [await addLog('before 1'), await addLog('before 2')];
      await waitFor(() => receiver.taken().length === 2);
      first.child.kill('SIGINT');
      expect((await first.done).code).toBe(0);
      const during = [await addLog('while stopped 1'), await addLog('while stopped 2')];
      const second = await startWatch(cursorFile, ['--forward-to', receiver.url]);
      const after = [await addLog('after')];
      await waitFor(() => receiver.taken().length === 5);
      second.child.kill('SIGINT');
      expect((await second.done).code).toBe(0);
      expect(receiver.taken()).toEqual([...before, ...during, ...after]);
      expect(JSON.parse(readFileSync(cursorFile, 'utf8'))).toMatchObject({
        v: 1,
        watch: 'logs.list',
        ids: [],
        cursor: { list: 'GET /api/v1/server/logs' },
      });
    } finally {
      await receiver.close();
    }
  });

  it('a watch stopped before its first item resumes from where it started, not from its restart', async () => {
    const cursorFile = `${dir}/early.json`;
    const first = await startWatch(cursorFile);
    first.child.kill('SIGINT');
    await first.done;
    const missed = await addLog('entered while no watch ran');
    const second = await startWatch(cursorFile);
    await waitFor(() => lines(second.output().stdout).length === 1);
    second.child.kill('SIGINT');
    expect(lines((await second.done).stdout).map(({ id }) => id)).toEqual([missed]);
  });

  it('a place that can no longer be kept (its directory gone) ends the watch, exit 1, saying the item printed was delivered', async () => {
    const folder = mkdtempSync(`${dir}/gone-`);
    const watch = await startWatch(`${folder}/cursor.json`);
    const start = readFileSync(`${folder}/cursor.json`, 'utf8');
    await addLog('kept');
    await waitFor(() => lines(watch.output().stdout).length === 1);
    // The place after 'kept' is written just after its line is printed: the folder goes once it is.
    // (The place kept at the start may already name an `after`: the file must have changed.)
    await waitFor(() => readFileSync(`${folder}/cursor.json`, 'utf8') !== start);
    rmSync(folder, { recursive: true });
    await addLog('not kept');
    const { code, stdout, stderr } = await watch.done;
    expect(code).toBe(1);
    expect(lines(stdout).map(({ text }) => text)).toEqual(['kept', 'not kept']);
    expect(stderr).toMatch(/could not keep the watch's place \(ENOENT\); the last item printed was delivered/);
  });

  it('Ctrl-C during a delivery lets the attempt in flight run, starts no other; a second Ctrl-C ends it at once, the item kept for a restart', async () => {
    const receiver = await startReceiver(() => 'hang');
    const cursorFile = `${dir}/hang.json`;
    try {
      const watch = await startWatch(cursorFile, ['--forward-to', receiver.url]);
      const saved = readFileSync(cursorFile, 'utf8');
      await addLog('never taken');
      await waitFor(() => receiver.deliveries.length === 1);
      watch.child.kill('SIGINT');
      await waitFor(() => watch.output().stderr.includes('stopping once the delivery in flight ends (Ctrl-C again to stop now)'));
      watch.child.kill('SIGINT');
      const { code, stdout } = await watch.done;
      expect(code).toBe(130);
      expect(stdout).toBe('');
      expect(readFileSync(cursorFile, 'utf8')).toBe(saved);
    } finally {
      await receiver.close();
    }
  });

  it('delivers to the Python receiver of examples/webhooks, which checks each signature with its standard library', async () => {
    const python = spawn('python3', [RECEIVER_PY], { env: { PATH: process.env.PATH, PORT: '0', COMMUNITY_SERVER_WEBHOOK_SECRET: SECRET } });
    let received = '';
    python.stdout.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    let listening = '';
    python.stderr.setEncoding('utf8').on('data', (chunk: string) => (listening += chunk));
    try {
      const url = (await waitFor(() => /listening on (\S+)/.exec(listening)))[1]!;
      const watch = await startWatch(`${dir}/python.json`, ['--forward-to', url]);
      const ids = [await addLog('to python 1'), await addLog('to python 2')];
      await waitFor(() => received.split('\n').filter(Boolean).length === 2);
      watch.child.kill('SIGINT');
      expect((await watch.done).code).toBe(0);
      expect(
        received
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ).toEqual(ids.map((id) => ({ endpoint: 'logs.list', item: expect.objectContaining({ id }) })));
      // A forged or stale delivery is refused.
      const body = JSON.stringify({ endpoint: 'logs.list', item: { id: 'forged' } });
      const stale = Math.floor(Date.now() / 1000) - 600;
      for (const signature of ['t=1,v1=00', `t=${stale},v1=${'0'.repeat(64)}`, '']) {
        const response = await fetch(url, { method: 'POST', body, headers: { 'community-server-signature': signature } });
        expect(response.status).toBe(401);
      }
      expect(received.split('\n').filter(Boolean)).toHaveLength(2);
    } finally {
      python.kill('SIGTERM');
    }
  });
});

describe('deliveries', () => {
  it('a receiver that does not answer within the attempt timeout is tried again, and the delivery signed anew', async () => {
    const receiver = await startReceiver((n) => (n === 1 ? 'hang' : 204));
    const reports: string[] = [];
    try {
      const forwarder = new Forwarder({
        url: new URL(receiver.url),
        secret: SECRET,
        endpoint: 'logs.list',
        signal: new AbortController().signal,
        report: async (line) => void reports.push(line),
        attemptTimeoutMs: 300,
        firstBackoffMs: 10,
      });
      await forwarder.deliver({ id: 'slow', text: 'x' });
      expect(receiver.taken()).toEqual(['slow']);
      expect(receiver.deliveries.map(({ valid }) => valid)).toEqual([true, true]);
      expect(reports).toEqual([expect.stringMatching(/failed \(no answer within 300 ms\); attempt 2 in 0\.0 s$/)]);
    } finally {
      await receiver.close();
    }
  });
});

describe('watch refuses before sending anything', () => {
  it.each([
    ['a request that is not a list', ['watch', 'members', 'get', 'x'], {}],
    ['no list at all', ['watch'], {}],
    [
      '--forward-to without a secret',
      ['watch', 'logs', 'list', '--forward-to', 'http://127.0.0.1:1/'],
      { COMMUNITY_SERVER_WEBHOOK_SECRET: '' },
    ],
    [
      'a secret too short to be one',
      ['watch', 'logs', 'list', '--forward-to', 'http://127.0.0.1:1/'],
      { COMMUNITY_SERVER_WEBHOOK_SECRET: 'short' },
    ],
    ['--forward-to that is no http URL', ['watch', 'logs', 'list', '--forward-to', 'file:///etc/passwd'], {}],
    ['a bad interval', ['watch', 'logs', 'list', '--interval-ms', '0'], {}],
    ['a cursor file where none can be written', ['watch', 'logs', 'list', '--cursor-file', '/etc/hostname/cursor'], {}],
  ])('%s: exit 2, nothing sent', async (_, args, extraEnv) => {
    const { code, stderr } = await runCommand(args, { env: { ...watchEnv(), ...extraEnv } });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^community-server: .+\nRun 'community-server .*--help' for usage\.\n$/);
    expect(stderr).not.toContain(SECRET);
    expect(await mock.remote.requests()).toEqual([]);
  });

  it.each([
    ['not JSON', '{"v":1,'],
    ['empty', ''],
    ['JSON but no cursor file', '[1,2]'],
    ['the place of another list', JSON.stringify({ v: 1, watch: 'members.list', ids: [], baseUrl: 'x', cursor: {} })],
    ['a cursor the SDK refuses', null],
  ])('a cursor file that is %s: exit 2 saying how to start afresh, nothing sent, the file left as it was', async (_, content) => {
    const path = `${dir}/corrupt-${Math.random()}.json`;
    const text =
      content ??
      JSON.stringify({
        v: 1,
        watch: 'logs.list',
        ids: [],
        baseUrl: `${mock.url}/`,
        cursor: { v: 1, list: 'GET /api/v1/server/logs', after: { time: -5, ids: [] } },
      });
    writeFileSync(path, text);
    const { code, stderr } = await runCommand(['watch', 'logs', 'list', '--cursor-file', path], { env: watchEnv() });
    expect(code).toBe(2);
    expect(stderr).toMatch(content === null ? /watch cursor has "after.time" -5/ : /move it away to start from now/);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(await mock.remote.requests()).toEqual([]);
  });
});
