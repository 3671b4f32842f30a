/**
 * Every code block of the README is checked, so the README runs as written:
 * - `ts` and `tsx` blocks are type-checked (and, but for components, run) as a user pastes them,
 *   in a fresh project made from the packed tarball: test/docs/readme-recipes.test.ts.
 * - `sh` blocks: `curl` lines run against the mock over HTTP, and so do the package's command's
 *   lines (the built bin in place of `npx -p community-server-sdk community-server`, in a home of
 *   their own), but for `watch` and `mcp`, which run until stopped; every other line must name an
 *   npm script, the package's bin, a file of the repository, an install of a real package, or an
 *   export of a variable the package reads.
 * - `python` blocks run against the same server; a `unittest` file (the control API's recipe)
 *   runs in test/docs/readme-recipes.test.ts, against the bin of the packed tarball.
 * - `json` blocks are MCP clients' configurations: each server they name is started as the
 *   client would (the built bin, with the configuration's arguments and the env it sets, the
 *   token and base URL a mock's) and answers the SDK's own client.
 * A block in any other language fails the test until this file learns to check it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createMockApi } from 'community-server-sdk/mock';
import { startMockHttpServer, type MockHttpServer } from 'community-server-sdk/mock/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
  name: string;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const blocks = [...readFileSync(`${root}/README.md`, 'utf8').matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, lang, code], index) => ({
  lang: lang!,
  code: code!,
  index,
}));
const ofLang = (lang: string) => blocks.filter((b) => b.lang === lang);

/** The mock over HTTP that the blocks run against (curl lines, Python, the MCP configurations). */
const mock = createMockApi({ seed: 1 });
let server: MockHttpServer;
beforeAll(async () => {
  server = await startMockHttpServer({ mock });
});
afterAll(() => server.close());

it('has only blocks this test knows how to check', () => {
  expect(blocks.length).toBeGreaterThan(10);
  expect(blocks.filter((b) => !['ts', 'tsx', 'sh', 'python', 'json'].includes(b.lang)).map((b) => `block ${b.index}: "${b.lang}"`)).toEqual(
    [],
  );
});

