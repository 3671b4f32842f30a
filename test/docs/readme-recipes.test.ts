/**
 * Every TypeScript block of the README, as a user would paste it into a fresh project: the
 * package installed from its packed tarball (what npm serves), the block saved as a file as it
 * stands (no declarations supplied by the test), type-checked against the package's own type
 * declarations, then run:
 * - a program (`node --import tsx recipe.ts`) against the package's own bin, serving the mock
 *   over HTTP, with `COMMUNITY_SERVER_TOKEN` and `COMMUNITY_SERVER_BASE_URL` set as the Quick start
 *   asks, and `REDIS_URL` a real redis-server's; it must exit 0;
 * - a test file (`// name.test.ts` on its first line, as the recipe names it) under vitest; a
 *   module a test imports (`// member-card.ts`) is saved under its name;
 * - a program that runs until Ctrl-C is sent SIGINT once it has printed, and must end cleanly;
 * - the browser recipe is bundled with esbuild and opened in headless Chromium, msw's worker
 *   beside it;
 * - a component (a `tsx` block, or one written for a TanStack Query adapter: React, Vue…) runs
 *   only inside its framework's render, so it is type-checked, not run; the example dashboard,
 *   which does the same at length, runs in Chromium (test/docs/dashboard.test.ts);
 * - a Playwright test file (`// name.spec.ts`) is type-checked; the suite it is taken from runs in
 *   test/docs/playwright-suite.test.ts, and test/docs/examples.test.ts checks that the README's copy is its;
 * - a Python `unittest` file (the control API's recipe) runs with `python3` against the same bin,
 *   and is skipped, saying so, where there is no `python3`.
 * The project's other packages (ky, zod, msw, faker, Redis clients, OpenTelemetry's API, TanStack
 * Query and its React and Vue adapters, React's and Vue's types, vitest, tsx, TypeScript) are
 * this checkout's, linked: the same versions a user's install resolves.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from '../../examples/dashboard/server';
import { chromiumMissing, launchChromium } from './chromium';
import { startProcess } from '../mock/doors/cli/bin';
import { redisMissing, startRedis, type RedisServer } from '../redis/server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** The packages a fresh project of the recipes installs beside the SDK, linked from this checkout. */
const LINKED = [
  'ky',
  'zod',
  'msw',
  '@faker-js/faker',
  'ioredis',
  'redis',
  '@opentelemetry/api',
  '@tanstack/query-core',
  '@tanstack/react-query',
  '@tanstack/vue-query',
  'react',
  '@types/react',
  'vue',
  'vitest',
  'tsx',
  'typescript',
  '@types/node',
  '@playwright/test',
  '@modelcontextprotocol/sdk',
];

type Kind = 'program' | 'until-signal' | 'test' | 'playwright' | 'module' | 'browser' | 'component';

interface Recipe {
  /** The README heading it stands under. */
  heading: string;
  /** The file it is saved as: what its first line names, else `recipe-NN.ts` (`.tsx` for a `tsx` block). */
  file: string;
  code: string;
  kind: Kind;
}

/** A block that runs inside a framework's render: a TanStack Query adapter's hooks, or JSX. */
const COMPONENT = /from '@tanstack\/(react|vue|solid|svelte|angular)-query'/;

/** The README's TypeScript blocks (`ts` and `tsx`), each with the file it is saved as and how it runs. */
export function readmeRecipes(readme: string): Recipe[] {
  const headings = [...readme.matchAll(/^#+ (.*)$/gm)].map((match) => ({ at: match.index, text: match[1]! }));
  return [...readme.matchAll(/^```(tsx?)\n([\s\S]*?)^```$/gm)].map((match, index) => {
    const code = match[2]!;
    const named = /^\/\/ ([\w.-]+\.tsx?)\n/.exec(code)?.[1];
    const file = named ?? `recipe-${String(index).padStart(2, '0')}.${match[1]}`;
    const kind: Kind = file.endsWith('.test.ts')
      ? 'test'
      : file.endsWith('.spec.ts')
        ? 'playwright'
        : file.endsWith('.tsx') || COMPONENT.test(code)
          ? 'component'
          : named
            ? 'module'
            : /\bdocument\./.test(code)
              ? 'browser'
              : code.includes("process.once('SIGINT'")
                ? 'until-signal'
                : 'program';
    return { heading: headings.filter((heading) => heading.at < match.index).at(-1)?.text ?? '', file, code, kind };
  });
}

const readme = readFileSync(`${root}README.md`, 'utf8');
const recipes = readmeRecipes(readme);
/** The README's Python test files: run as saved, with the standard library alone. */
const pythonTests = [...readme.matchAll(/^```python\n([\s\S]*?)^```$/gm)]
  .map((match) => match[1]!)
  .filter((code) => /unittest\.TestCase/.test(code));
/** The control API's token the recipes' bin is started with (`--admin-token`). */
const ADMIN_TOKEN = 'readme-recipes-admin-token';

/** A directory like a fresh `npm init` project: the SDK installed from its tarball, the rest linked. */
async function freshProject(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-readme-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  const installed = join(dir, 'node_modules', 'community-server-sdk');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(dir, filename), '-C', installed, '--strip-components=1']);
  for (const name of LINKED) {
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name));
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'readme-recipes', private: true, type: 'module' }));
  // What `tsx` and `vitest` users compile with: modules as written, resolved like a bundler, with the DOM for the browser recipe
  // and React's JSX for the components.
  const compilerOptions = {
    target: 'es2022',
    module: 'preserve',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    jsx: 'react-jsx',
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, lib: ['es2024', 'dom'] } }));
  for (const recipe of recipes) writeFileSync(join(dir, recipe.file), recipe.code);
  return dir;
}

