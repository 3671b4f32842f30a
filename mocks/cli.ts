#!/usr/bin/env node
/**
 * `community-server-mock`: serves the mock over HTTP on loopback and prints its base URL and tokens.
 *
 *   npx -p community-server-sdk community-server-mock [--port 4010] [--seed 1] [--host 127.0.0.1] [--latency 0] [--activity ms] [--world FILE]
 *     [--tokens seeded|random] [--rate-limit 20/1s] [--auth-failures N] [--auth-error-shape string|object] [--admin-token T]
 *     [--max-sessions 64] [--max-session-rows 500000]
 *   npx -p community-server-sdk community-server-mock snapshot --out FILE
 * @module
 */
import { parseArgs } from 'node:util';
import { AUTH_ERROR_SHAPES, choiceOption, integerOption, isLoopback, rateLimitFlag, MOCK_TOKEN_SOURCES } from './doors/cli/flags';
import { readWorldFile, runSnapshot, SNAPSHOT_USAGE, BinUsageError } from './doors/cli/snapshot';
import { createMockApi } from './index';
import { startMockHttpServer } from './node';
import { DEFAULT_MAX_SESSION_ROWS, DEFAULT_MAX_SESSIONS } from './doors/sessions/sessions';

/** The most sessions the bin takes: each holds a whole world (a few MB), so more would exhaust memory first. */
const MAX_SESSIONS_FLAG = 10_000;

const USAGE = `Usage: community-server-mock [--port 4010] [--seed 1] [--host 127.0.0.1] [--latency ms] [--activity ms] [--world FILE]
                             [--tokens seeded|random] [--rate-limit N/window] [--auth-failures N]
                             [--auth-error-shape string|object] [--admin-token T] [--max-sessions N]
                             [--max-session-rows N]
       community-server-mock snapshot --out FILE

Serves the Community Server Data API mock over HTTP and prints its base URL and tokens, and the
admin token of its control API (/__mock/*: reset, journal, rows, activity, health, faults, clock).
--activity ms: the world changes by itself, one seeded event (a log, a shift, a call…) every ms.
--world FILE: serve a snapshot (written by \`snapshot --out FILE\`) instead of the seeded server,
  under fresh random API tokens: its data is a real server's, and the seeded tokens are the
  same in every install.
--tokens seeded|random: the API tokens' secrets: the seed's, the same at every start (the default
  without --world), or fresh from a secure random source at each start (the default with --world).
--rate-limit N/window: N requests per token per window, the window in ms, s or m (20/1s, 100/1m).
--auth-failures N: suspend a token for 60 s after N failed authentications.
--auth-error-shape string|object: the body of 401 and 403 answers (default string).
--admin-token T: the control API's token (at least 16 characters; default: a fresh random one).
--max-sessions N: how many sessions (POST /__mock/sessions: a whole mock of its own per test
  worker, under /sessions/{id} on this port) the server holds at once (default 64; 0: none).
--max-session-rows N: how many rows the open sessions' worlds hold together (default 500000,
  ~500 MB; a default world has ~3400). A session's counts are bounded per group too.
--host: loopback by default; any other address makes the tokens reachable from the network.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      seed: { type: 'string' },
      host: { type: 'string' },
      latency: { type: 'string' },
      activity: { type: 'string' },
      world: { type: 'string' },
      tokens: { type: 'string' },
      'rate-limit': { type: 'string' },
      'auth-failures': { type: 'string' },
      'auth-error-shape': { type: 'string' },
      'admin-token': { type: 'string' },
      'max-sessions': { type: 'string' },
      'max-session-rows': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(USAGE);
  const port = integerOption('port', values.port, 4010, 0, 65_535);
  const seed = integerOption('seed', values.seed, 1, 0, Number.MAX_SAFE_INTEGER);
  const latency = integerOption('latency', values.latency, 0, 0, 60_000);
  const activity =
    values.activity === undefined ? undefined : { intervalMs: integerOption('activity', values.activity, 0, 1, 2 ** 31 - 1) };
  const rateLimit = rateLimitFlag(values['rate-limit']);
  const authFailureLimit =
    values['auth-failures'] === undefined ? undefined : integerOption('auth-failures', values['auth-failures'], 0, 1, 1_000_000);
  const authErrorShape = choiceOption('auth-error-shape', values['auth-error-shape'], AUTH_ERROR_SHAPES);
  const tokens = choiceOption('tokens', values.tokens, MOCK_TOKEN_SOURCES);
  const maxSessions = integerOption('max-sessions', values['max-sessions'], DEFAULT_MAX_SESSIONS, 0, MAX_SESSIONS_FLAG);
  const maxSessionRows = integerOption(
    'max-session-rows',
    values['max-session-rows'],
    DEFAULT_MAX_SESSION_ROWS,
    0,
    Number.MAX_SAFE_INTEGER,
  );
  const world = values.world === undefined ? undefined : await readWorldFile(values.world);
  const mock = createMockApi({
    seed,
    latency,
    ...(activity ? { activity } : {}),
    ...(world ? { world } : {}),
    ...(tokens ? { tokens } : {}),
    ...(rateLimit ? { rateLimit } : {}),
    ...(authFailureLimit ? { authFailureLimit } : {}),
    ...(authErrorShape ? { authErrorShape } : {}),
  });
  const host = values.host ?? '127.0.0.1';
  const adminToken = values['admin-token'];
  const server = await startMockHttpServer({
    mock,
    port,
    host,
    maxSessions,
    maxSessionRows,
    ...(adminToken === undefined ? {} : { adminToken }),
  });

  console.log(
    `community-server-mock listening on ${server.url} (${world ? `world ${values.world}, taken ${world.takenAt}` : `seed ${seed}`})`,
  );
  console.log('tokens:');
  for (const [name, token] of Object.entries({ ...mock.tokens, admin: server.adminToken })) console.log(`  ${name.padEnd(9)} ${token}`);
  if (rateLimit) console.log(`rate limit: ${rateLimit.limit} requests per ${rateLimit.windowMs} ms per token`);
  if (!isLoopback(host)) {
    console.error(
      `community-server-mock: warning: listening on ${host}, not loopback: the tokens above, the admin token included, are now reachable from the network`,
    );
  }
  if (activity) console.log(`activity: on, one event every ${activity.intervalMs} ms (logs, shifts, LOAs, join requests, CAD calls…)`);
  console.log(`sessions: up to ${maxSessions} at once (POST ${server.url}/__mock/sessions with the admin token)`);
  console.log(`try: curl -H "Authorization: Bearer ${mock.tokens.main}" ${server.url}/api/v1/server/members`);

  const stop = (signal: string) => {
    console.log(`${signal}: closing`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

/** A bad call of `snapshot` exits 2 with its usage; a server that fails it exits 1 with the reason. */
function snapshotFailed(error: unknown): never {
  const usage = error instanceof BinUsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  const reason = error instanceof Error ? (usage ? error.message : `${error.name}: ${error.message}`) : String(error);
  console.error(`community-server-mock snapshot: ${reason}`);
  if (usage) console.error(SNAPSHOT_USAGE);
  process.exit(usage ? 2 : 1);
}

if (process.argv[2] === 'snapshot') runSnapshot(process.argv.slice(3)).catch(snapshotFailed);
else {
  main().catch((error: unknown) => {
    console.error(`community-server-mock: ${error instanceof Error ? error.message : String(error)}`);
    console.error(USAGE);
    process.exit(2);
  });
}
