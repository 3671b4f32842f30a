/**
 * Examples run as users run them, in a fresh process. The quick start imports the built package
 * by name and talks to the mock over real HTTP; the demo is `npm run demo` exactly, with the
 * global `fetch` made to throw so any network use would fail it. The README's quick start must
 * be the quick-start example, character for character, so the README runs as written.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const mock = createMockApi({ seed: 1 });
let server: MockHttpServer;

beforeAll(async () => {
  server = await startMockHttpServer({ mock });
});
afterAll(() => server.close());

/** What the quick start prints against the seeded mock. */
function quickStartOutput(): string {
  const members = mock.store.main.members.all();
  const day = (ts: number) => new Date(ts * 1000).toISOString().slice(0, 10);
  return [
    `Server: ${mock.store.main.info.name}`,
    ...members.slice(0, 3).map((m) => `- ${m.id}, joined ${day(m.createdAt)}`),
    `${members.length} members`,
    'Not found (404 member_not_found): member "no-such-member" not found',
    '',
  ].join('\n');
}
const quickStartEnv = () => ({ ...process.env, COMMUNITY_SERVER_TOKEN: mock.tokens.main, COMMUNITY_SERVER_BASE_URL: server.url });

it('the quick start runs against the mock over HTTP and prints what it promises', async () => {
  const { stdout } = await run(`${root}/node_modules/.bin/tsx`, ['examples/quickstart.ts'], { cwd: root, env: quickStartEnv() });
  expect(stdout).toBe(quickStartOutput());
});

describe('issue 10 hardening: README — the quick start in a fresh `npm init -y` project (CommonJS)', () => {
  /** A project as `npm init -y` makes it (plus `fields`), the built package installed, the quick start saved as `file`. */
  const project = (name: string, fields: Record<string, string>, file: string) => {
    const dir = `${root}/test-output/fresh-project/${name}`;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(`${dir}/node_modules`, { recursive: true });
    writeFileSync(
      `${dir}/package.json`,
      JSON.stringify(
        {
          name,
          version: '1.0.0',
          main: 'index.js',
          scripts: { test: 'echo "Error: no test specified" && exit 1' },
          license: 'ISC',
          ...fields,
        },
        null,
        2,
      ),
    );
    symlinkSync(root, `${dir}/node_modules/community-server-sdk`, 'dir'); // the built package, by its name
    copyFileSync(`${root}/examples/quickstart.ts`, `${dir}/${file}`);
    return (args: string[]) => run(`${root}/node_modules/.bin/tsx`, args, { cwd: dir, env: quickStartEnv() });
  };

  it('saved as quickstart.mts, as the README says, it runs', async () => {
    expect(readFileSync(`${root}/README.md`, 'utf8')).toContain('save this as\n`quickstart.mts` and run `npx tsx quickstart.mts`');
    const { stdout } = await project('mts', {}, 'quickstart.mts')(['quickstart.mts']);
    expect(stdout).toBe(quickStartOutput());
  });

  it('with "type": "module" in package.json, quickstart.ts runs', async () => {
    const { stdout } = await project('type-module', { type: 'module' }, 'quickstart.ts')(['quickstart.ts']);
    expect(stdout).toBe(quickStartOutput());
  });

  it('as a .ts file in the CommonJS project it fails on top-level await, as the README warns', async () => {
    const failure = await project(
      'cjs-ts',
      {},
      'quickstart.ts',
    )(['quickstart.ts']).then(
      () => null,
      (error: { stderr: string }) => error.stderr,
    );
    expect(failure).toMatch(/Top-level await is currently not supported with the "cjs" output format/);
  });
});

it('npm run demo walks every data group in-process, with no network', async () => {
  const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
  expect(pkg.scripts.demo).toBe('tsx --tsconfig tsconfig.test.json examples/demo.ts');
  // Encoded: NODE_OPTIONS splits on spaces.
  const noNetwork = `data:text/javascript,${encodeURIComponent("globalThis.fetch = () => { throw new Error('the demo used the network'); };")}`;
  const env = { ...process.env, NODE_OPTIONS: `--import=${noNetwork}` };
  const { stdout } = await run(`${root}/node_modules/.bin/tsx`, ['--tsconfig', 'tsconfig.test.json', 'examples/demo.ts'], {
    cwd: root,
    env,
  });
  const main = mock.store.main;
  expect(stdout).toContain(`${main.info.name} — the offline mock, seed 1`);
  for (const label of [
    'members',
    'roles',
    'applications',
    'audit log',
    'moderation logs',
    'CAD calls',
    'CAD units',
    'CAD records',
    'departments',
    'shifts',
    'LOAs',
    'join requests',
    'verification',
    'tokens',
    'errors',
    'health',
  ]) {
    expect(stdout).toMatch(new RegExp(`^${label} +\\S`, 'm'));
  }
  expect(stdout).toContain(`members           ${main.members.size} `);
  expect(stdout).toContain(`moderation logs   ${main.logs.size};`);
  for (const department of main.departments.all()) {
    expect(stdout).toContain(`  ${department.name}: ${main.departmentData.get(department.id)!.members.size} members`);
  }
  expect(stdout).toContain('deactivated; the next call got 401: invalid or expired token');
  // Issue 30 (hardening 3), item 14: one of a thing is singular ("has 1 note"), whatever the count.
  expect(stdout).not.toMatch(/(?<![\d.])1 [a-z]+s\b/i);
  const [, notes, noun] = /" has (\d+) (notes?)$/m.exec(stdout)!;
  expect(noun).toBe(notes === '1' ? 'note' : 'notes');
  expect(stdout).toContain('404 member_not_found: member "no-such-member" not found');
  // The live part: a bot watching three lists while the mock's activity runs, then stopping.
  const reactions = stdout.split('\n').filter((line) => /^ {2}(moderation log|join request|application) {2,}\S.* → /.test(line));
  expect(reactions).toHaveLength(9);
  expect(stdout).toContain('9 reactions, then the bot stopped its watches');
});

