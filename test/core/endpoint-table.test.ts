/**
 * The endpoint table's shape (issue 31): one description per client method, each carrying its
 * dotted name, method, path template, path parameters with their kinds, response kind and
 * schema, body schema, auth flag, and a list's watch keys and item GET; `allEndpoints()` gives
 * all 64 in the spec's order; and each description is a top-level binding of its module, so a
 * bundle that imports one holds that one and its schemas alone (read from esbuild's output).
 */
import { readdirSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import * as schemas from 'community-server-sdk/schemas';
import { apiRequests } from '../../scripts/openapi/requests';
import { endpointsOf, type Endpoint } from '../../src/core/endpoint';
import { allEndpoints } from '../../src/resources/catalog';
import { resources } from '../../src/resources/index';

const resourcesDir = new URL('../../src/resources/', import.meta.url).pathname;
const groupModules = await Promise.all(
  readdirSync(resourcesDir).map((file) => import(`../../src/resources/${file}`) as Promise<Record<string, unknown>>),
);

/** `cad.unitGroups.get` → `cadUnitGroupsGet`: the binding's name, and the `/core` function's. */
const camel = (name: string) => name.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase());

/** Every top-level binding of the group modules that is a description, by binding name. */
const bindings = new Map(
  groupModules.flatMap((module) =>
    Object.entries(module).filter((entry): entry is [string, Endpoint] => allEndpoints().includes(entry[1] as Endpoint)),
  ),
);

/** The names of the schema objects `community-server-sdk/schemas` exports (`MemberSchema`, …). */
const schemaNames = Object.entries(schemas)
  .filter(([, value]) => value instanceof z.ZodMiniType)
  .map(([name]) => name);

/** The text of an unminified bundle of `source` (an ES module importing from src/resources), and its inputs. */
async function bundle(source: string): Promise<{ text: string; inputs: string[] }> {
  const result = await build({
    stdin: { contents: source, resolveDir: resourcesDir, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    metafile: true,
    external: ['zod', 'zod/*'],
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs);
  const inputs = Object.entries(output!.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path)
    .sort();
  return { text: result.outputFiles[0]!.text, inputs };
}

/** The schema objects a bundle's text defines (`var MemberSchema = …`). */
const schemasIn = (text: string) => schemaNames.filter((name) => new RegExp(`\\bvar ${name} =`).test(text));
/** The descriptions a bundle's text defines, by dotted name (each line's call names it first). */
const descriptionsIn = (text: string) => allEndpoints().filter((endpoint) => new RegExp(`\\(\\s*"${endpoint.name}",`).test(text));

describe('the endpoint table', () => {
  const endpoints = allEndpoints();

  it('allEndpoints() gives one description per method, 64, in the spec order (#1 … #64)', () => {
    expect(endpoints).toHaveLength(64);
    expect(new Set(endpoints).size).toBe(64);
    // The request numbers are the doc comments' (`#48: one member.`), read by the OpenAPI generator.
    expect(endpoints.map((endpoint) => endpoint.name)).toEqual(apiRequests().map((request) => request.name));
  });

  it("each description's name is its dotted place in the client's namespaces", () => {
    expect(endpointsOf(resources).map(({ name, endpoint }) => [name, endpoint.name])).toEqual(
      endpoints.map((endpoint) => [endpoint.name, endpoint.name]),
    );
  });

  it('each description is a top-level export of its module, named as its /core function', () => {
    expect([...bindings.keys()].sort()).toEqual(endpoints.map((endpoint) => camel(endpoint.name)).sort());
    for (const endpoint of endpoints) expect(bindings.get(camel(endpoint.name))).toBe(endpoint);
  });

  it('params are the path template parameters in order, int32 only for groupId and unitId', () => {
    for (const endpoint of endpoints) {
      const named = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(endpoint.params.map((param) => param.name)).toEqual(named);
      expect(endpoint.parts.filter((part) => typeof part !== 'string')).toEqual(endpoint.params);
      expect(endpoint.parts.map((part) => (typeof part === 'string' ? part : `{${part.name}}`)).join('')).toBe(endpoint.path);
    }
    const int32 = endpoints.flatMap((endpoint) => endpoint.params.filter((param) => param.kind === 'int32').map((param) => param.name));
    expect([...new Set(int32)].sort()).toEqual(['groupId', 'unitId']);
  });

  it('kinds, schemas, bodies, auth, watch keys and item GETs say what each request is', () => {
    for (const endpoint of endpoints) {
      const { name, kind, schema, body, method, auth, watch, itemGet } = endpoint;
      expect(['json', 'page', 'text'], name).toContain(kind);
      if (kind === 'text') expect(schema, name).toBeUndefined();
      else expect(schema, name).toBeInstanceOf(z.ZodMiniType);
      // A list's schema is the page envelope around its items.
      const fields = kind === 'page' ? Object.keys((schema as z.ZodMiniObject).shape).sort() : undefined;
      if (fields) expect(fields, name).toEqual(['data', 'page', 'pageSize', 'total', 'totalPages']);
      expect(body !== undefined, name).toBe(method === 'POST');
      expect(auth, name).toBe(!name.startsWith('health.'));
      expect(watch !== undefined, name).toBe(kind === 'page');
      if (itemGet) {
        expect(kind, name).toBe('page');
        expect(endpoints, name).toContain(itemGet);
        expect(itemGet.kind, name).toBe('json');
      }
    }
    expect(endpoints.filter((endpoint) => endpoint.kind === 'page')).toHaveLength(29);
    expect(endpoints.filter((endpoint) => endpoint.method !== 'GET').map((endpoint) => endpoint.name)).toEqual([
      'tokens.create',
      'tokens.deactivate',
    ]);
  });

  describe('a bundle holds only the descriptions it imports, and their schemas', () => {
    it('membersGet alone: that line and MemberSchema', async () => {
      const { text, inputs } = await bundle(`export { membersGet } from './members';`);
      expect(descriptionsIn(text).map((endpoint) => endpoint.name)).toEqual(['members.get']);
      expect(schemasIn(text)).toEqual(['MemberSchema']);
      expect(inputs.filter((input) => input.includes('src/resources/'))).toEqual(['src/resources/members.ts', 'src/resources/schemas.ts']);
    });

    it('membersList, membersGet and serverInfo: those three lines (the list names its item get) and two schemas', async () => {
      const { text } = await bundle(`export { membersGet, membersList } from './members'; export { serverInfo } from './server';`);
      expect(
        descriptionsIn(text)
          .map((endpoint) => endpoint.name)
          .sort(),
      ).toEqual(['members.get', 'members.list', 'server.info']);
      expect(schemasIn(text).sort()).toEqual(['MemberSchema', 'ServerInfoSchema']);
    });

    it('the check can fail: the whole table holds every line and schema', async () => {
      const { text } = await bundle(`export { resources } from './index';`);
      expect(descriptionsIn(text)).toHaveLength(64);
      expect(schemasIn(text).length).toBeGreaterThan(25);
    });
  });
});
