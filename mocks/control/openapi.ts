/**
 * The control API described as an OpenAPI 3.1 document (`GET /__mock/openapi.json`), built from
 * the operations table, so the description cannot drift from what the routes check and answer.
 * @module
 */
import * as z from 'zod/mini';
import { ErrorResponseSchema } from '../../src/schemas/common';
import { MAX_BODY_BYTES } from '../replies';
import type { ControlOperation } from './operations';

type JsonSchema = Record<string, unknown>;

/** A zod schema as the JSON Schema (draft 2020-12) OpenAPI 3.1 embeds; `$schema` is the document's, not each schema's. */
function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorContent = { 'application/json': { schema: ERROR_REF } };

/** The failures every route shares, the one of the routes that read a body or query, and the one of a body too large. */
const shared = {
  '401': { description: 'No admin token, or not this mock’s: `Authorization: Bearer <admin token>`.', content: errorContent },
  '400': { description: 'A body or query the route refuses; the message names the field.', content: errorContent },
  '413': {
    description: `A request body over ${MAX_BODY_BYTES} bytes (1 MiB); the connection is closed.`,
    content: errorContent,
  },
};

/** What a method the path does not have answers: declared once, as no operation stands for it. */
const METHOD_NOT_ALLOWED = {
  description: 'A method the path does not have; `Allow` lists those it has (HEAD beside each GET).',
  headers: { Allow: { description: 'The methods of the path, e.g. `GET, HEAD, DELETE`.', schema: { type: 'string' } } },
  content: errorContent,
};

/** The query's fields as OpenAPI parameters, from the query's object schema. */
function queryParameters(query: z.ZodMiniType | undefined): object[] {
  if (!query) return [];
  const { properties = {} } = jsonSchema(query, 'input') as { properties?: Record<string, JsonSchema> };
  return Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: false, schema }));
}

const pathParameters = (path: string): object[] =>
  [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));

function describeOperation(operation: ControlOperation): object {
  const reads = operation.body !== undefined || operation.query !== undefined;
  const success =
    operation.status === 204
      ? { description: 'Done.' }
      : {
          description: 'Done; the answer.',
          content: { 'application/json': { schema: operation.answer ? jsonSchema(operation.answer, 'output') : { type: 'object' } } },
        };
  const parameters = [...pathParameters(operation.path), ...queryParameters(operation.query)];
  return {
    operationId: operation.id,
    summary: operation.summary,
    ...(parameters.length ? { parameters } : {}),
    ...(operation.body
      ? { requestBody: { required: false, content: { 'application/json': { schema: jsonSchema(operation.body, 'input') } } } }
      : {}),
    responses: {
      [operation.status]: success,
      ...(reads ? { '400': shared['400'] } : {}),
      '401': shared['401'],
      ...(operation.path.includes('{') ? { '404': { description: 'Nothing at that path.', content: errorContent } } : {}),
      // The HTTP server reads the body of every method but GET (and HEAD), the route's or not.
      ...(operation.method === 'GET' ? {} : { '413': shared['413'] }),
    },
  };
}

/** The OpenAPI 3.1 document of `operations`. */
export function describeControlApi(operations: readonly ControlOperation[]): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const operation of operations) (paths[operation.path] ??= {})[operation.method.toLowerCase()] = describeOperation(operation);
  return {
    openapi: '3.1.0',
    info: {
      title: 'community-server-mock control API',
      version: '1',
      description:
        'Drives the Community Server mock served by startMockHttpServer and the bin community-server-mock, from any language: the same mock that mock.* drives in-process. Every route needs the admin token. HEAD is answered beside each GET, without the body. An unknown route is a 404; a method its path does not have is a 405 with `Allow` (`#/components/responses/MethodNotAllowed`).',
    },
    security: [{ adminToken: [] }],
    paths,
    components: {
      securitySchemes: {
        adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token: `http.adminToken`, printed by the bin as "admin".' },
      },
      responses: { MethodNotAllowed: METHOD_NOT_ALLOWED },
      schemas: {
        // The API's own error body, the one schema both documents and the client read it by.
        Error: jsonSchema(ErrorResponseSchema, 'output'),
      },
    },
  };
}
