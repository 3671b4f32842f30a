/**
 * The figures of a source tree that say how easy it is to live in: its rooms (the folders and the
 * files at its root), the files at its root, its lines, its largest file and largest function, and
 * the knots of rooms that import each other (at any folder level). Issue 33 reports them for the
 * mock before and after its layers.
 *
 *   npx tsx scripts/house-figures.ts mocks [src …]
 * @module
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import ts from 'typescript';
import { importGraph, roomCycles, roomsAt, sources } from './import-graph';

/** The name a function goes by: its own, its variable's, its property's or method's; `(anonymous)` else. */
function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && (ts.isIdentifier(named.name) || ts.isStringLiteral(named.name))) return named.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

/** The longest function of `file` (its declaration's lines), innermost ones counted on their own too. */
function longestFunction(file: string): { name: string; lines: number } {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  let longest = { name: '', lines: 0 };
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > longest.lines) longest = { name: nameOf(node), lines: last - first + 1 };
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return longest;
}

const lineCount = (file: string) => readFileSync(file, 'utf8').split('\n').length - (readFileSync(file, 'utf8').endsWith('\n') ? 1 : 0);

/** The lines of `file` that hold code: neither blank nor comment alone. */
function codeLineCount(file: string): number {
  const text = readFileSync(file, 'utf8');
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const lines = new Set<number>();
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    const start = source.getLineAndCharacterOfPosition(scanner.getTokenStart()).line;
    const end = source.getLineAndCharacterOfPosition(scanner.getTokenEnd()).line;
    for (let line = start; line <= end; line++) lines.add(line);
  }
  return lines.size;
}

/** The figures of the tree at `dir`. */
export function figuresOf(dir: string) {
  const root = resolve(dir);
  const files = sources(root);
  const lines = files.map((file) => ({ file: relative(root, file), lines: lineCount(file) }));
  const largestFile = lines.reduce((a, b) => (b.lines > a.lines ? b : a));
  const largestFunction = files
    .map((file) => ({ file: relative(root, file), ...longestFunction(file) }))
    .reduce((a, b) => (b.lines > a.lines ? b : a));
  const rooms = roomsAt(root);
  return {
    rooms: rooms.length,
    filesAtRoot: rooms.filter((room) => !room.endsWith('/')).length,
    files: files.length,
    lines: lines.reduce((sum, { lines: n }) => sum + n, 0),
    codeLines: files.reduce((sum, file) => sum + codeLineCount(file), 0),
    largestFile: `${largestFile.file} (${largestFile.lines} lines)`,
    largestFunction: `${largestFunction.name} in ${largestFunction.file} (${largestFunction.lines} lines)`,
    roomKnots: roomCycles(importGraph(files), root),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const dir of process.argv.slice(2)) console.log(dir, JSON.stringify(figuresOf(dir), null, 2));
}