let dir: string;
let env: NodeJS.ProcessEnv;
let stopBin: () => void = () => {};
let redis: RedisServer | undefined;

beforeAll(async () => {
  dir = await freshProject();
  // The mock as a user of the package starts it, from the tarball's bin, its activity on for the watch recipe.
  const bin = startProcess(process.execPath, [
    join(dir, 'node_modules/community-server-sdk/dist/cli.js'),
    '--port',
    '0',
    '--activity',
    '200',
    '--admin-token',
    ADMIN_TOKEN,
  ]);
  stopBin = () => bin.child.kill('SIGTERM');
  const printed = await bin.ready;
  const url = /listening on (http:\/\/\S+)/.exec(printed)![1]!;
  const token = /^\s+main\s+(\S+)$/m.exec(printed)![1]!;
  if (!redisMissing()) redis = await startRedis();
  env = {
    ...process.env,
    COMMUNITY_SERVER_TOKEN: token,
    COMMUNITY_SERVER_BASE_URL: url,
    // What the parallel recipe's global setup (mock-server.ts) hands its test files.
    MOCK_URL: url,
    MOCK_ADMIN_TOKEN: ADMIN_TOKEN,
    REDIS_URL: redis?.url ?? 'redis://127.0.0.1:1',
  };
}, 120_000);

afterAll(async () => {
  stopBin();
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('reads every TypeScript block of the README, and knows how to run each', () => {
  expect(recipes.length).toBeGreaterThan(20);
  expect(new Set(recipes.map((recipe) => recipe.file)).size).toBe(recipes.length);
  // A module is there to be imported by a test recipe, or named as a test runner's setup (`globalSetup: ['./mock-server.ts']`).
  for (const module of recipes.filter((recipe) => recipe.kind === 'module')) {
    const name = module.file.replace(/\.ts$/, '');
    expect(
      recipes.some((recipe) => recipe.code.includes(`from './${name}'`)) || readme.includes(`'./${module.file}'`),
      `nothing imports ${module.file}`,
    ).toBe(true);
  }
});

it('type-checks every block as written, against the packed package', async () => {
  const result = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir }).then(
    () => '',
    (error: Error & { stdout?: string }) => error.stdout ?? String(error),
  );
  expect(result, 'README blocks must type-check as pasted into a fresh project').toBe('');
}, 120_000);

