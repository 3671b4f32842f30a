/**
 * No import cycles in src/ or mocks/, type-only imports included (issue 19): a cycle makes the
 * order modules load in matter, and a type cycle is where a value one follows. Every .ts file is
 * parsed with TypeScript's own `preProcessFile` (which lists `import type` and `export … from`
 * too), relative specifiers are resolved to files, and Tarjan's algorithm finds each strongly
 * connected component; any with more than one module, or a module importing itself, is a cycle.
 * On the same graph: no entry of the package reaches the command's sources (src/cli), which are
 * the bin's alone.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importGraph, sources } from '../../scripts/import-graph';

const root = fileURLToPath(new URL('../..', import.meta.url));

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

describe("the package's entries and the command", () => {
  /** Every entry of the package, as the API reference lists them (typedoc.config.mjs, a JavaScript file: read as text). */
  const entries = [
    ...(/entryPoints: \[([^\]]*)\]/.exec(readFileSync(join(root, 'typedoc.config.mjs'), 'utf8'))?.[1] ?? '').matchAll(/'([^']+)'/g),
  ].map(([, entry]) => entry!);

  /** The modules `from` reaches in `graph`, itself included. */
  const reachable = (graph: ReadonlyMap<string, readonly string[]>, from: string) => {
    const seen = new Set([from]);
    for (const module of seen) for (const target of graph.get(module) ?? []) seen.add(target);
    return seen;
  };

  it('reads the entries, and reachability follows imports (the check can fail)', () => {
    expect(entries).toEqual(expect.arrayContaining(['src/index.ts', 'src/webhooks.ts', 'src/mcp.ts']));
    const graph = new Map([
      ['entry', ['a']],
      ['a', ['cli/x']],
    ]);
    expect([...reachable(graph, 'entry')]).toEqual(['entry', 'a', 'cli/x']);
  });

  it.each(entries)('%s does not reach src/cli, the bin’s own', (entry) => {
    const graph = importGraph([...sources(join(root, 'src')), ...sources(join(root, 'mocks'))]);
    const reached = [...reachable(graph, join(root, entry))].map((file) => relative(root, file));
    expect(reached.filter((file) => file.startsWith('src/cli/'))).toEqual([]);
  });
});
