/**
 * Build step (an esbuild plugin for tsup): the Lua scripts of the redis entry
 * (`src/redis/**\/*script.ts`) ship without their indentation and comment lines. Lua reads
 * neither, and the scripts are most of what `redisFleet` weighs (.size-limit.mjs); the sources
 * keep both, for people. Each such file holds one script, a template literal opening with a
 * newline and closing on a line of its own; a file that holds none fails the build, so a script
 * written otherwise is not shipped unread.
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/**
 * A script's template literal where a constant is set to it (directly, or by an arrow function
 * marked pure): from a backtick that ends its line to one that starts a line.
 */
const SCRIPT_LITERAL = /(= (?:\/\* @__PURE__ \*\/ \(\(\) => )?)`\n([\s\S]*?)\n`/;

/** `lua` without leading blanks on its lines, nor lines that are comments alone (`-- …`). */
export const compactLua = (lua: string) =>
  lua
    .split('\n')
    .map((line) => line.trimStart())
    .filter((line) => !line.startsWith('--'))
    .join('\n');

/** The source of a script module with its script compacted; throws if it holds no script. */
export function compactScriptModule(source: string, file: string): string {
  const found = SCRIPT_LITERAL.exec(source);
  if (!found || !found[2]!.startsWith('local ')) {
    throw new Error(`${file}: no Lua script found (a constant set to a template literal opening with a newline and \`local\`)`);
  }
  return source.replace(SCRIPT_LITERAL, () => `${found[1]}\`\n${compactLua(found[2]!)}\n\``);
}

export const compactLuaPlugin: Plugin = {
  name: 'compact-lua',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]redis[\\/].*script\.ts$/ }, async ({ path }) => ({
      contents: compactScriptModule(await readFile(path, 'utf8'), path),
      loader: 'ts',
    }));
  },
};
