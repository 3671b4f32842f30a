#!/usr/bin/env node
/**
 * `community-server-mock`: serves the mock over HTTP on loopback and prints its base URL and tokens.
 *
 *   npx community-server-mock [--port 4010] [--seed 1] [--host 127.0.0.1] [--latency 0] [--activity ms]
 * @module
 */
import { parseArgs } from 'node:util';
import { createMockApi } from './index';
import { startMockHttpServer } from './node';

const USAGE = `Usage: community-server-mock [--port 4010] [--seed 1] [--host 127.0.0.1] [--latency ms] [--activity ms]

Serves the Community Server Data API mock over HTTP and prints its base URL and tokens.
--activity ms: the world changes by itself, one seeded event (a log, a shift, a call…) every ms.`;

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
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(USAGE);
  const port = integer('port', values.port, 4010, 0, 65_535);
  const seed = integer('seed', values.seed, 1, 0, Number.MAX_SAFE_INTEGER);
  const latency = integer('latency', values.latency, 0, 0, 60_000);
  const activity = values.activity === undefined ? undefined : { intervalMs: integer('activity', values.activity, 0, 1, 2 ** 31 - 1) };
  const mock = createMockApi({ seed, latency, ...(activity ? { activity } : {}) });
  const server = await startMockHttpServer({ mock, port, host: values.host ?? '127.0.0.1' });

  console.log(`community-server-mock listening on ${server.url} (seed ${seed})`);
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

main().catch((error: unknown) => {
  console.error(`community-server-mock: ${error instanceof Error ? error.message : String(error)}`);
  console.error(USAGE);
  process.exit(2);
});
