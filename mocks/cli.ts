#!/usr/bin/env node
/**
 * `community-server-mock`: serves the mock over HTTP on loopback and prints its base URL and tokens.
 *
 *   npx -p community-server-sdk community-server-mock [--port 4010] [--seed 1] [--host 127.0.0.1] [--latency 0] [--activity ms] [--world FILE]
 *   npx -p community-server-sdk community-server-mock snapshot --out FILE
 * @module
 */
import { parseArgs } from 'node:util';
import { readWorldFile, runSnapshot, SNAPSHOT_USAGE, UsageError } from './cli-snapshot';
import { createMockApi } from './index';
import { startMockHttpServer } from './node';

const USAGE = `Usage: community-server-mock [--port 4010] [--seed 1] [--host 127.0.0.1] [--latency ms] [--activity ms] [--world FILE]
       community-server-mock snapshot --out FILE

Serves the Community Server Data API mock over HTTP and prints its base URL and tokens.
--activity ms: the world changes by itself, one seeded event (a log, a shift, a call…) every ms.
--world FILE: serve a snapshot (written by \`snapshot --out FILE\`) instead of the seeded server.`;

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) throw new Error(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      seed: { type: 'string' },
      host: { type: 'string' },
      latency: { type: 'string' },
      activity: { type: 'string' },
      world: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(USAGE);
  const port = integer('port', values.port, 4010, 0, 65_535);
  const seed = integer('seed', values.seed, 1, 0, Number.MAX_SAFE_INTEGER);
  const latency = integer('latency', values.latency, 0, 0, 60_000);
  const activity = values.activity === undefined ? undefined : { intervalMs: integer('activity', values.activity, 0, 1, 2 ** 31 - 1) };
  const world = values.world === undefined ? undefined : await readWorldFile(values.world);
  const mock = createMockApi({ seed, latency, ...(activity ? { activity } : {}), ...(world ? { world } : {}) });
  const server = await startMockHttpServer({ mock, port, host: values.host ?? '127.0.0.1' });

  console.log(
    `community-server-mock listening on ${server.url} (${world ? `world ${values.world}, taken ${world.takenAt}` : `seed ${seed}`})`,
  );
  console.log('tokens:');
  for (const [name, token] of Object.entries(mock.tokens)) console.log(`  ${name.padEnd(9)} ${token}`);
  if (activity) console.log(`activity: on, one event every ${activity.intervalMs} ms (logs, shifts, LOAs, join requests, CAD calls…)`);
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
  const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
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
