/**
 * The API reference: `npm run docs` builds with no warning (typedoc treats them as errors), and
 * its model shows every exported symbol with a doc comment, and every member documented, save the
 * resource types' field lists (spec Part 2 names those fields but gives no meanings) and
 * `Error#name`. Examples are asked for where a reader looks for one: each entry point, function,
 * class and type, and each method a caller calls (not the ones the language calls, like `then`);
 * a schema constant shares its type's. An example copied onto many symbols with only the name
 * changed teaches nothing, so none may be.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface CommentPart {
  text: string;
}
interface Comment {
  summary: CommentPart[];
  blockTags?: { tag: string; content: CommentPart[] }[];
}
interface Reflection {
  id: number;
  name: string;
  kind: number;
  variant?: string;
  comment?: Comment;
  children?: Reflection[];
  signatures?: Reflection[];
  getSignature?: Reflection;
  inheritedFrom?: unknown;
}

// typedoc's ReflectionKind values.
const Kind = {
  Module: 2,
  Variable: 32,
  Function: 64,
  Class: 128,
  Interface: 256,
  Property: 1024,
  Method: 2048,
  Accessor: 262144,
  TypeAlias: 2097152,
};
const topLevel = new Set([Kind.Variable, Kind.Function, Kind.Class, Kind.Interface, Kind.TypeAlias]);
const members = new Set([Kind.Property, Kind.Method, Kind.Accessor]);
/** Symbols a reader looks up to learn a call: each shows one in an example. */
const exemplified = new Set([Kind.Function, Kind.Class, Kind.Interface, Kind.TypeAlias]);
/**
 * Methods the language calls (`await`, `for await`, an iterator's protocol): an example of them
 * would be the class's own again.
 */
const protocol = new Set(['then', 'catch', 'finally', '[asyncIterator]', 'next', 'return']);

let modules: Reflection[] = [];
let output = '';

beforeAll(async () => {
  try {
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', '--silent', 'docs'], { cwd: root });
    output = stdout + stderr;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    output = `${stdout}${stderr}` || String(error); // reported by the first test; the model may still be there
  }
  modules = (JSON.parse(readFileSync(`${root}/docs/api/reference.json`, 'utf8')) as Reflection).children ?? [];
}, 120_000);

/** The comment of a reflection, or of its first signature (functions and methods keep it there). */
const commentOf = (r: Reflection): Comment | undefined => r.comment ?? r.signatures?.[0]?.comment ?? r.getSignature?.comment;
const hasText = (c: Comment | undefined) => !!c && c.summary.some((part) => part.text.trim() !== '');
const examplesOf = (c: Comment | undefined) =>
  (c?.blockTags ?? []).filter((tag) => tag.tag === '@example').map((tag) => tag.content.map((part) => part.text).join(''));
const hasExample = (c: Comment | undefined) => examplesOf(c).length > 0;
/** Every exported symbol, with its module's name. */
const symbols = () =>
  modules.flatMap((module) =>
    (module.children ?? []).filter((symbol) => topLevel.has(symbol.kind)).map((symbol) => ({ module: module.name, symbol })),
  );

it('builds with no warning', () => {
  expect(output, output).not.toMatch(/\[warning\]|\[error\]/);
  expect(modules.map((m) => m.name).sort()).toEqual([
    'community-server-sdk',
    'community-server-sdk/core',
    'community-server-sdk/mcp',
    'community-server-sdk/mock',
    'community-server-sdk/mock/browser',
    'community-server-sdk/mock/node',
    'community-server-sdk/mock/remote',
    'community-server-sdk/otel',
    'community-server-sdk/query',
    'community-server-sdk/redis',
    'community-server-sdk/schemas',
    'community-server-sdk/webhooks',
  ]);
});

it('every entry point has an example, and every exported symbol a doc comment', () => {
  expect(modules.filter((module) => !hasExample(module.comment)).map((module) => module.name)).toEqual([]);
  expect(
    symbols()
      .filter(({ symbol }) => !hasText(commentOf(symbol)))
      .map(({ module, symbol }) => `${module}: ${symbol.name}`),
  ).toEqual([]);
});

it('every function, class and type has an example, and so does every method a caller calls', () => {
  const missing: string[] = [];
  for (const { module, symbol } of symbols()) {
    if (exemplified.has(symbol.kind) && !hasExample(commentOf(symbol))) missing.push(`${module}: ${symbol.name}`);
    for (const method of symbol.children ?? []) {
      if (method.kind !== Kind.Method || method.inheritedFrom || protocol.has(method.name)) continue;
      if (!hasExample(commentOf(method))) missing.push(`${module}: ${symbol.name}.${method.name}`);
    }
  }
  expect(missing).toEqual([]);
});

it('no example is boilerplate: none recurs on more than two symbols with only their names changed', () => {
  const owners = new Map<string, string[]>();
  for (const { symbol } of symbols()) {
    // The symbol's name and its stem in camel case (`MemberSchema`, `member`) become one mark.
    const stem = symbol.name.replace(/Schema$/, '');
    const names = new RegExp(`\\b(${symbol.name}|${stem}|${stem.charAt(0).toLowerCase()}${stem.slice(1)})\\b`, 'g');
    for (const example of examplesOf(commentOf(symbol))) {
      const shape = example.replace(names, '<name>');
      owners.set(shape, [...(owners.get(shape) ?? []), symbol.name]);
    }
  }
  expect([...owners.values()].filter((names) => names.length > 2)).toEqual([]);
  expect(owners.size).toBeGreaterThan(100); // the examples were read
});

it('every member is documented, but for the spec’s field lists and Error#name', () => {
  const missing: string[] = [];
  const visit = (owner: string, r: Reflection, inSchemas: boolean) => {
    for (const child of r.children ?? []) {
      const name = `${owner}.${child.name}`;
      const specField = inSchemas && child.kind === Kind.Property && !owner.endsWith('.PageEnvelope');
      const errorName = child.kind === Kind.Property && child.name === 'name' && /Error$/.test(owner);
      if (members.has(child.kind) && !child.inheritedFrom && !specField && !errorName && !hasText(commentOf(child))) missing.push(name);
      visit(name, child, inSchemas);
    }
  };
  for (const module of modules) visit(module.name, module, module.name === 'community-server-sdk/schemas');
  expect(missing).toEqual([]);
});
