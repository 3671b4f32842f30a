/**
 * Cold start and size of the built client:
 * - `import('community-server-sdk')` in a fresh process against `import('ky')` + `import('zod')`
 *   (goal ≤ 1.5×), alternating the two process by process;
 * - the whole client entry, ESM, bundled with its dependencies, minified + brotli (goal: the
 *   budget in `.size-limit.json`, 25.4 KB: the 64 requests fit 20 KB; `watch()`, the shared
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

export async function bundleSize(): Promise<Comparison> {
  const { stdout } = await run(`${root}/node_modules/.bin/size-limit`, ['--json'], { cwd: root });
  const [client] = JSON.parse(stdout) as { name: string; size: number; sizeLimit: number }[];
  const kb = client!.size / 1000;
  // The goal is the budget `npm test` enforces, read from the one place it is set.
  const goal = `≤ ${client!.sizeLimit / 1000} KB`;
  return {
    name: 'whole client entry, ESM, with ky and zod/mini, minified + brotli (size-limit)',
    value: `${kb.toFixed(2)} KB`,
    baseline: '—',
    ratio: null,
    goal,
    met: client!.size <= client!.sizeLimit,
  };
}
