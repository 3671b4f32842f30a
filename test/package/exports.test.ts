/**
 * Types and runtime agree (issue 10, item 11): every name the built declarations of an entry
 * point export as a value (a class, function or constant, not `type`/`interface`) exists at
 * runtime, in the ESM build under `import` and in the CommonJS build under `require`. A name the
 * types promise and the runtime lacks is an ESM SyntaxError at import, or `undefined` in CJS.
 * Runs over dist/ (`npm run build` first; `npm test` does).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** The package's entry points: subpath, declaration base name in dist/. */
const ENTRIES = [
  ['community-server-sdk', 'index'],
  ['community-server-sdk/schemas', 'schemas'],
  ['community-server-sdk/mock', 'mock'],
  ['community-server-sdk/mock/node', 'mock/node'],
  ['community-server-sdk/mock/browser', 'mock/browser'],
  ['community-server-sdk/mock/remote', 'mock/remote'],
  ['community-server-sdk/query', 'query'],
  ['community-server-sdk/core', 'core'],
  ['community-server-sdk/webhooks', 'webhooks'],
  ['community-server-sdk/mcp', 'mcp'],
] as const;

/** Whether an export is written `export { type X }` or `export type { X }`. */
const isTypeOnlyExport = (symbol: ts.Symbol) =>
  (symbol.declarations ?? []).some(
    (d) => (ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) || ts.isTypeOnlyImportOrExportDeclaration(d),
  );

const declarationFiles = ENTRIES.flatMap(([, base]) => [`${root}dist/${base}.d.ts`, `${root}dist/${base}.d.cts`]);
let program: ts.Program | undefined;

/** The names a declaration file exports as values, read with the TypeScript checker. */
function valueExports(file: string): string[] {
  // One program for all the files: each would otherwise load the standard library again.
  program ??= ts.createProgram(declarationFiles, {
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const moduleSymbol = checker.getSymbolAtLocation(source)!;
  return checker
    .getExportsOfModule(moduleSymbol)
    .filter((symbol) => !isTypeOnlyExport(symbol))
    .filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.flags & ts.SymbolFlags.Value) !== 0;
    })
    .map((symbol) => symbol.name)
    .sort();
}

/** The runtime export names of an entry point, loaded by a fresh Node process. */
async function runtimeExports(specifier: string, system: 'esm' | 'cjs'): Promise<string[]> {
  const source =
    system === 'esm'
      ? `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m).filter((k) => k !== 'default' && m[k] !== undefined)));`
      : `const m = require(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m).filter((k) => m[k] !== undefined)));`;
  // msw/browser only loads under the browser condition; the other entries under Node's own.
  const conditions = specifier.endsWith('/browser') ? ['--conditions=browser'] : [];
  const { stdout } = await run(
    process.execPath,
    [...conditions, `--input-type=${system === 'esm' ? 'module' : 'commonjs'}`, '-e', source],
    { cwd: root },
  );
  return JSON.parse(stdout) as string[];
}

describe('types and runtime agree on every entry point', () => {
  it('dist/ is built', () => {
    expect(existsSync(`${root}dist/mock.d.ts`), 'run `npm run build` first').toBe(true);
  });

  describe.each(ENTRIES)('%s', (specifier, base) => {
    it.each([
      ['ESM', 'esm', `${base}.d.ts`],
      ['CommonJS', 'cjs', `${base}.d.cts`],
    ] as const)('%s: every value the declarations export exists at runtime', async (_, system, declarations) => {
      const promised = valueExports(`${root}dist/${declarations}`);
      expect(promised.length).toBeGreaterThan(0);
      const present = new Set(await runtimeExports(specifier, system));
      expect(promised.filter((name) => !present.has(name))).toEqual([]);
    });
  });

  it('the check can fail: a declared class with no runtime export is reported', () => {
    const file = `${root}test/fixtures-exports.d.ts`;
    const host = ts.createCompilerHost({});
    const text = 'declare class Shown {}\ndeclare class Hidden {}\ninterface Shape {}\nexport { Shown, type Hidden, type Shape };\n';
    const original = host.getSourceFile.bind(host);
    host.getSourceFile = (name, version) => (name === file ? ts.createSourceFile(name, text, version) : original(name, version));
    const program = ts.createProgram([file], { noEmit: true }, host);
    const checker = program.getTypeChecker();
    const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!);
    expect(exported.filter((s) => !isTypeOnlyExport(s)).map((s) => s.name)).toEqual(['Shown']);
  });
});
