/**
 * Whether an answer of the mock is one openapi.json declares: its status, media type, body schema
 * (ajv's draft 2020-12 validator) and header schemas. Shared by the document's own suite and the
 * fidelity suite, which sends malformed requests too.
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import { openApiFile, type OpenApiDocument, type ResponseObject } from '../../scripts/openapi/document';
import type { JsonSchema } from '../../scripts/openapi/json-schema';
import type { Endpoint } from '../../src/core/endpoint';

/** openapi.json as committed. */
export const committed = readFileSync(openApiFile, 'utf8');
export const committedDocument = JSON.parse(committed) as OpenApiDocument;

/** A response as received: status, media type (no parameters), headers, and the body parsed by its media type. */
export interface Received {
  status: number;
  mediaType: string;
  headers: Headers;
  body: unknown;
}

export async function receive(response: Response): Promise<Received> {
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const text = await response.text();
  return {
    status: response.status,
    mediaType,
    headers: response.headers,
    body: mediaType === 'application/json' ? JSON.parse(text) : text,
  };
}

/** The request path of `endpoint` with its path parameters taken from `args`, in order, percent-encoded. */
export function pathOf(endpoint: Endpoint, args: readonly unknown[]): string {
  const values = [...args];
  return endpoint.parts.map((part) => (typeof part === 'string' ? part : encodeURIComponent(String(values.shift())))).join('');
}

/** A JSON Pointer segment in a URI fragment: `~` and `/` escaped (RFC 6901), then percent-encoded. */
const segment = (key: string) => encodeURIComponent(key.replaceAll('~', '~0').replaceAll('/', '~1'));

/** A header's text as the value its schema types: `Retry-After: 30` is the integer 30. */
const headerValue = (text: string, schema: JsonSchema) => (schema.type === 'integer' || schema.type === 'number' ? Number(text) : text);

/** The checks against `doc` (the committed document, or a changed copy to show a check can fail). */
export function conformance(doc: OpenApiDocument) {
  const DOC_ID = 'openapi.json';
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  // The OpenAPI formats of the document's integers; ajv knows neither, and strict mode refuses unknown formats.
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  // The whole document, so that a schema compiled from inside it resolves its `#/components/…` refs.
  // Its top-level fields are no JSON Schema keywords: declared as such, strict mode lets them be.
  ajv.addVocabulary(Object.keys(doc));
  ajv.addSchema(doc, DOC_ID);

  /** The validator of the schema at `pointer` in the document (ajv caches it). */
  function schemaAt(pointer: string) {
    const validate = ajv.getSchema(`${DOC_ID}#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate;
  }

  function operationOf(endpoint: Endpoint) {
    const operation = doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
    if (!operation) throw new Error(`${endpoint.method} ${endpoint.path} is not in openapi.json`);
    return operation;
  }

  /** The response the document declares for `status`, and its JSON Pointer (`#/components/responses/…` when shared). */
  function declaredResponse(endpoint: Endpoint, status: number): { response: ResponseObject; pointer: string } | undefined {
    const declared = operationOf(endpoint).responses[String(status)];
    if (!declared) return undefined;
    if (!('$ref' in declared)) {
      return { response: declared, pointer: `/paths/${segment(endpoint.path)}/${endpoint.method.toLowerCase()}/responses/${status}` };
    }
    const name = declared.$ref.split('/').at(-1)!;
    return { response: doc.components.responses[name]!, pointer: declared.$ref.slice(1) };
  }

  /**
   * What is wrong with `received` as an answer to `endpoint`, by the document: an undeclared
   * status or media type, the body's ajv errors against the declared schema, a declared header
   * that does not match its schema. Empty when it conforms.
   */
  function nonConformities(endpoint: Endpoint, received: Received): string[] {
    const label = `${endpoint.method} ${endpoint.path} ${received.status}`;
    const declared = declaredResponse(endpoint, received.status);
    if (!declared) return [`${label}: status not declared`];
    const { response, pointer } = declared;
    if (!response.content?.[received.mediaType]) return [`${label}: media type ${received.mediaType || '(none)'} not declared`];
    const validate = schemaAt(`${pointer}/content/${segment(received.mediaType)}/schema`);
    const problems = validate(received.body)
      ? []
      : validate.errors!.map((e) => `${label}: body${e.instancePath} ${e.message} (${e.schemaPath})`);
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const text = received.headers.get(name);
      const check = schemaAt(`${pointer}/headers/${segment(name)}/schema`);
      if (text !== null && !check(headerValue(text, header.schema))) {
        problems.push(`${label}: header ${name} ${ajv.errorsText(check.errors)}`);
      }
    }
    return problems;
  }

  return { operationOf, declaredResponse, nonConformities };
}
