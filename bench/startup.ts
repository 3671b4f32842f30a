/**
 * Cold start and size of the built client:
 * - `import('community-server-sdk')` in a fresh process against `import('ky')` + `import('zod')`
 *   (goal ≤ 1.5×), alternating the two process by process;
 * - the whole client entry, ESM, bundled with its dependencies, minified + brotli (goal: the
 *   budget in `.size-limit.mjs`, 25.4 KB: the 64 requests fit 20 KB; `watch()`, the shared
 *   rate-limit store and issue 10's hardening added ~3 KB, logging ~0.6 KB, issue 18's fair
 *   gate, own retry loop, retry policy and events ~1.6 KB, and the hook through which
 *   `community-server-sdk/query` reads the endpoint table and base URL 15 B, past 25.3 KB;
 *   issue 18 asked for 22 KB, not met: ky and zod's core are ~11.6 KB of it before any of the
 *   SDK's own code),
 *   as size-limit measures it: the same figure `npm test` enforces.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { format, row, smoke, spread, type Comparison } from './harness';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

async function importTime(specifiers: string[]): Promise<number> {
  const source = `const t = performance.now(); ${specifiers.map((s) => `await import('${s}');`).join(' ')} console.log(performance.now() - t);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', source], { cwd: root });
  return Number(stdout);
}

export async function coldImport(): Promise<Comparison> {
  const sdk: number[] = [];
  const deps: number[] = [];
  for (let round = 0; round < (smoke ? 1 : 15); round++) {
    deps.push(await importTime(['ky', 'zod']));
    sdk.push(await importTime(['community-server-sdk']));
  }
  return row(
    "`import('community-server-sdk')`, cold, fresh process",
    format(spread(sdk), 'ms', 1),
    `\`import('ky')\` + \`import('zod')\`: ${format(spread(deps), 'ms', 1)}`,
    spread(sdk.map((ms, i) => ms / deps[i]!)),
    '≤ 1.5×',
  );
}

/** What size-limit measures of each entry, in `.size-limit.mjs`'s order. */
interface Measured {
  name: string;
  size: number;
  sizeLimit: number;
}

/** A row for a bundle: its size against `goal` in KB. */
const sizeRow = (name: string, entry: Measured, goalKb: number): Comparison => ({
  name,
  value: `${(entry.size / 1000).toFixed(2)} KB`,
  baseline: '—',
  ratio: null,
  goal: `≤ ${goalKb} KB`,
  met: entry.size <= goalKb * 1000,
});

/**
 * The whole client entry against its budget, and issue 31's two bundles against its goals (not
 * their budgets, which hold what they measure until the goals are reached): `createCore` with
 * three functions ≤ 14 KB, the class with the same three calls ≤ 24 KB.
 */
export async function bundleSize(): Promise<Comparison[]> {
  const { stdout } = await run(`${root}/node_modules/.bin/size-limit`, ['--json'], { cwd: root });
  const measured = JSON.parse(stdout) as Measured[];
  const named = (start: string) => measured.find((entry) => entry.name.startsWith(start))!;
  const client = measured[0]!;
  // The goal is the budget `npm test` enforces, read from the one place it is set.
  return [
    sizeRow('whole client entry, ESM, with ky and zod/mini, minified + brotli (size-limit)', client, client.sizeLimit / 1000),
    sizeRow(
      '`community-server-sdk/core`: `createCore` + `membersList`, `membersGet`, `serverInfo`, what loads up front, minified + brotli (size-limit)',
      named('community-server-sdk/core'),
      14,
    ),
    sizeRow(
      '`CommunityServerClient` with the same three calls, what loads up front, minified + brotli (size-limit)',
      named('CommunityServerClient'),
      24,
    ),
  ];
}
