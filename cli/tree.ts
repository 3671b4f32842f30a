/**
 * The API's requests as a tree of command words, built from `operations()` (the endpoint
 * table): `members` → `get` → the operation `members.get`. Nothing here names an endpoint.
 * @module
 */
import { operations, type Operation } from '../src/operations/index';

/** A group of commands: a namespace (`cad`, `cad unit-groups`), or the root. */
export interface Group {
  readonly words: readonly string[];
  readonly children: ReadonlyMap<string, Group | Operation>;
}

export const isGroup = (node: Group | Operation): node is Group => 'children' in node;

let root: Group | undefined;

/** The root of the tree; built once. */
export function commandTree(): Group {
  if (root) return root;
  const made: Group = { words: [], children: new Map() };
  for (const operation of operations()) {
    let group = made;
    for (const [depth, word] of operation.words.slice(0, -1).entries()) {
      const children = group.children as Map<string, Group | Operation>;
      let next = children.get(word);
      if (next === undefined) children.set(word, (next = { words: operation.words.slice(0, depth + 1), children: new Map() }));
      group = next as Group;
    }
    (group.children as Map<string, Group | Operation>).set(operation.words.at(-1)!, operation);
  }
  return (root = made);
}

/** How far `words` lead into the tree: the node reached and how many words it took. */
export function resolveWords(words: readonly string[]): { node: Group | Operation; used: number } {
  let node: Group | Operation = commandTree();
  let used = 0;
  while (isGroup(node) && used < words.length) {
    const next = node.children.get(words[used]!);
    if (next === undefined) break;
    node = next;
    used++;
  }
  return { node, used };
}

/** Every operation under `group`, in the spec's order. */
export function operationsUnder(group: Group): Operation[] {
  return [...group.children.values()].flatMap((child) => (isGroup(child) ? operationsUnder(child) : [child]));
}
