/**
 * The control API described as an OpenAPI 3.1 document (`GET /__mock/openapi.json`), built from
 * the operations table, whose schemas are JSON Schema already: the description cannot drift
 * from what the routes check and answer.
 * @module
 */
import { ErrorResponseSchema } from '../../../src/schemas/common';
import * as z from 'zod/mini';
import { MAX_BODY_BYTES } from '../../engine/replies';
import { controlApi, operationsOf, type ControlOperation } from '../../contract/operations';
import { QUERY_NULL } from '../../contract/calls';
import type { Schema } from '../../contract/schema';

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorContent = { 'application/json': { schema: ERROR_REF } };
const failure = (description: string) => ({ description, content: errorContent });

/** What a method the path does not have answers: declared once, as no operation stands for it. */
const METHOD_NOT_ALLOWED = {
  description: 'A method the path does not have; `Allow` lists those it has (HEAD beside each GET).',
  headers: { Allow: { description: 'The methods of the path, e.g. `GET, HEAD, DELETE`.', schema: { type: 'string' } } },
  content: errorContent,
};

/** A query parameter's schema: `null` is written `none` on the wire. */
const querySchema = (schema: Schema): Schema =>
  schema.enum ? { ...schema, enum: schema.enum.map((value) => (value === null ? QUERY_NULL : value)) } : schema;

function describeOperation(name: string, operation: ControlOperation): object {
  const reads = operation.body !== undefined || operation.query !== undefined || operation.params !== undefined;
  const parameters = [
    ...Object.entries(operation.params ?? {}).map(([param, schema]) => ({ name: param, in: 'path', required: true, schema })),
    ...Object.entries(operation.query?.properties ?? {}).map(([param, schema]) => ({
      name: param,
      in: 'query',
      required: false,
      schema: querySchema(schema),
    })),
  ];
  const success =
    operation.status === 204
      ? { description: 'Done.' }
      : { description: 'Done; the answer.', content: { 'application/json': { schema: operation.answer ?? { type: 'object' } } } };
  return {
    operationId: name,
    summary: operation.summary,
    ...(parameters.length ? { parameters } : {}),
    ...(operation.body ? { requestBody: { required: false, content: { 'application/json': { schema: operation.body } } } } : {}),
    responses: {
      [operation.status]: success,
      ...(reads ? { '400': failure('A body, query or path parameter the operation refuses; the message names the field.') } : {}),
      '401': failure('No admin token, or not this mock’s: `Authorization: Bearer <admin token>`.'),
      ...(operation.rootOnly ? { '403': failure('A session’s admin token: sessions are managed with the root admin token.') } : {}),
      ...(operation.params ? { '404': failure('Nothing at that path.') } : {}),
      // The HTTP server reads the body of every method but GET (and HEAD), the operation's or not.
      ...(operation.method === 'GET'
        ? {}
        : { '413': failure(`A request body over ${MAX_BODY_BYTES} bytes (1 MiB); the connection is closed.`) }),
      ...(operation === controlApi.sessions.create
        ? {
            '429': failure(
              'The server holds as many sessions as it may (`--max-sessions`, `maxSessions`), or their worlds as many rows (`maxSessionRows`); close one or raise it.',
            ),
          }
        : {}),
    },
  };
}

/** The operation that serves this document, beside the table's. */
export const describeApi: ControlOperation<[], object> = {
  method: 'GET',
  path: '/__mock/openapi.json',
  summary: 'This API, described (OpenAPI 3.1).',
  status: 200,
  args: [],
};
let document: object | undefined;
/** The document, built once for every mock and session. */
export const controlApiDocument = (): object => (document ??= describeControlApi());

/** The OpenAPI 3.1 document of the control API. */
export function describeControlApi(): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const { name, operation } of [...operationsOf(controlApi), { name: 'openapi', operation: describeApi as ControlOperation }]) {
    (paths[operation.path] ??= {})[operation.method.toLowerCase()] = describeOperation(name, operation);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'community-server-mock control API',
      version: '1',
      description:
        'Drives the Community Server mock served by startMockHttpServer and the bin community-server-mock, from any language: the same mock that mock.* drives in-process. Every route needs the admin token. A session (POST /__mock/sessions) has this whole API under its own baseUrl, opened by its own admin token. HEAD is answered beside each GET, without the body. An unknown route is a 404; a method its path does not have is a 405 with `Allow` (`#/components/responses/MethodNotAllowed`).',
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
        Error: withoutDialect(z.toJSONSchema(ErrorResponseSchema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' })),
      },
    },
  };
}

/** A schema without `$schema`: the dialect is the document's, not each schema's. */
function withoutDialect({ $schema: _dialect, ...rest }: Record<string, unknown>): object {
  return rest;
}