it('the bot example briefs from the mock over real HTTP when no server is configured', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, COMMUNITY_SERVER_BASE_URL: '', COMMUNITY_SERVER_TOKEN: '' };
  const { stdout } = await run('npm', ['run', '--silent', 'bot'], { cwd: root, env });
  // The briefing, worked out from the seeded store the way the bot reads the API.
  const main = mock.store.main;
  const cad = main.cad!;
  const open = cad.calls.all().filter((call) => call.closedAt == null);
  const calls = open.slice(0, 3).map((call) => {
    const unit = typeof call.primaryUnit === 'number' ? cad.units.get(call.primaryUnit) : undefined;
    return `- ${call.title} (priority ${call.priority ?? '?'}, ${unit ? `unit ${unit.number}` : 'no unit yet'})`;
  });
  const leave = main.departments.all().map((department) => {
    const inside = main.departmentData.get(department.id)!;
    const away = inside.loas.all().filter((l) => l.startedAt != null && l.endedAt == null && l.cancelledAt == null && l.expiredAt == null);
    return `- ${department.name}: ${away.length} of ${inside.members.size}`;
  });
  const logs = main.logs.all();
  const monthStart = logs[0]!.createdAt - 30 * 24 * 3600;
  const month = logs.slice(
    0,
    logs.findIndex((log) => log.createdAt < monthStart),
  );
  const byStaff = new Map<string, number>();
  for (const log of month) byStaff.set(log.createdBy, (byStaff.get(log.createdBy) ?? 0) + 1);
  const [busiest, count] = [...byStaff].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]!;
  expect(stdout).toMatch(/^\(no server configured: briefing from the offline mock at http:\/\/127\.0\.0\.1:\d+\)\n/);
  expect(stdout.split('\n').slice(1).join('\n')).toBe(
    [
      `Briefing for ${main.info.name}`,
      `Open CAD calls: ${open.length}`,
      ...calls,
      'On leave:',
      ...leave,
      `Moderation since ${new Date(monthStart * 1000).toISOString().slice(0, 10)}: ${month.length} actions by ${byStaff.size} staff; busiest ${String(main.members.get(busiest)!.username)} (${count})`,
      '',
    ].join('\n'),
  );
});

it('the testing example passes under jest too (against the built package)', async () => {
  const { stderr } = await run('npm', ['run', '--silent', 'test:jest'], { cwd: root });
  expect(stderr).toMatch(/Tests:\s+2 passed, 2 total/);
}, 60_000);

describe('the parallel example: test files at once on one mock server, each on a session of its own (against the built package)', () => {
  it('passes under vitest, whose globalSetup starts the server its files share', async () => {
    // --no-cache: vitest would keep its timings in a node_modules of the example's own.
    const { stdout } = await run(process.execPath, [`${root}/node_modules/vitest/vitest.mjs`, 'run', '--no-cache'], {
      cwd: `${root}/examples/testing/parallel`,
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(stdout).toMatch(/Test Files +2 passed \(2\)/);
    expect(stdout).toMatch(/Tests +3 passed \(3\)/);
  }, 60_000);

  it('passes under Jest, whose globalSetup starts the server its files share', async () => {
    const { stderr } = await run('npm', ['run', '--silent', 'test:jest:parallel'], { cwd: root });
    expect(stderr).toMatch(/Test Suites:\s+2 passed, 2 total/);
    expect(stderr).toMatch(/Tests:\s+2 passed, 2 total/);
  }, 60_000);
});

it("the README's quick start is the quick-start example", () => {
  const readme = readFileSync(`${root}/README.md`, 'utf8');
  const example = readFileSync(`${root}/examples/quickstart.ts`, 'utf8');
  expect(readme).toContain('```ts\n' + example + '```');
});

it("the README's Playwright and parallel recipes are the examples' files: whole, and the spec's tests as the suite has them", () => {
  const readme = readFileSync(`${root}/README.md`, 'utf8');
  const section = readme.slice(readme.indexOf('### Driving the mock from another process'), readme.indexOf('#### From Python'));
  const blocks = [...section.matchAll(/^```ts\n\/\/ ([\w.-]+)\n([\s\S]*?)^```$/gm)].map(([, file, body]) => ({ file: file!, body: body! }));
  const shown = (dir: string) =>
    blocks.filter(({ file }) => existsSync(`${root}/examples/testing/${dir}/${file}`)).map((block) => ({ ...block, dir }));
  const files = [...shown('playwright'), ...shown('parallel')];
  expect(files.map(({ file }) => file)).toEqual([
    'global-setup.ts',
    'fixtures.ts',
    'dashboard.spec.ts',
    'mock-server.ts',
    'mock-session.ts',
    'members-outage.test.ts',
  ]);
  for (const { dir, file, body } of files) {
    const example = readFileSync(`${root}/examples/testing/${dir}/${file}`, 'utf8');
    if (file.endsWith('.spec.ts')) {
      // Some of the suite's tests: each piece between blank lines (imports, a constant, a test) as the suite has it.
      for (const piece of body.split('\n\n')) expect(example, `${file} in the README`).toContain(piece.trim());
    } else {
      expect(`// ${file}\n${body}`, `${file} in the README`).toBe(example);
    }
  }
});