describe('sh and python blocks', () => {
  const commands = ofLang('sh')
    .flatMap((b) => b.code.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#'));

  /** The package's command as the README writes it. */
  const COMMAND = 'npx -p community-server-sdk community-server';
  /** Whether `line` runs the command to an end of its own (`watch` and `mcp` run until stopped). */
  const runsToEnd = (line: string) => line.includes(`${COMMAND} `) && !/^(watch|mcp)\b/.test(line.split(`${COMMAND} `)[1]!);

  /** One command of a line: `tool` and its `args`, from `step` (what a failure names). */
  function checkCommand(tool: string | undefined, args: string[], step: string): void {
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
    else if (tool === 'claude' && args[0] === 'mcp' && args[1] === 'add') {
      // Claude Code's `claude mcp add NAME [--scope S] [--env KEY=VALUE]… -- COMMAND…`: the env the
      // command reads, and the command itself, checked as any other.
      const end = args.indexOf('--');
      expect(end, step).toBeGreaterThan(2);
      const envs = args.slice(2, end).filter((_, i, all) => all[i - 1] === '--env');
      expect(envs.map((pair) => pair.split('=')[0]).sort(), step).toEqual(['COMMUNITY_SERVER_BASE_URL', 'COMMUNITY_SERVER_TOKEN']);
      checkCommand(args[end + 1], args.slice(end + 2), step);
    } else if (tool === 'python3') expect(existsSync(`${root}/${args[0]}`), step).toBe(true);
    else if (tool === 'export') expect(args[0], step).toMatch(/^COMMUNITY_SERVER_[A-Z_]+=\S+$/);
    else expect.unreachable(`the README test does not know how to check: ${step}`);
  }

  it.each(commands.filter((c) => !c.startsWith('curl ') && !runsToEnd(c)))('%s', (command) => {
    for (const step of command.split('&&').map((s) => s.trim())) {
      const [tool, ...args] = step.split(/\s+/);
      checkCommand(tool, args, step);
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

  describe("the command's lines, run", () => {
    // A home of their own: `~/.community-server-token` holds the mock's token, and the files
    // the lines write land there.
    let home: string;
    beforeAll(() => {
      home = mkdtempSync(join(tmpdir(), 'readme-command-'));
      writeFileSync(join(home, '.community-server-token'), `${mock.tokens.main}\n`);
    });
    afterAll(() => rmSync(home, { recursive: true, force: true }));

    it.each(commands.filter(runsToEnd))('%s', async (command) => {
      const line = command.replaceAll(COMMAND, `${process.execPath} ${root}/dist/community-server.js`);
      // A completion script that loaded has registered itself; say so on stdout.
      const script = line.startsWith('source ') ? `${line} && complete -p community-server` : line;
      const { stdout, stderr } = await run('bash', ['-c', `set -o pipefail; ${script}`], {
        cwd: home,
        env: { PATH: process.env.PATH, HOME: home, COMMUNITY_SERVER_BASE_URL: server.url, COMMUNITY_SERVER_TOKEN: mock.tokens.main },
      });
      const written = /> (\S+)$/.exec(line)?.[1];
      expect(written ? readFileSync(join(home, written), 'utf8') : stdout, line).toMatch(/\S/);
      expect(`${stdout}${stderr}`).not.toContain(mock.tokens.main);
    });
  });

  const scripts = ofLang('python').filter((b) => !/unittest\.TestCase/.test(b.code));
  it.each(scripts.map((b) => [b.index, b.code] as const))('python block %i', async (_, code) => {
    const { stdout } = await run('python3', ['-c', code], { env: { ...process.env, BASE_URL: server.url, TOKEN: mock.tokens.main } });
    const members = mock.store.main.members;
    expect(stdout).toBe(`${members.size} members over ${Math.ceil(members.size / 100)} pages; first: ${members.all()[0]!.id}\n`);
  });
});

describe('links, as the README is read on npm', () => {
  const readme = readFileSync(`${root}/README.md`, 'utf8');
  const manifest = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
    homepage?: string;
    repository?: { url?: string };
    bugs?: { url?: string };
  };
  const repository = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(manifest.repository?.url ?? '')?.[1];
  const links = [...readme.matchAll(/\[[^\]]+\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
  /** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
  const anchors = new Set(
    [...readme.matchAll(/^#+ (.*)$/gm)].map((match) =>
      match[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );

  it('package.json names the repository, its home page and where to report bugs', () => {
    expect(repository).toBeDefined();
    expect(manifest.homepage).toBe(`${repository}#readme`);
    expect(manifest.bugs?.url).toBe(`${repository}/issues`);
  });

  it('every link is absolute: on npm, a relative one leads nowhere', () => {
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((link) => !link.startsWith('https://'))).toEqual([]);
  });

  it('each link into the repository names a file, a folder or a heading that exists', () => {
    for (const link of links.filter((target) => target.startsWith(repository!))) {
      const rest = link.slice(repository!.length);
      const anchor = /^#(.+)$/.exec(rest)?.[1];
      if (anchor !== undefined) {
        expect(anchors, link).toContain(anchor);
        continue;
      }
      const [, kind, path] = /^\/(blob|tree)\/main\/(.+)$/.exec(rest) ?? [];
      expect(path, `${link}: not a blob/tree link on main`).toBeDefined();
      expect(existsSync(`${root}/${path}`), link).toBe(true);
      expect(kind === 'tree', `${link}: a folder is a tree link, a file a blob link`).toBe(statSync(`${root}/${path}`).isDirectory());
    }
  });
});

/** The ratio bench/RESULTS.md records on the row that starts with `row`: median and interquartile range, as printed. */
function ratio(row: string): { median: string; low: string; high: string } {
  const line = readFileSync(`${root}/bench/RESULTS.md`, 'utf8')
    .split('\n')
    .find((text) => text.startsWith(`| ${row}`));
  const found = line && /\| (\d\.\d\d)× \((\d\.\d\d)–(\d\.\d\d)\) \|/.exec(line);
  if (!found) throw new Error(`bench/RESULTS.md has no ratio for "${row}"`);
  return { median: found[1]!, low: found[2]!, high: found[3]! };
}

describe('issue 23 #21: the README gives the fleet-fairness figure of the last bench run, and one of it', () => {
  it('every fairness figure of the README is the one bench/RESULTS.md records', () => {
    const readme = readFileSync(`${root}/README.md`, 'utf8').replace(/\s+/g, ' ');
    const client = ratio('fairness: 10 loops on one client, limit');
    const fleet = ratio('fairness: 10 loops in a fleet of 4 processes via Redis (3, 3, 2, 2), limit');
    // The prose: one client, then the fleet with its range.
    expect(readme).toContain(`10 loops on one client under one limit: the most served got ${client.median}× the least`);
    expect(readme).toContain(`the most served got ${fleet.median}× the least, interquartile range ${fleet.low}–${fleet.high}×`);
    // The Performance table.
    expect(readme).toContain(`${client.median}× · ${fleet.median}× (interquartile range ${fleet.low}–${fleet.high}×)`);
    // And no other figure of it anywhere: the 1.33× of before, or any "most served got" but these.
    const told = [...readme.matchAll(/the most served got (\d\.\d\d)×/g)].map(([, figure]) => figure);
    expect(told.sort()).toEqual([client.median, fleet.median].sort());
  });
});

describe("issue 32: the README's figure for the command's --all walk is the one bench/RESULTS.md records", () => {
  it('From a shell', () => {
    const readme = readFileSync(`${root}/README.md`, 'utf8').replace(/\s+/g, ' ');
    const { median } = ratio('`community-server members list --all --output jsonl` over 10,000 members');
    expect(readme).toContain(`Over 10,000 members it takes the time of the SDK's own \`for await\` (${median}×,`);
  });
});

describe("issue 30: the README's Redis recipes agree with each other and with package.json", () => {
  it("#10: every rate-limit store of the README and of the redis entry's examples counts one budget: one prefix", () => {
    const sources = [
      `${root}/README.md`,
      `${root}/src/redis.ts`,
      ...readdirSync(`${root}/src/redis`, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => `${root}/src/redis/${file}`),
    ];
    const prefixes = sources.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const calls = [...text.matchAll(/redisRateLimitStore\((redis(?:, \{[^}]*\})?)\)/g)].map(([, args]) => args!);
      const options = [...text.matchAll(/const \w+: RedisRateLimitStoreOptions = (\{[^}]*\})/g)].map(([, args]) => args!);
      return [...calls, ...options].map((args) => `${file.slice(root.length)}: ${/prefix: '([^']*)'/.exec(args)?.[1] ?? '(the default)'}`);
    });
    expect(prefixes.length).toBeGreaterThan(6);
    expect(prefixes.filter((found) => !found.endsWith(': my-bot:budget:'))).toEqual([]);
  });

  it('#11: the Redis clients the peer ranges admit are the majors the tests install, and the README asks for the same node-redis', () => {
    /** The majors a range of `^x.y.z` alternatives admits, each with its floor. */
    const floors = (range: string) =>
      range.split('||').map((part) => {
        const found = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(part.trim());
        if (!found) throw new Error(`"${range}": this test reads ranges of ^x.y.z alternatives only; teach it this one`);
        return { major: Number(found[1]), floor: `${found[1]}.${found[2]}` };
      });
    for (const name of ['ioredis', 'redis']) {
      const admitted = floors(pkg.peerDependencies[name]!);
      // What the tests run: the package itself, and any npm alias of it (`"redis-v5": "npm:redis@5.x.y"`).
      const installed = Object.entries(pkg.devDependencies)
        .filter(([dependency, version]) => dependency === name || version.startsWith(`npm:${name}@`))
        .map(([, version]) => version.replace(`npm:${name}@`, ''));
      expect(
        installed.every((version) => /^\d+\.\d+\.\d+$/.test(version)),
        `${name}: exact pins`,
      ).toBe(true);
      const tested = installed.map((version) => Number(version.split('.')[0]));
      expect([...new Set(tested)].sort(), `${name}: majors tested`).toEqual(admitted.map(({ major }) => major).sort());
      for (const version of installed) {
        const [major, minor] = version.split('.').map(Number);
        const { floor } = admitted.find((range) => range.major === major)!;
        expect(minor! >= Number(floor.split('.')[1]), `${name}@${version} inside ^${floor}`).toBe(true);
      }
      const lock = JSON.parse(readFileSync(`${root}/node_modules/${name}/package.json`, 'utf8')) as { version: string };
      expect(installed, `${name}: the version installed is the one pinned`).toContain(lock.version);
    }
    const readme = readFileSync(`${root}/README.md`, 'utf8').replace(/\s+/g, ' ');
    const asked = [...readme.matchAll(/node-redis\)? (\d+\.\d+) or later/g)].map(([, version]) => version);
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked)).toEqual(new Set([floors(pkg.peerDependencies.redis!)[0]!.floor]));
    expect(readme).toContain(`the SDK's peer range is \`${pkg.peerDependencies.redis}\``);
  });
});

