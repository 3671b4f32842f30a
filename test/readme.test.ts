/**
 * Every code block of the README is checked, so the README runs as written:
 * - `ts` blocks are type-checked against the sources, each as its own module. Names a snippet
 *   takes as given (`client`, `id`…) are declared once, below; a relative import (`./member-card`)
 *   resolves to the example it quotes.
 * - `sh` blocks: `curl` lines run against the mock over HTTP; every other line must name an npm
 *   script, the package's bin, a file of the repository, or an install of a real package.
 * - `python` blocks run against the same server.
 * A block in any other language fails the test until this file learns to check it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
  name: string;
};
const blocks = [...readFileSync(`${root}/README.md`, 'utf8').matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, lang, code], index) => ({
  lang: lang!,
  code: code!,
  index,
}));
const ofLang = (lang: string) => blocks.filter((b) => b.lang === lang);

/** What README snippets take as given; each block is a module, so its own declarations win. */
const GIVEN = `
declare const client: import('community-server-sdk').CommunityServerClient;
declare const CommunityServerClient: typeof import('community-server-sdk').CommunityServerClient;
declare const id: string;
declare const text: string;
declare const token: string | undefined;
declare const baseUrl: string;
declare const timeout: number;
declare const maxRetries: number;
declare const validation: import('community-server-sdk').ValidationMode;
declare const rateLimit: 'wait' | 'off';
declare const logLevel: import('community-server-sdk').LogLevel;
declare const logger: import('community-server-sdk').Logger;
`;

it('has only blocks this test knows how to check', () => {
  expect(blocks.length).toBeGreaterThan(10);
  expect(blocks.filter((b) => !['ts', 'sh', 'python'].includes(b.lang)).map((b) => `block ${b.index}: "${b.lang}"`)).toEqual([]);
});

it('type-checks every ts block', async () => {
  const dir = `${root}/test-output/readme`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/given.d.ts`, GIVEN);
  for (const block of ofLang('ts')) {
    writeFileSync(`${dir}/block-${String(block.index).padStart(2, '0')}.ts`, `${block.code}\nexport {};\n`);
    for (const [, name] of block.code.matchAll(/from '\.\/([\w-]+)'/g)) {
      const example = ['examples', 'examples/testing', 'examples/dashboard']
        .map((d) => `${d}/${name}.ts`)
        .find((f) => existsSync(`${root}/${f}`));
      expect(example, `README imports ./${name}, which no example has`).toBeDefined();
      writeFileSync(`${dir}/${name}.ts`, `export * from '../../${example!.replace(/\.ts$/, '')}';\n`);
    }
  }
  writeFileSync(
    `${dir}/tsconfig.json`,
    JSON.stringify({ extends: '../../tsconfig.test.json', compilerOptions: { noEmit: true }, include: ['*.ts'] }),
  );
  const result = await run(`${root}/node_modules/.bin/tsc`, ['-p', `${dir}/tsconfig.json`], { cwd: root }).then(
    () => '',
    (error: Error & { stdout?: string }) => error.stdout ?? String(error),
  );
  expect(result, 'README ts blocks must type-check (files under test-output/readme/)').toBe('');
}, 120_000);

describe('sh and python blocks', () => {
  const mock = createMockApi({ seed: 1 });
  let server: MockHttpServer;
  beforeAll(async () => {
    server = await startMockHttpServer({ mock });
  });
  afterAll(() => server.close());

  const commands = ofLang('sh')
    .flatMap((b) => b.code.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#'));

  it.each(commands.filter((c) => !c.startsWith('curl ')))('%s', (command) => {
    for (const step of command.split('&&').map((s) => s.trim())) {
      const [tool, ...args] = step.split(/\s+/);
      if (tool === 'npm' && args[0] === 'run') expect(pkg.scripts, step).toHaveProperty([args[1]!]);
      else if (tool === 'npm' && args[0] === 'test') expect(pkg.scripts).toHaveProperty(['test']);
      else if (tool === 'npm' && args[0] === 'install') {
        // A bare install, the package itself, or its (optional) peer dependencies.
        const known = [pkg.name, 'msw', '@faker-js/faker'];
        expect(
          args.slice(1).filter((a) => !a.startsWith('-') && !known.includes(a)),
          step,
        ).toEqual([]);
      } else if (tool === 'npx' && args[0] === 'tsx') expect(existsSync(`${root}/${args[1]}`), step).toBe(true);
      else if (tool === 'npx' && args[0] === '-p') {
        // `npx -p community-server-sdk community-server-mock`: the bin, from any directory.
        expect(args[1], step).toBe(pkg.name);
        expect(pkg.bin, step).toHaveProperty([args[2]!]);
      } else if (tool === 'npx') expect(pkg.bin, step).toHaveProperty([args[0]!]);
      else expect.unreachable(`the README test does not know how to check: ${step}`);
    }
  });

  it.each(commands.filter((c) => c.startsWith('curl ')))('%s', async (command) => {
    const line = command.replaceAll('http://127.0.0.1:4010', server.url);
    const { stdout } = await run('bash', ['-c', `set -o pipefail; ${line} --fail-with-body`], {
      env: { ...process.env, TOKEN: mock.tokens.main },
    });
    const body = JSON.parse(stdout) as { data?: unknown[]; status?: string; error?: unknown };
    expect(body.error, stdout).toBeUndefined();
    expect(body.data ?? body.status, stdout).toBeTruthy();
  });

  it.each(ofLang('python').map((b) => [b.index, b.code] as const))('python block %i', async (_, code) => {
    const { stdout } = await run('python3', ['-c', code], { env: { ...process.env, BASE_URL: server.url, TOKEN: mock.tokens.main } });
    const members = mock.store.main.members;
    expect(stdout).toBe(`${members.size} members over ${Math.ceil(members.size / 100)} pages; first: ${members.all()[0]!.id}\n`);
  });
});