/** Runs `args` in the project; resolves with what it printed, or rejects with it and its exit code. */
function inProject(args: string[], { timeoutMs = 60_000, signalAfterOutput = false } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      // One Ctrl-C, as a user presses it: a second would find the recipe's `once` handler gone.
      if (signalAfterOutput && !signalled && stdout.includes('\n')) {
        signalled = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const runnable = (kind: Kind) =>
  recipes.filter((recipe) => recipe.kind === kind).map((recipe) => [recipe.heading, recipe.file, recipe] as const);
const needsRedis = (recipe: Recipe) => /from '(ioredis|redis)'/.test(recipe.code);

describe('programs run against the bin and exit 0', () => {
  it.each(runnable('program'))(
    '%s (%s)',
    async (_, __, recipe) => {
      if (needsRedis(recipe) && !redis) {
        if (process.env.CI) expect.fail(`redis-server is required in CI: ${redisMissing()}`);
        return;
      }
      const result = await inProject(['--import', 'tsx', recipe.file]);
      expect(result, `${recipe.file}:\n${result.stderr}`).toMatchObject({ code: 0 });
    },
    90_000,
  );
});

describe('a program that runs until Ctrl-C ends cleanly on SIGINT, having printed (and saved its cursor, if it keeps one)', () => {
  it.each(runnable('until-signal'))(
    '%s (%s)',
    async (_, __, recipe) => {
      const result = await inProject(['--import', 'tsx', recipe.file], { signalAfterOutput: true });
      expect(result, `${recipe.file}:\n${result.stderr}`).toMatchObject({ code: 0 });
      expect(result.stdout.trim().length).toBeGreaterThan(0);
      if (recipe.code.includes('logs-cursor.json')) expect(existsSync(join(dir, 'logs-cursor.json'))).toBe(true);
    },
    90_000,
  );
});

describe('issue 30 #2: the sharded-bot recipe, two shards started alike (no SHARD_ID) at once', () => {
  it('both run, neither refused its consumer name, and both end cleanly on SIGINT', async () => {
    const recipe = recipes.find((candidate) => candidate.heading === 'Watches shared by the fleet' && candidate.kind === 'until-signal');
    expect(recipe, 'the recipe of "Watches shared by the fleet"').toBeDefined();
    if (!redis) {
      if (process.env.CI) expect.fail(`redis-server is required in CI: ${redisMissing()}`);
      return;
    }
    const shards = await Promise.all([0, 1].map(() => inProject(['--import', 'tsx', recipe!.file], { signalAfterOutput: true })));
    for (const result of shards) {
      expect(result, `${recipe!.file}:\n${result.stderr}`).toMatchObject({ code: 0 });
      expect(result.stdout.trim().length).toBeGreaterThan(0);
    }
  }, 90_000);
});

describe('test recipes pass under vitest', () => {
  it.each(runnable('test'))(
    '%s (%s)',
    async (_, __, recipe) => {
      const result = await inProject([join(root, 'node_modules/vitest/vitest.mjs'), 'run', recipe.file, '--root', dir]);
      expect(result, `${recipe.file}:\n${result.stdout}\n${result.stderr}`).toMatchObject({ code: 0 });
      expect(result.stdout).toMatch(/Tests\s+.*\d+ passed/);
    },
    90_000,
  );
});

describe('the browser recipe, bundled, in headless Chromium', () => {
  it.each(runnable('browser'))(
    '%s (%s)',
    async (_, __, recipe) => {
      const missing = chromiumMissing();
      if (missing && process.env.CI) expect.fail(missing);
      if (missing) return;
      const site = join(dir, 'site');
      mkdirSync(site, { recursive: true });
      await build({
        entryPoints: [join(dir, recipe.file)],
        outfile: join(site, 'main.js'),
        bundle: true,
        format: 'esm',
        platform: 'browser',
        logLevel: 'silent',
      });
      copyFileSync(join(dir, 'node_modules/msw/lib/mockServiceWorker.js'), join(site, 'mockServiceWorker.js'));
      writeFileSync(join(site, 'index.html'), '<!doctype html><p id="members">loading</p><script type="module" src="./main.js"></script>');
      const server = await serveStatic(site);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(server.url);
        await page.waitForFunction(
          () => /^\d+ members, page 1 of \d+$/.test(document.querySelector('#members')?.textContent ?? ''),
          undefined,
          {
            timeout: 20_000,
          },
        );
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
        await server.close();
      }
    },
    90_000,
  );
});

/** Why Python recipes cannot run here, or `undefined` when `python3` is on the PATH. */
function pythonMissing(): string | undefined {
  const found = spawnSync('python3', ['--version']);
  return found.error || found.status !== 0 ? 'python3 is not installed: the Python recipe of the README was not run' : undefined;
}

describe('the Python unittest recipe passes against the bin', () => {
  it('the README has one', () => expect(pythonTests.length).toBeGreaterThan(0));

  it.each(pythonTests.map((code, index) => [index, code] as const))(
    'python unittest %i',
    async (index, code) => {
      const missing = pythonMissing();
      if (missing) {
        if (process.env.CI) expect.fail(missing);
        console.warn(missing);
        return;
      }
      const file = `mock_control_${index}_test.py`;
      writeFileSync(join(dir, file), code);
      const url = env.COMMUNITY_SERVER_BASE_URL!;
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn('python3', [file], {
          cwd: dir,
          env: { ...env, BASE_URL: url, TOKEN: env.COMMUNITY_SERVER_TOKEN, ADMIN_TOKEN },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.once('exit', (exitCode) => resolve({ code: exitCode, stderr }));
      });
      expect(result, result.stderr).toMatchObject({ code: 0 });
      expect(result.stderr).toMatch(/^Ran [1-9]\d* tests? in/m);
      expect(result.stderr).toMatch(/^OK$/m);
    },
    60_000,
  );
});
