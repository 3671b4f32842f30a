/**
 * No import cycles in src/ or mocks/, type-only imports included (issue 19): a cycle makes the
 * order modules load in matter, and a type cycle is where a value one follows. Every .ts file is
 * parsed with TypeScript's own `preProcessFile` (which lists `import type` and `export … from`
 * too), relative specifiers are resolved to files, and Tarjan's algorithm finds each strongly
 * connected component; any with more than one module, or a module importing itself, is a cycle.
 */
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importGraph, sources } from '../scripts/import-graph';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('import cycles', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['d']],
      ['e', ['a']],
    ]);
    expect(cyclesOf(graph).map((cycle) => [...cycle].sort())).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('resolves type-only imports and re-exports too', () => {
    const { importedFiles } = ts.preProcessFile("import type { A } from './a';\nexport { B } from './b';\n", true, true);
    expect(importedFiles.map((file) => file.fileName)).toEqual(['./a', './b']);
  });

  it.each(['src', 'mocks'])('%s/ has none, type-only imports included', (dir) => {
    const graph = importGraph(sources(join(root, dir)));
    // Each entry names the modules of one cycle: the ones that import each other, directly or not.
    const named = cyclesOf(graph).map((cycle) => cycle.map((file) => relative(root, file)).join(', '));
    expect(named).toEqual([]);
  });
});