describe('json blocks: MCP clients’ configurations', () => {
  interface Configured {
    type?: string;
    command: string;
    args: string[];
    env: Record<string, string>;
  }
  const configurations = ofLang('json').map(
    (b) =>
      JSON.parse(b.code) as {
        mcpServers?: Record<string, Configured>;
        servers?: Record<string, Configured>;
        inputs?: { id: string; password?: boolean }[];
      },
  );

  it('there is one for each client the README names', () => {
    expect(configurations.map((c) => Object.keys(c.mcpServers ?? c.servers ?? {}))).toEqual([['community-server'], ['community-server']]);
  });

  it.each(configurations.map((c, i) => [i, c] as const))(
    'configuration %i starts the package’s bin, which serves its tools',
    async (_, configuration) => {
      const [configured] = Object.values(configuration.mcpServers ?? configuration.servers ?? {});
      expect(configured!.command).toBe('npx');
      expect(configured!.args.slice(0, 3)).toEqual(['-p', pkg.name, 'community-server']);
      expect(pkg.bin).toHaveProperty(['community-server']);
      expect(Object.keys(configured!.env).sort()).toEqual(['COMMUNITY_SERVER_BASE_URL', 'COMMUNITY_SERVER_TOKEN']);
      // A VS Code input it names is declared, as a password: the token is asked for, never kept in the file.
      for (const value of Object.values(configured!.env)) {
        const input = /^\$\{input:([\w-]+)\}$/.exec(value)?.[1];
        if (input !== undefined) expect(configuration.inputs?.find(({ id }) => id === input)).toMatchObject({ password: true });
      }
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [`${root}/${pkg.bin['community-server']!}`, ...configured!.args.slice(3)],
        env: { PATH: process.env.PATH!, COMMUNITY_SERVER_TOKEN: mock.tokens.main, COMMUNITY_SERVER_BASE_URL: server.url },
        stderr: 'ignore',
      });
      const client = new Client({ name: 'readme', version: '1.0.0' });
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        const result = await client.callTool({ name: 'members_list', arguments: { page_size: 2 } });
        expect(result.isError, JSON.stringify(result)).toBeFalsy();
      } finally {
        await client.close();
      }
    },
  );
});
