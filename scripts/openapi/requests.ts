/**
 * The 64 requests as the generator sees them: each endpoint of the SDK's resource table, with
 * what its source line says (request number, doc comment, schema names).
 * @module
 */
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { endpointsOf, type Endpoint } from '../../src/core/endpoint';
import { resources } from '../../src/resources/index';
import * as named from '../../src/resources/schemas';
import { resourceLines, sourceFiles, type ResourceLine } from './source-docs';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const resourcesDir = `${repositoryRoot}src/resources`;
/** The resource tables' files: all of src/resources but the index and the schema names. */
export const resourceFiles = () => sourceFiles(resourcesDir, ['index.ts', 'schemas.ts']);

/** The schemas the resource lines pass, by the name they pass them by (`Member`, `Token`…). */
export const namedSchemas: Readonly<Record<string, z.ZodMiniType>> = named;

/** One request of the API. */
export interface ApiRequest {
  /** The SDK's name for it, e.g. `cad.calls.list` (`client.cad.calls.list()`). */
  name: string;
  /** Its number in the spec's table (Part 4) and in its doc comment. */
  number: number;
  /** Its doc comment without the number, e.g. `one member.` */
  doc: string;
  endpoint: Endpoint;
  /** Name of the success body's schema: the item's for a list; absent for plain text. */
  schemaName: string | undefined;
  /** Name of the request body's schema, for the request that sends one. */
  bodyName: string | undefined;
}

/** The item schema of a page envelope (`PageSchema(item)`). */
function pageItem(schema: z.ZodMiniType | undefined): unknown {
  const data = schema instanceof z.ZodMiniObject ? schema.shape['data'] : undefined;
  return data instanceof z.ZodMiniArray ? data.def.element : undefined;
}

/**
 * The schema names of `line`, checked against the endpoint: the source and the runtime table
 * must agree, or the document would describe a request the SDK does not make.
 */
function schemaNames(name: string, line: ResourceLine, endpoint: Endpoint) {
  const fail = (what: string) => new Error(`${name}: ${what} (${line.path})`);
  if (line.path !== endpoint.path) throw fail(`the source line's path is not the endpoint's ${endpoint.path}`);
  const names = line.identifiers.filter((identifier) => Object.hasOwn(namedSchemas, identifier));
  const [bodyName, schemaName] = endpoint.body ? names : [undefined, ...names];
  const success = endpoint.kind === 'page' ? pageItem(endpoint.schema) : endpoint.schema;
  if (schemaName === undefined ? success !== undefined : namedSchemas[schemaName] !== success) {
    throw fail('its schema is not the one the source names');
  }
  if (bodyName !== undefined && namedSchemas[bodyName] !== endpoint.body) throw fail('its body schema is not the one the source names');
  return { schemaName, bodyName };
}

/** The 64 requests, in the spec's order (by number). */
export function apiRequests(): ApiRequest[] {
  const lines = resourceLines(resourceFiles());
  return endpointsOf(resources)
    .map(({ name, endpoint }) => {
      const line = lines.get(name);
      if (!line) throw new Error(`${name}: no resource line for it in ${resourcesDir}`);
      const numbered = /^#(\d+):\s*(.+)$/s.exec(line.doc);
      if (!numbered) throw new Error(`${name}: its doc comment does not start with the request number ("#48: …")`);
      return { name, number: Number(numbered[1]), doc: numbered[2]!, endpoint, ...schemaNames(name, line, endpoint) };
    })
    .sort((a, b) => a.number - b.number);
}
