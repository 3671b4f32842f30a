/**
 * The import graph of a source tree, as a reader follows it: every `.ts` file parsed with
 * TypeScript's own `preProcessFile` (which lists `import type` and `export … from` too), relative
 * specifiers resolved to files. From it, the cycles between modules, and between rooms: at each
 * folder level, a room is one of its folders or one of the files at its root. Shared by the suite's
 * check (test/house/import-cycles.test.ts) and the figures of the house (scripts/house-figures.ts).
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Every .ts file under `dir`, declarations aside. */
export function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names: `./x`, `./x.ts`, `./x.js` or `./x/index.ts`. */
function resolveSpecifier(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|ts)$/, '');
  return [base, `${stem}.ts`, join(base, 'index.ts')].find((candidate) => files.has(candidate));
}

/** Each module's imports among `files`, type-only ones included. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles
        .filter(({ fileName }) => fileName.startsWith('.'))
        .map(({ fileName }) => resolveSpecifier(file, fileName, known))
        .filter((target): target is string => target !== undefined);
      return [file, [...new Set(targets)]];
    }),
  );
}

/** The cycles of `graph`: its strongly connected components of more than one node, or with a self-edge (Tarjan). */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) cycles.push(component.reverse());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** Every folder of the tree at `root` that holds a source file, `root` included. */
function foldersOf(root: string, files: readonly string[]): string[] {
  const folders = new Set([root]);
  for (const file of files) for (let dir = dirname(file); dir.startsWith(root) && dir !== root; dir = dirname(dir)) folders.add(dir);
  return [...folders].sort();
}

/**
 * The rooms of `folder` that import each other, each knot named `folder: a, b/` (relative to
 * `base`): a room is a folder inside it (`b/`) or a file at its root (`a.ts`), and an import
 * between two modules of different rooms is an import between the rooms.
 */
export function roomCycles(graph: ReadonlyMap<string, readonly string[]>, root: string, base = root): string[] {
  const files = [...graph.keys()];
  return foldersOf(root, files).flatMap((folder) => {
    const roomOf = (file: string) => {
      if (!file.startsWith(folder + sep)) return undefined;
      const [head, ...rest] = relative(folder, file).split(sep);
      return rest.length ? `${head}/` : head;
    };
    const rooms = new Map<string, Set<string>>();
    for (const [from, targets] of graph) {
      const a = roomOf(from);
      if (a === undefined) continue;
      if (!rooms.has(a)) rooms.set(a, new Set());
      for (const target of targets) {
        const b = roomOf(target);
        if (b !== undefined && b !== a) rooms.get(a)!.add(b);
      }
    }
    const roomGraph = new Map([...rooms].map(([room, targets]) => [room, [...targets]]));
    return cyclesOf(roomGraph).map((cycle) => `${relative(base, folder) || '.'}: ${[...cycle].sort().join(', ')}`);
  });
}

/** The rooms at the top of `folder`: its folders (`b/`) and the source files at its root. */
export function roomsAt(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => statSync(join(folder, name)).isDirectory() || (name.endsWith('.ts') && !name.endsWith('.d.ts')))
    .map((name) => (statSync(join(folder, name)).isDirectory() ? `${name}/` : name))
    .sort();
}
