/**
 * What the SDK's source says about its requests and schemas that the runtime objects do not
 * carry: doc comments (`/** #48: one member. *\/`) and the names the resource lines pass their
 * schemas by. A resource line hands `get()` a schema object, and one object can go by several
 * names (`Token`, `RateLimitStatus` and `ReadinessStatus` are all the open object), so only the
 * source can tell which name a request means.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** One line of a resource table, e.g. `export const membersGet = get('members.get', '/api/v1/server/members/{memberId}', Member)`. */
export interface ResourceLine {
  /** The doc comment above the line, e.g. `#48: one member.` */
  doc: string;
  /** The path literal the line passes. */
  path: string;
  /** Every identifier the call passes, in order, e.g. `['CreateTokenRequest', 'Token']` or `['probe']`. */
  identifiers: string[];
}

/**
 * The text of the doc comments attached to `node`, or '' when it has none. Lines wrapped for the
 * source's width are joined; blank lines still separate paragraphs.
 */
function docOf(node: ts.Node): string {
  return ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((jsDoc) => ts.getTextOfJSDocComment(jsDoc.comment) ?? '')
    .join('\n\n')
    .trim()
    .replace(/(?<!\n)\n(?!\n)/g, ' ');
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The `.ts` files of `dir`, except those named in `skip`, in a stable order. */
export function sourceFiles(dir: string, skip: readonly string[] = []): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ts') && !skip.includes(name))
    .sort()
    .map((name) => join(dir, name));
}

/** Every `export const` of `files`: its doc comment and initializer, by name. */
export function exportedConsts(files: readonly string[]): Map<string, { doc: string; initializer: ts.Expression | undefined }> {
  const consts = new Map<string, { doc: string; initializer: ts.Expression | undefined }>();
  for (const file of files) {
    for (const statement of parse(file).statements) {
      if (!ts.isVariableStatement(statement)) continue;
      if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) {
          consts.set(declaration.name.text, { doc: docOf(declaration), initializer: declaration.initializer });
        }
      }
    }
  }
  return consts;
}

/**
 * The lines of the resource tables in `files`, by dotted SDK name (`cad.calls.list`): each line
 * is a top-level `const` holding its call (`export const cadCallsList = list('cad.calls.list',
 * 'path', …)`: the name first, the path second), and an exported namespace table names it
 * (`calls: { list: cadCallsList }`) under a doc comment, which is the line's.
 */
export function resourceLines(files: readonly string[]): Map<string, ResourceLine> {
  const lines = new Map<string, ResourceLine>();
  for (const file of files) {
    const calls = new Map<string, ts.CallExpression>();
    const tables: ts.ObjectLiteralExpression[] = [];
    for (const statement of parse(file).statements) {
      if (!ts.isVariableStatement(statement)) continue;
      const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
      for (const { name, initializer } of statement.declarationList.declarations) {
        if (!ts.isIdentifier(name) || !initializer) continue;
        if (ts.isCallExpression(initializer)) calls.set(name.text, initializer);
        else if (exported && ts.isObjectLiteralExpression(initializer)) tables.push(initializer);
      }
    }
    const visit = (table: ts.ObjectLiteralExpression) => {
      for (const property of table.properties) {
        if (!ts.isPropertyAssignment(property)) continue;
        if (ts.isObjectLiteralExpression(property.initializer)) visit(property.initializer);
        const call = ts.isIdentifier(property.initializer) ? calls.get(property.initializer.text) : undefined;
        const [name, path] = call?.arguments ?? [];
        if (call && name && path && ts.isStringLiteral(name) && ts.isStringLiteral(path)) {
          const identifiers = call.arguments.filter(ts.isIdentifier).map((argument) => argument.text);
          lines.set(name.text, { doc: docOf(property), path: path.text, identifiers });
        }
      }
    };
    tables.forEach(visit);
  }
  return lines;
}
