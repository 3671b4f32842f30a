/**
 * An earlier revision of the SDK, built in this run, as a benchmark's "before": its sources are
 * taken from git (`git archive`) into `.cache/bench-baseline/<rev>/` and the entry is bundled
 * with esbuild (ky and zod left to this checkout's `node_modules`), so before and after run in
 * one process, in the same rounds. Unavailable (a shallow clone, no git) is said, not guessed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The last commit before issue 18 (events, the fair gate): the client the events overhead is measured against. */
export const BEFORE_EVENTS = 'ed1537a5ff9ca5cf28cdeb5bd4b1ec852439a9ce';

/**
 * Imports `entry` (a path inside the repository, e.g. `src/index.ts`) as it was at `rev`; the
 * reason when that revision cannot be had here.
 */
export async function atRevision<Module>(rev: string, entry: string): Promise<{ module: Module } | { missing: string }> {
  const dir = `${root}.cache/bench-baseline/${rev}`;
  const outfile = `${dir}/${entry.replace(/\W/g, '_')}.mjs`;
  try {
    if (!existsSync(outfile)) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const archive = execFileSync('git', ['archive', '--format=tar', rev, 'src', 'mocks', 'package.json'], {
        cwd: root,
        maxBuffer: 1 << 28,
      });
      execFileSync('tar', ['-x', '-C', dir], { input: archive });
      await build({
        entryPoints: [`${dir}/${entry}`],
        bundle: true,
        format: 'esm',
        platform: 'node',
        outfile,
        packages: 'external',
        logLevel: 'silent',
      });
    }
    return { module: (await import(pathToFileURL(outfile).href)) as Module };
  } catch (error) {
    return {
      missing: `revision ${rev} could not be built here (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    };
  }
}
