/**
 * Build step (tsup's `onSuccess`): the mock's entry points need msw and @faker-js/faker, which are
 * optional peers of the package. Imported without them, Node stops with ERR_MODULE_NOT_FOUND and
 * a stack trace that names a file inside dist/ — and for ES modules it does so while linking,
 * before any code of the package could step in. So each built mock entry is moved aside
 * (`mock.js` → `mock.impl.js`) and replaced by a wrapper that loads it and turns a missing peer
 * into one line that says what to install. Anything else fails as before.
 * @module
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/** The entries that need the peers, as `dist/<entry>.js` / `.cjs`, and the package's import name. */
const ENTRIES = ['mock', 'mock/node', 'mock/browser'];
const PEERS = ['msw', '@faker-js/faker'];

/** The message a missing peer gets. */
export const missingPeerMessage = (specifier: string) => `${specifier} needs ${PEERS.join(' and ')}: npm install -D ${PEERS.join(' ')}`;

/**
 * The wrappers' shared part, as source: `missingPeer(error)` is the one-line error when `error`
 * says a peer is not installed (ESM: "Cannot find package 'msw'", CJS: "Cannot find module
 * 'msw/node'"), else `error` itself. The line replaces the stack (Node prints the stack of an
 * uncaught error) and the original is not its `cause` (Node would print that too).
 */
const helper = (specifier: string) => `
const PEERS = ${JSON.stringify(PEERS)};
const notFound = (error) => error !== null && typeof error === "object" && (error.code === "ERR_MODULE_NOT_FOUND" || error.code === "MODULE_NOT_FOUND");
const namesPeer = (message) => PEERS.some((peer) => message.includes("'" + peer + "'") || message.includes("'" + peer + "/"));
function missingPeer(error) {
  if (!notFound(error) || !namesPeer(String(error.message))) return error;
  const message = ${JSON.stringify(missingPeerMessage(specifier))};
  const clean = new Error(message);
  // Not enumerable, so Node prints the line alone: no stack (it would point inside dist/), no fields.
  Object.defineProperties(clean, { code: { value: "ERR_MISSING_PEER" }, stack: { value: "Error: " + message } });
  return clean;
}
`;

/** The names an esbuild ES module exports, from its closing `export { a, b as c };`. */
function exportedNames(source: string, file: string): string[] {
  const list = [...source.matchAll(/^export \{([^}]*)\};$/gm)].at(-1)?.[1];
  if (list === undefined) throw new Error(`peer-guard: no export list in ${file}`);
  return list
    .split(',')
    .map((part) => part.trim().split(/\s+as\s+/).at(-1)!)
    .filter(Boolean);
}

/** Moves `file` to `impl` with its source map, the map's reference fixed. */
function moveAside(file: string, impl: string): void {
  const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  const source = readFileSync(file, 'utf8').replace(`//# sourceMappingURL=${base(file)}.map`, `//# sourceMappingURL=${base(impl)}.map`);
  writeFileSync(impl, source);
  renameSync(`${file}.map`, `${impl}.map`);
}

/** Wraps the mock entries of one format's build in `dist`. */
export function guardPeers(format: 'esm' | 'cjs', dist = 'dist'): void {
  for (const entry of ENTRIES) {
    const extension = format === 'esm' ? 'js' : 'cjs';
    const file = `${dist}/${entry}.${extension}`;
    const impl = `${dist}/${entry}.impl.${extension}`;
    const relative = `./${entry.slice(entry.lastIndexOf('/') + 1)}.impl.${extension}`;
    const specifier = `community-server-sdk/${entry}`;
    const source = readFileSync(file, 'utf8');
    moveAside(file, impl);
    const head = `// ${specifier}: loads ${relative} so that a missing optional peer reads as one line (scripts/peer-guard.ts).`;
    const wrapper =
      format === 'esm'
        ? `${head}\n${helper(specifier)}\nconst entry = await import(${JSON.stringify(relative)}).catch((error) => {\n  throw missingPeer(error);\n});\nexport const { ${exportedNames(source, file).join(', ')} } = entry;\n`
        : `"use strict";\n${head}\n${helper(specifier)}\ntry {\n  module.exports = require(${JSON.stringify(relative)});\n} catch (error) {\n  throw missingPeer(error);\n}\n`;
    writeFileSync(file, wrapper);
  }
}
