/**
 * The bin's snapshot doors: `community-server-mock snapshot --out FILE` copies a real server
 * into a file, and `--world FILE` reads one back for the mock to serve.
 * @module
 */
import { rmSync } from 'node:fs';
import { open, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { CommunityServerClient } from '../../../src/client';
import type { WorldSnapshot } from '../../contract/snapshot';
import { snapshotProblem } from '../../engine/snapshot/parse';
import { snapshotWorld } from '../../engine/snapshot/take';

export const SNAPSHOT_USAGE = `Usage: community-server-mock snapshot --out FILE [--concurrency 4] [--no-account-links]

Reads every data group of a real server through the SDK and writes it to FILE as JSON, for
\`community-server-mock --world FILE\` (or createMockApi({ world })) to serve offline.
The server and token come from COMMUNITY_SERVER_BASE_URL and COMMUNITY_SERVER_TOKEN; no token is written.`;

/** A mistake in how the bin was called: the bin prints it with its usage and exits 2. */
export class BinUsageError extends Error {}

/** The snapshot in `file`; a file that is missing, not JSON or not a snapshot throws a {@link BinUsageError} naming it and the path inside it. */
export async function readWorldFile(file: string): Promise<WorldSnapshot> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new BinUsageError(`--world ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BinUsageError(`--world ${file}: not JSON (${(error as Error).message})`);
  }
  const problem = snapshotProblem(value);
  if (problem !== undefined) throw new BinUsageError(`--world ${file}: not a world snapshot: ${problem}`);
  return value as WorldSnapshot;
}

function requiredEnv(name: string, what: string): string {
  const value = process.env[name]?.trim();
  if (!value) throw new BinUsageError(`set ${name} to ${what}`);
  return value;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * `FILE.partial`, opened for writing, where the snapshot goes before it is renamed to `file`: an
 * interrupted run (an error, Ctrl-C) never leaves half a snapshot under the name, nor the partial file.
 */
async function openOut(file: string): Promise<{ partial: string; handle: FileHandle; interrupted: (signal: NodeJS.Signals) => void }> {
  if ((await stat(file).catch(() => undefined))?.isDirectory()) throw new BinUsageError(`--out ${file}: is a directory; give a file name`);
  const partial = `${file}.partial`;
  let handle: FileHandle;
  try {
    handle = await open(partial, 'w');
  } catch (error) {
    throw new BinUsageError(`--out ${file}: cannot write ${partial} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const interrupted = (signal: NodeJS.Signals) => {
    rmSync(partial, { force: true });
    process.exit(signal === 'SIGTERM' ? 143 : 130);
  };
  for (const signal of SIGNALS) process.once(signal, interrupted);
  return { partial, handle, interrupted };
}

/** `community-server-mock snapshot …`: takes the snapshot, writes it, and prints what it holds. */
export async function runSnapshot(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      concurrency: { type: 'string' },
      'no-account-links': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(SNAPSHOT_USAGE);
  if (!values.out) throw new BinUsageError('--out FILE is required (where to write the snapshot)');
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (concurrency !== undefined && !(Number.isSafeInteger(concurrency) && concurrency >= 1 && /^\d+$/.test(values.concurrency!))) {
    throw new BinUsageError(`--concurrency must be a whole number ≥ 1, got "${values.concurrency}"`);
  }
  const token = requiredEnv('COMMUNITY_SERVER_TOKEN', 'the API token of the server to copy');
  const baseUrl = requiredEnv('COMMUNITY_SERVER_BASE_URL', 'the API’s base URL, e.g. https://api.example.com');

  // The file is opened before the server is read (which may take minutes): a bad --out fails at once.
  const out = await openOut(values.out);
  let snapshot: WorldSnapshot;
  try {
    const client = new CommunityServerClient({ token, baseUrl });
    snapshot = await snapshotWorld(client, { ...(concurrency && { concurrency }), accountLinks: !values['no-account-links'] });
    await out.handle.writeFile(JSON.stringify(snapshot));
    await out.handle.close();
    await rename(out.partial, values.out);
  } catch (error) {
    await out.handle.close().catch(() => undefined); // already closed when the rename failed
    await rm(out.partial, { force: true });
    throw error;
  } finally {
    for (const signal of SIGNALS) process.off(signal, out.interrupted);
  }
  const { server, members, logs, departments, cad } = snapshot;
  console.log(
    `wrote ${values.out}: server "${server.name ?? server.id}", ${members.length} members, ${logs.length} logs, ${departments.length} departments, ${cad ? `${cad.calls.length} CAD calls` : 'no CAD'}`,
  );
  console.log(`serve it: npx -p community-server-sdk community-server-mock --world ${values.out}`);
}
