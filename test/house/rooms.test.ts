/**
 * The house's rooms and the mock's layers (issue 33), from the import graph as a reader follows
 * it (type-only imports count, as in test/house/import-cycles.test.ts). A room is, at each folder
 * level, one of its folders or one of the files at its root: no two rooms of src/ or mocks/
 * import each other, directly or not, at any level. The mock is built in layers, declared below
 * once: its contract at the bottom, the engine above it, the doors on top; every file of mocks/
 * is in exactly one layer, and none imports a file of a higher layer.
 */
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph, roomCycles, sources } from '../../scripts/import-graph';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The mock's layers, lowest first, and the files of each (paths from mocks/). */
const MOCK_LAYERS: readonly { readonly name: string; readonly holds: (file: string) => boolean }[] = [
  // The control API's table, its schemas and the shapes it names: what every side of the mock agrees on.
  { name: 'contract', holds: (file) => file.startsWith('contract/') },
  // The world, the store, the state and everything that answers a request or runs an operation.
  { name: 'engine', holds: (file) => file.startsWith('engine/') },
  // What serves the engine: msw, mock.fetch, node:http, the control plane, sessions, the bin, and the entry points.
  { name: 'doors', holds: (file) => file.startsWith('doors/') || !file.includes('/') },
];

/** Each file's layer, or why it has none or several. */
function layersOf(files: readonly string[]): { layer: Map<string, number>; problems: string[] } {
  const layer = new Map<string, number>();
  const problems: string[] = [];
  for (const file of files) {
    const holding = MOCK_LAYERS.flatMap(({ holds }, index) => (holds(file) ? [index] : []));
    if (holding.length === 1) layer.set(file, holding[0]!);
    else {
      const where = holding.length === 0 ? 'no layer' : holding.map((index) => MOCK_LAYERS[index]!.name).join(' and ');
      problems.push(`${file} is in ${where}`);
    }
  }
  return { layer, problems };
}

/** Every import of `graph` (paths from mocks/) from a layer to a higher one, and every file in no layer or in two. */
export function layerProblems(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const { layer, problems } = layersOf([...graph.keys()]);
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const [a, b] = [layer.get(from), layer.get(to)];
      if (a !== undefined && b !== undefined && b > a) {
        problems.push(`${from} (${MOCK_LAYERS[a]!.name}) imports ${to} (${MOCK_LAYERS[b]!.name})`);
      }
    }
  }
  return problems;
}

/** The import graph of `dir` (a folder of the repository), its paths relative to that folder. */
function graphOf(dir: string): Map<string, string[]> {
  const base = join(root, dir);
  const name = (file: string) => relative(base, file).split(sep).join('/');
  return new Map([...importGraph(sources(base))].map(([file, targets]) => [name(file), targets.map(name)]));
}

describe('rooms', () => {
  it('finds rooms that import each other, at any folder level (the check can fail)', () => {
    const graph = new Map([
      ['/r/a/x.ts', ['/r/b/y.ts']],
      ['/r/b/y.ts', ['/r/c.ts']],
      ['/r/c.ts', ['/r/a/z.ts']],
      ['/r/a/z.ts', []],
      ['/r/d/in/p.ts', ['/r/d/q.ts']],
      ['/r/d/q.ts', ['/r/d/in/s.ts']],
      ['/r/d/in/s.ts', []],
    ]);
    // a/x → b/y → c → a/z: the rooms a/, b/ and c.ts of the root; in d/, the room in/ and q.ts.
    expect(roomCycles(graph, '/r')).toEqual(['.: a/, b/, c.ts', 'd: in/, q.ts']);
  });

  it.each(['src', 'mocks'])('no two rooms of %s/ import each other, at any level, type-only imports included', (dir) => {
    expect(roomCycles(importGraph(sources(join(root, dir))), join(root, dir))).toEqual([]);
  });
});

describe('the mock’s layers', () => {
  it('finds an import from a lower layer to a higher one, and a file in no layer or in two (the check can fail)', () => {
    const graph = new Map([
      ['contract/table.ts', ['engine/store.ts']],
      ['engine/store.ts', ['contract/table.ts']],
      ['doors/http.ts', ['engine/store.ts', 'contract/table.ts']],
      ['index.ts', ['doors/http.ts']],
    ]);
    expect(layerProblems(graph)).toEqual(['contract/table.ts (contract) imports engine/store.ts (engine)']);
    expect(layersOf(['engine/x.ts', 'contract/y.ts', 'remote.ts', 'stray/z.ts']).problems).toEqual(['stray/z.ts is in no layer']);
  });

  it('every file of mocks/ is in exactly one layer, and none imports a higher layer', () => {
    const graph = graphOf('mocks');
    expect(graph.size).toBeGreaterThan(60);
    expect(layerProblems(graph)).toEqual([]);
  });
});
