/**
 * Build step (tsup's `onSuccess`): the mock's entry points need msw and @faker-js/faker, and the
 * MCP entry @modelcontextprotocol/sdk, which are optional peers of the package. Imported without
 * them, Node stops with ERR_MODULE_NOT_FOUND and a stack trace that names a file inside dist/ —
 * and for ES modules it does so while linking, before any code of the package could step in. So
 * each of those entries gets a guard beside it
 * (`mock.js` → `mock.guard.js`, `.cjs` alike) that loads it and turns a missing peer into one line
 * that says what to install; anything else fails as before. package.json's exports send Node (the
 * `node` condition) to the guard and bundlers to the entry itself: the ESM guard needs a
 * top-level await, which older browser targets refuse, and a bundle resolves its imports at build
 * time anyway.
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** The peers an entry needs, and how they are installed: the mock's for tests (`-D`), the MCP SDK for a server. */
interface Peers {
  readonly names: readonly string[];
  readonly install: string;
}
const MOCK_PEERS: Peers = { names: ['msw', '@faker-js/faker'], install: 'npm install -D' };
const MCP_PEERS: Peers = { names: ['@modelcontextprotocol/sdk'], install: 'npm install' };

/** The entries that need peers, as `dist/<entry>.js` / `.cjs` (and the package's import name), with theirs. */
const ENTRIES: Record<string, Peers> = { mock: MOCK_PEERS, 'mock/node': MOCK_PEERS, 'mock/browser': MOCK_PEERS, mcp: MCP_PEERS };

/** The message a missing peer gets. */
export const missingPeerMessage = (specifier: string, { names, install }: Peers = MOCK_PEERS) =>
  `${specifier} needs ${names.join(' and ')}: ${install} ${names.join(' ')}`;

/**
 * The guards' shared part, as source: `missingPeer(error)` is the one-line error when `error`
 * says a peer is not installed (ESM: "Cannot find package 'msw'", CJS: "Cannot find module
 * 'msw/node'"), else `error` itself. The line replaces the stack (Node prints the stack of an
 * uncaught error) and the original is not its `cause` (Node would print that too).
 */
const helper = (specifier: string, peers: Peers) => `
const PEERS = ${JSON.stringify(peers.names)};
const notFound = (error) => error !== null && typeof error === "object" && (error.code === "ERR_MODULE_NOT_FOUND" || error.code === "MODULE_NOT_FOUND");
const namesPeer = (message) => PEERS.some((peer) => message.includes("'" + peer + "'") || message.includes("'" + peer + "/"));
function missingPeer(error) {
  if (!notFound(error) || !namesPeer(String(error.message))) return error;
  const message = ${JSON.stringify(missingPeerMessage(specifier, peers))};
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
    .map((part) =>
      part
        .trim()
        .split(/\s+as\s+/)
        .at(-1)!,
    )
    .filter(Boolean);
}

/** Writes the guards of one format's mock entries in `dist`. */
export function guardPeers(format: 'esm' | 'cjs', dist = 'dist'): void {
  const extension = format === 'esm' ? 'js' : 'cjs';
  for (const [entry, peers] of Object.entries(ENTRIES)) {
    const file = `${dist}/${entry}.${extension}`;
    const target = JSON.stringify(`./${entry.slice(entry.lastIndexOf('/') + 1)}.${extension}`);
    const specifier = `community-server-sdk/${entry}`;
    const head = `// ${specifier} for Node: loads ${target} so that a missing optional peer reads as one line (scripts/peer-guard.ts).`;
    const guard =
      format === 'esm'
        ? `${head}\n${helper(specifier, peers)}\nconst entry = await import(${target}).catch((error) => {\n  throw missingPeer(error);\n});\nexport const { ${exportedNames(readFileSync(file, 'utf8'), file).join(', ')} } = entry;\n`
        : `"use strict";\n${head}\n${helper(specifier, peers)}\ntry {\n  module.exports = require(${target});\n} catch (error) {\n  throw missingPeer(error);\n}\n`;
    writeFileSync(`${dist}/${entry}.guard.${extension}`, guard);
  }
}
