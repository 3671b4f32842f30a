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

/** The last commit before issue 24 (coalescing, the cache): the client the cost of always-on coalescing is measured against. */
export const BEFORE_CACHE = 'dbb8d9141451ce81ec21c9376e20a013676c45d3';

/**
 * The last commit before issue 17 (the mock's control plane): the HTTP mock its
 * throughput is measured against.
 */
export const BEFORE_CONTROL = '399b22f1277cb407da78a59fa7fb87719ebf8539';

/**
 * The last commit before issue 26's request pipeline (sessions merged, every request still a
 * `Request` through msw's `getResponse`): the HTTP mock the pipeline's throughput is compared with.
 */
export const BEFORE_PIPELINE = 'cfae99b162765d8a2590889eb0b353eec8487a1a';

/**
 * The last commit before issue 33 (the mock as layers: contract, engine, doors): the mock its
 * HTTP throughput and the heap it keeps per request are compared with.
 */
export const BEFORE_LAYERS = 'a234e07f004a1446c17b93f62ae98b2911b377e5';

/**
 * Bundles `entry` (a path inside the repository, e.g. `src/index.ts`) as it was at `rev`, and
 * returns the bundle's path; the reason when that revision cannot be had here.
 */
export async function builtAtRevision(rev: string, entry: string): Promise<{ file: string } | { missing: string }> {
  const dir = `${root}.cache/bench-baseline/${rev}`;
  const outfile = `${dir}/${entry.replace(/\W/g, '_')}.mjs`;
  try {
    if (!existsSync(outfile)) {
      if (!existsSync(`${dir}/package.json`)) {
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        const archive = execFileSync('git', ['archive', '--format=tar', rev, 'src', 'mocks', 'package.json'], {
          cwd: root,
          maxBuffer: 1 << 28,
        });
        execFileSync('tar', ['-x', '-C', dir], { input: archive });
      }
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
    return { file: outfile };
  } catch (error) {
    return {
      missing: `revision ${rev} could not be built here (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    };
  }
}

/** Imports `entry` as it was at `rev` (see {@link builtAtRevision}). */
export async function atRevision<Module>(rev: string, entry: string): Promise<{ module: Module } | { missing: string }> {
  const built = await builtAtRevision(rev, entry);
  return 'missing' in built ? built : { module: (await import(pathToFileURL(built.file).href)) as Module };
}
