/**
 * The API reference: `npm run docs` builds with no warning (typedoc treats them as errors), and
 * its model shows every exported symbol with a doc comment and an example, and every member
 * documented, save the resource types' field lists (spec Part 2 names those fields but gives no
 * meanings) and `Error#name`.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

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
const Kind = { Module: 2, Variable: 32, Function: 64, Class: 128, Interface: 256, Property: 1024, Method: 2048, Accessor: 262144, TypeAlias: 2097152 };
const topLevel = new Set([Kind.Variable, Kind.Function, Kind.Class, Kind.Interface, Kind.TypeAlias]);
const members = new Set([Kind.Property, Kind.Method, Kind.Accessor]);

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
const hasExample = (c: Comment | undefined) => !!c?.blockTags?.some((tag) => tag.tag === '@example');

it('builds with no warning', () => {
  expect(output, output).not.toMatch(/\[warning\]|\[error\]/);
  expect(modules.map((m) => m.name).sort()).toEqual(['community-server-sdk', 'community-server-sdk/mock', 'community-server-sdk/mock/browser', 'community-server-sdk/mock/node', 'community-server-sdk/redis', 'community-server-sdk/schemas']);
});

it('every exported symbol has a doc comment and an example', () => {
  const missing: string[] = [];
  for (const module of modules) {
    if (!hasExample(module.comment)) missing.push(`${module.name} (the module)`);
    for (const symbol of module.children ?? []) {
      if (!topLevel.has(symbol.kind)) continue;
      const comment = commentOf(symbol);
      if (!hasText(comment) || !hasExample(comment)) missing.push(`${module.name}: ${symbol.name}`);
    }
  }
  expect(missing).toEqual([]);
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
