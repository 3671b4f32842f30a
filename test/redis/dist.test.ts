/**
 * The built `community-server-sdk/redis` entry imports neither ioredis nor node-redis (optional
 * peers): a fresh Node process loads it, in ESM and in CommonJS, from a folder where neither is
 * installed, and runs the store on a client-shaped object.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compactLua, compactScriptModule } from '../../scripts/compact-lua';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
let dir: string;

beforeAll(() => {
  if (!existsSync(`${root}/dist/redis.cjs`)) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  // A project with the package and its own dependencies, but no Redis client library.
  dir = mkdtempSync(join(tmpdir(), 'sdk-redis-dist-'));
  const installed = join(dir, 'node_modules', 'community-server-sdk');
  mkdirSync(installed, { recursive: true });
  cpSync(`${root}/dist`, `${installed}/dist`, { recursive: true });
  cpSync(`${root}/package.json`, `${installed}/package.json`);
  for (const dependency of ['ky', 'zod']) symlinkSync(`${root}/node_modules/${dependency}`, join(dir, 'node_modules', dependency));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// An ioredis-shaped double: EVALSHA first answers NOSCRIPT, as a fresh Redis does; EVAL runs.
const script = `
  const calls = [];
  const redis = {
    evalsha: async (...args) => { calls.push('evalsha'); throw new Error('NOSCRIPT No matching script'); },
    eval: async (...args) => { calls.push(['eval', ...args.slice(1, 7)].join(' ')); return 0; },
  };
  const store = entry.redisRateLimitStore(redis, { prefix: 'p:' });
  const go = await store.spend('k', 'ticket-1');
  console.log(JSON.stringify({ go, calls, resolvable: ['ioredis', 'redis'].filter((name) => { try { require.resolve(name); return true; } catch { return false; } }) }));
`;

it.each([
  [
    'ESM (import)',
    '--input-type=module',
    `import { createRequire } from 'node:module'; const require = createRequire(process.cwd() + '/'); const entry = await import('community-server-sdk/redis');`,
  ],
  ['CommonJS (require)', '--input-type=commonjs', `(async () => { const entry = require('community-server-sdk/redis');`],
])(
  '%s loads without ioredis or redis installed, and runs the script with its four keys (the window, its leases, its queue, its waiting deadlines; one Cluster slot)',
  async (_, inputType, load) => {
    const source = inputType.endsWith('commonjs')
      ? `${load} ${script} })().catch((e) => { console.error(e); process.exit(1); });`
      : `${load} ${script}`;
    const { stdout } = await run(process.execPath, [inputType, '-e', source], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({
      go: 0,
      calls: ['evalsha', 'eval 4 p:{k} p:{k}:leases p:{k}:queue p:{k}:waiting spend'],
      resolvable: [],
    });
  },
);

it('redisCacheStore from the built entry (ESM) claims a key with its three keys, all of one token scope (one Cluster slot)', async () => {
  const source = `
    const entry = await import('community-server-sdk/redis');
    const calls = [];
    const redis = {
      evalsha: async () => { throw new Error('NOSCRIPT No matching script'); },
      eval: async (...args) => { calls.push(args.slice(1, 6).join(' ')); return ['claimed']; },
    };
    const store = entry.redisCacheStore(redis, { prefix: 'p:' });
    const claimed = await store.claim('0a1b:members.get:/api/v1/server/members/7', 1000);
    console.log(JSON.stringify({ claimed: claimed ?? null, calls }));
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', source], { cwd: dir });
  expect(JSON.parse(stdout)).toEqual({
    claimed: null,
    calls: ['3 p:{0a1b}:gen p:{0a1b}:e:members.get:/api/v1/server/members/7 p:{0a1b}:c:members.get:/api/v1/server/members/7 claim'],
  });
});

it('the built entry names neither library', () => {
  for (const file of ['redis.js', 'redis.cjs']) {
    expect(readFileSync(`${root}/dist/${file}`, 'utf8')).not.toMatch(/["'](ioredis|redis|@redis\/client)["']/);
  }
});

it("carries each Lua script compacted (no line indented, none a comment alone): the source's script, and nothing else changed", () => {
  const built = readFileSync(`${root}/dist/redis.js`, 'utf8');
  for (const file of ['src/redis/script.ts', 'src/redis/cache-script.ts', 'src/redis/fleet/script.ts']) {
    const source = readFileSync(`${root}/${file}`, 'utf8');
    const lua = /`\n(local [\s\S]*?)\n`/.exec(compactScriptModule(source, file))![1]!;
    expect(
      lua.split('\n').filter((line) => /^\s|^--/.test(line)),
      file,
    ).toEqual([]);
    expect(built, file).toContain(lua);
    // The source's script, line for line, less its blanks and comments.
    const original = /`\n(local [\s\S]*?)\n`/.exec(source)![1]!;
    expect(compactLua(original).split('\n'), file).toEqual(
      original
        .split('\n')
        .map((line) => line.trimStart())
        .filter((line) => !line.startsWith('--')),
    );
  }
  expect(() => compactScriptModule('export const NOT_LUA = `\nreturn 1\n`;', 'x.ts')).toThrow(/x.ts: no Lua script found/);
});
