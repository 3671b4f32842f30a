/**
 * The built package on other runtimes: examples/runtime-smoke.mjs under Bun, Deno and the Node
 * that runs this suite (Node 22 under `npm run test:node22`, Node 24 under `npm run test:node24`). Bun and Deno come from
 * scripts/runtimes.mjs, fetched from the npm registry once into .cache/runtimes/. Where one
 * cannot be had (no registry, not linux-x64) its test is skipped with the reason, except in CI,
 * where it fails: there an untested runtime must not pass for a tested one.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createMockApi } from 'community-server-sdk/mock';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cache = `${root}.cache/runtimes`;
const run = promisify(execFile);
const script = 'examples/runtime-smoke.mjs';

/** The pinned binary's path (downloaded on first use), or why there is none. */
async function fetchRuntime(name: 'bun' | 'deno'): Promise<{ bin: string } | { reason: string }> {
  try {
    const { stdout } = await run(process.execPath, ['scripts/runtimes.mjs', 'path', name], { cwd: root });
    return { bin: stdout.trim() };
  } catch (error) {
    // The script's last line says why (unsupported platform, npm pack's error).
    return { reason: (error as { stderr?: string }).stderr?.trim().split('\n').at(-1) || String(error) };
  }
}

const runtimes = {
  node: { command: () => [process.execPath, script], env: {} },
  // --no-install: resolve from this node_modules only, never auto-install from the registry.
  // Its transpiler cache goes to .cache/, not $HOME.
  bun: { command: (bin: string) => [bin, '--no-install', script], env: { BUN_RUNTIME_TRANSPILER_CACHE_PATH: `${cache}/bun-cache` } },
  // The one permission the smoke needs: graphql (under msw) reads NODE_ENV as it loads. No
  // --allow-read: loading modules needs none. --no-prompt: a missing permission fails, never waits.
  deno: {
    command: (bin: string) => [bin, 'run', '--no-prompt', '--allow-env=NODE_ENV', script],
    env: { DENO_DIR: `${cache}/deno-dir`, NO_COLOR: '1' },
  },
};

const mock = createMockApi({ seed: 1 });
const members = mock.store.main.members.size;

for (const [name, runtime] of Object.entries(runtimes)) {
  it(`${name} runs the smoke test against the built package`, async (context) => {
    let bin = process.execPath;
    let version = process.versions.node;
    if (name !== 'node') {
      const fetched = await fetchRuntime(name as 'bun' | 'deno');
      if ('reason' in fetched) {
        if (process.env.CI) throw new Error(`${name} is required in CI: ${fetched.reason}`);
        return context.skip(`${name} not available here: ${fetched.reason}`);
      }
      bin = fetched.bin;
      version = /-(\d+\.\d+\.\d+)\//.exec(bin)![1]!; // the pinned version, from its cache folder
    }
    const [file, ...args] = runtime.command(bin);
    const { stdout } = await run(file!, args, { cwd: root, env: { ...process.env, ...runtime.env }, timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({
      runtime: `${name} ${version}`,
      server: mock.store.main.info.name,
      members,
      pages: Math.ceil(members / 25),
      toArray: members,
      notFound: 404,
      tokenRevoked: 401,
      failures: [],
    });
  }, 300_000); // a first run downloads the runtime (~40 MB), later ones take about a second
}
