/**
 * Names unique across the house (issue 33): a name a module of mocks/ declares and exports is
 * declared and exported nowhere else in mocks/ or src/, so a reader who finds `Table` or
 * `isPlainObject` finds one thing. Re-exports (`export { x } from …`) pass on the same thing and
 * are not counted. The one exception is a public name of `community-server-sdk/mock` fixed by the
 * API that a module of src/ repeats privately: the mock keeps its public name.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sources } from '../../scripts/import-graph';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `community-server-sdk/mock`'s public constants (shared/API.md) that src/mcp/tools.ts also declares for its own tools. */
const PUBLIC_NAMES_REPEATED_IN_SRC = new Set(['DEFAULT_PAGE_SIZE', 'MAX_PAGE_SIZE']);

const DECLARED =
  /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;

/** The names each file declares and exports, by the file's path. */
export const exportedNames = (files: ReadonlyMap<string, string>): Map<string, string[]> =>
  new Map([...files].map(([file, text]) => [file, [...text.matchAll(DECLARED)].map((match) => match[1]!)]));

/** Each name a file of mocks/ exports that another file of mocks/ or src/ exports too, with where. */
export function sharedNames(files: ReadonlyMap<string, string>): string[] {
  const where = new Map<string, string[]>();
  for (const [file, names] of exportedNames(files)) for (const name of names) where.set(name, [...(where.get(name) ?? []), file]);
  return [...where]
    .filter(
      ([name, paths]) => paths.length > 1 && paths.some((path) => path.startsWith('mocks/')) && !PUBLIC_NAMES_REPEATED_IN_SRC.has(name),
    )
    .map(([name, paths]) => `${name}: ${paths.join(', ')}`);
}

const textsOf = (...dirs: string[]) =>
  new Map(
    dirs.flatMap((dir) => sources(join(root, dir))).map((file) => [relative(root, file).split(sep).join('/'), readFileSync(file, 'utf8')]),
  );

describe('names', () => {
  it('finds a name two modules export, one of them in mocks/ (the check can fail)', () => {
    const files = new Map([
      ['src/core/table.ts', 'export interface Table {}\nexport const kept = 1;'],
      ['mocks/engine/world/table.ts', 'export interface Table<Row> {}\nexport { kept } from "../../src/core/table";'],
      ['mocks/engine/rows/json.ts', 'const isPlainObject = 1;\nexport function rowJson() {}'],
      ['src/core/a.ts', 'export const same = 1;'],
      ['src/core/b.ts', 'export const same = 2;'],
    ]);
    // `kept` is re-exported (one thing), `isPlainObject` is not exported, `same` is src/'s alone.
    expect(sharedNames(files)).toEqual(['Table: src/core/table.ts, mocks/engine/world/table.ts']);
  });

  it('every name mocks/ exports is its own across src/ and mocks/', () => {
    const files = textsOf('src', 'mocks');
    expect(files.size).toBeGreaterThan(150);
    expect(sharedNames(files)).toEqual([]);
  });
});
