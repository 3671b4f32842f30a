/**
 * The OpenAPI 3.1 document of the API, built from the SDK's resource table and zod schemas:
 * one operation per request, its parameters, body and every status the spec gives it.
 * @module
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import type { Endpoint } from '../../src/core/endpoint';
import type { PathPart } from '../../src/core/types';
import { resources } from '../../src/resources/index';
import { ErrorResponseSchema, int32, int64, looseObject, PageSchema, str } from '../../src/schemas/common';
import { componentRef, componentSchemas, inlineSchema, type Component, type JsonSchema } from './json-schema';
import { apiRequests, namedSchemas, repositoryRoot, resourceFiles, type ApiRequest } from './requests';
import { exportedConsts, sourceFiles } from './source-docs';
import { notFoundReasons, unavailableReasons } from './spec-statuses';
import { MAX_PAGE_SIZE } from '../../mocks/engine/api/paging';
import { MAX_BODY_BYTES } from '../../mocks/engine/replies';
import { listOrders, type ListOrder } from '../readme/orders';

export interface Reference {
  $ref: string;
}
export interface MediaType {
  schema: JsonSchema;
}
export interface Header {
  description: string;
  schema: JsonSchema;
}
export interface ResponseObject {
  description: string;
  headers?: Record<string, Header>;
  content?: Record<string, MediaType>;
}
export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}
export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security?: [];
  parameters?: (Parameter | Reference)[];
  requestBody?: { required: true; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject | Reference>;
}
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string }[];
  security: Record<string, []>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; description: string }>;
    parameters: Record<string, Parameter>;
    responses: Record<string, ResponseObject>;
    schemas: Record<string, JsonSchema>;
  };
}

const SPEC_VERSION = '2.0.0';
const BEARER = 'bearerAuth';
const JSON_TYPE = 'application/json';
const TEXT_TYPE = 'text/plain';

const schemaRef = (name: string): JsonSchema => ({ $ref: componentRef(name) });
const json = (name: string) => ({ [JSON_TYPE]: { schema: schemaRef(name) } });
const pageName = (item: string) => `${item}Page`;

/** The error bodies: the spec's object shape, and for 401/403 also `{"error":"text"}` (Part 7). */
const TextErrorResponse = looseObject({ error: str });
const errorComponents: Component[] = [
  {
    name: 'ErrorResponse',
    schema: ErrorResponseSchema,
    description: 'The error body: `{"error":{"code","message","details"}}` (spec Part 7).',
  },
  {
    name: 'TextErrorResponse',
    schema: TextErrorResponse,
    description: 'The error body as plain text, `{"error":"text"}`: spec Part 7 shows it for 401 and 403.',
  },
  {
    name: 'AuthErrorResponse',
    schema: z.xor([ErrorResponseSchema, TextErrorResponse]),
    description: 'The body of a 401 or 403: either error shape (spec Part 7: a client must accept both).',
  },
];

/** Reusable responses: the same on every authenticated request. */
const sharedResponses: Record<string, ResponseObject> = {
  Unauthorized: {
    description:
      'Missing, invalid, expired or revoked token (spec Part 5 items 5 and 6). Repeated failures may suspend the token for a while (item 8).',
    content: json('AuthErrorResponse'),
  },
  Forbidden: {
    description: 'The token lacks the permission the request needs (spec Part 5 item 7; which permission each request needs is not shown).',
    content: json('AuthErrorResponse'),
  },
  PayloadTooLarge: {
    description: `A request body over ${MAX_BODY_BYTES} bytes (1 MiB). The spec shows no limit; the SDK's HTTP mock (\`startMockHttpServer\`, the bin) reads no more of any request that may carry a body, and closes the connection.`,
    content: json('ErrorResponse'),
  },
  TooManyRequests: {
    description:
      "The token's rate limit is spent. The spec enforces limits per server token but does not show the response (Part 8); this is the SDK mock's.",
    headers: { 'Retry-After': { description: 'Seconds until the next request may be made.', schema: { type: 'integer', minimum: 0 } } },
    content: json('ErrorResponse'),
  },
};

const queryParameter = (name: string, description: string, schema: z.ZodMiniType): Parameter => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: inlineSchema(schema),
});
const pageSize = int64.check(z.gte(1), z.lte(MAX_PAGE_SIZE));
/** When the mock answers 400 for a paging parameter, `wrong` saying what is out of bounds. */
const refused = (wrong: string) => `A 400 when ${wrong}, empty, or given twice.`;

/**
 * The paging parameters every list request shares (spec Part 4: all optional; its defaults and
 * limits are not shown, so these are the mock's: a page size of 10, at most 100). `orderBy` is
 * not among them: each list orders by its own fields, see {@link orderByParameter}.
 */
const pagingParameters: Record<string, Parameter> = Object.fromEntries(
  [
    queryParameter('page', `1-based page number (default 1). ${refused('below 1')}`, int64.check(z.gte(1))),
    queryParameter('pageSize', `Items per page (default 10). ${refused(`outside 1–${MAX_PAGE_SIZE}`)}`, pageSize),
    queryParameter(
      'limit',
      `Items per page, like \`pageSize\`, which wins when both are given. ${refused(`outside 1–${MAX_PAGE_SIZE}`)}`,
      pageSize,
    ),
    queryParameter(
      'sort',
      `Order direction; the default is the list's own (see \`orderBy\`). ${refused('not one of these')}`,
      z.enum(['asc', 'desc']),
    ),
  ].map((parameter) => [parameter.name, parameter]),
);

/** A list's `orderBy`: the fields it orders by, as the mock's 400 for an unknown one says them. */
function orderByParameter(order: ListOrder): Parameter {
  const aliases = Object.entries(order.aliases).map(([alias, field]) => ` \`${alias}\` stands for \`${field}\`.`);
  const description = `Field to order by (default \`${order.orderBy}\`, ${order.sort}).${aliases.join('')} ${refused('not one of these')}`;
  return queryParameter('orderBy', description, z.enum(order.accepted as [string, ...string[]]));
}

const info = (version: string, license: string): OpenApiDocument['info'] => ({
  title: 'Community Server Data API',
  version,
  license: { name: license, identifier: license },
  description: [
    `The Community Server Data API, as described by its interface description version ${SPEC_VERSION}. Generated from the zod schemas of community-server-sdk ${version} (\`npm run openapi\`); \`info.version\` is the SDK's version.`,
    'Responses may carry fields beyond those listed: every response object accepts unknown fields, as the SDK does. Fields whose type the spec leaves open have no type here. Integers carry the width the spec gives them as `format` (`int32`, `int64`).',
    "Statuses: each request lists its success and the error statuses the spec gives it (Part 4; and Part 7's 404 for the server #1 addresses and the application #5 lists the responses of), plus 401 and 403 on every request that needs a token (Part 5: all but the four health probes). 401 and 403 bodies come in either error shape (Part 7). 429 with `Retry-After` is documented on requests that need a token: the spec enforces rate limits per token without showing the response (Part 8), and the SDK's mock answers 429 with `Retry-After` when rate limiting is on. 400 is documented on the 29 list requests and the two requests with an integer id: the spec gives a 400 only to an invalid token request (Part 7), but the SDK's mock refuses a paging parameter out of range (`page` below 1, `pageSize` or `limit` outside 1–100), an `orderBy` or `sort` the list does not know, an empty or repeated paging parameter, and an id that is not a 32-bit integer, so a client generated from this document meets no status it omits. 413 is documented on the requests that may carry a body (POST and DELETE): the SDK's HTTP mock refuses one over 1 MiB. Paging limits and each list's `orderBy` values are the mock's (the spec shows neither, Part 8).",
  ].join('\n\n'),
});

/** `cad.calls.list` → `cadCallsList`. */
const operationId = (name: string) => name.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase());

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The doc comment's first clause: `#56: creates a token; the answer shows…` → `Creates a token`. */
const summary = (request: ApiRequest) => capitalized(request.doc.split(/[.;](?:\s|$)/)[0]!);

function pathParameter(part: Exclude<PathPart, string>): Parameter {
  return { name: part.name, in: 'path', required: true, schema: inlineSchema(part.kind === 'int32' ? int32 : str) };
}

/** The body of a success (and of a 503 on the probes, which answer the same shape). */
function successContent({ endpoint, schemaName }: ApiRequest): Record<string, MediaType> {
  if (schemaName === undefined) return { [TEXT_TYPE]: { schema: { type: 'string' } } };
  return json(endpoint.kind === 'page' ? pageName(schemaName) : schemaName);
}

/** A POST creates: the spec's one POST (#56) answers 201, everything else 200. */
const successStatus = (endpoint: Endpoint) => (endpoint.method === 'POST' ? '201' : '200');

/**
 * Why `endpoint` may answer 400, or `undefined` when it never does. The spec gives a 400 only to
 * #56's body (Part 7); the mock also refuses a list's paging parameters and an int32 path
 * parameter it cannot read, and a generated client must not meet a status the document omits.
 */
function invalidRequest(endpoint: Endpoint): string | undefined {
  if (endpoint.body) return 'Invalid request body (spec Part 7): the message names each field and its problem.';
  const reasons = [
    ...(endpoint.kind === 'page' ? ['a paging parameter out of range, unknown, empty or given twice'] : []),
    ...endpoint.parts.flatMap((part) =>
      typeof part !== 'string' && part.kind === 'int32' ? [`\`${part.name}\` not a 32-bit integer`] : [],
    ),
  ];
  return reasons.length
    ? `Invalid parameter: ${reasons.join('; ')}. The spec does not show this status; the SDK's mock answers it, and \`details.parameter\` names the parameter.`
    : undefined;
}

function responses(request: ApiRequest): Operation['responses'] {
  const { endpoint, number } = request;
  const all: Operation['responses'] = {
    [successStatus(endpoint)]: { description: summary(request), content: successContent(request) },
  };
  const invalid = invalidRequest(endpoint);
  if (invalid) all['400'] = { description: invalid, content: json('ErrorResponse') };
  if (endpoint.auth) {
    all['401'] = { $ref: '#/components/responses/Unauthorized' };
    all['403'] = { $ref: '#/components/responses/Forbidden' };
  }
  const notFound = notFoundReasons[number];
  if (notFound) all['404'] = { description: `Not found: ${notFound}.`, content: json('ErrorResponse') };
  // Every method but GET may carry a body, which the HTTP mock reads and limits (HEAD is GET's).
  if (endpoint.method !== 'GET') all['413'] = { $ref: '#/components/responses/PayloadTooLarge' };
  if (endpoint.auth) all['429'] = { $ref: '#/components/responses/TooManyRequests' };
  const unavailable = unavailableReasons[number];
  if (unavailable) all['503'] = { description: unavailable, content: successContent(request) };
  return all;
}

const paging = (key: string): Reference => ({ $ref: `#/components/parameters/${key}` });

/** A list's query parameters, in the order the SDK's `params` name them. */
const listParameters = (order: ListOrder): (Parameter | Reference)[] => [
  paging('page'),
  paging('pageSize'),
  paging('limit'),
  orderByParameter(order),
  paging('sort'),
];

function operation(request: ApiRequest, order: ListOrder | undefined): Operation {
  const { endpoint, name } = request;
  const pathParameters = endpoint.parts.filter((part) => typeof part !== 'string').map(pathParameter);
  const args = [...pathParameters.map((p) => p.name), ...(endpoint.kind === 'page' ? ['params'] : []), ...(endpoint.body ? ['body'] : [])];
  if ((endpoint.kind === 'page') !== (order !== undefined)) throw new Error(`${name}: a list needs its order, and only a list has one`);
  const parameters = [...pathParameters, ...(order ? listParameters(order) : [])];
  return {
    operationId: operationId(name),
    summary: summary(request),
    description: `${capitalized(request.doc)}\n\nRequest #${request.number} of the spec. SDK: \`client.${name}(${args.join(', ')})\`.`,
    tags: [name.split('.')[0]!],
    ...(endpoint.auth ? {} : { security: [] }),
    ...(parameters.length ? { parameters } : {}),
    ...(request.bodyName ? { requestBody: { required: true, content: json(request.bodyName) } } : {}),
    responses: responses(request),
  };
}

/** One tag per namespace of the client, described by the namespace's doc comment. */
function tags(): OpenApiDocument['tags'] {
  const namespaces = exportedConsts(resourceFiles());
  return Object.keys(resources).map((name) => ({ name, description: namespaces.get(name)?.doc ?? '' }));
}

/** Every schema the operations refer to, by name, described by the SDK's doc comment of it. */
function schemas(requests: readonly ApiRequest[]): Record<string, JsonSchema> {
  const docs = exportedConsts(sourceFiles(`${repositoryRoot}src/schemas`));
  const describe = (name: string) => docs.get(`${name}Schema`)?.doc;
  const component = (name: string): Component => ({ name, schema: namedSchemas[name]!, description: describe(name) });
  const unique = (names: (string | undefined)[]) => [...new Set(names.filter((n): n is string => n !== undefined))].sort();

  const responseNames = unique(requests.map((r) => r.schemaName));
  const itemNames = unique(requests.filter((r) => r.endpoint.kind === 'page').map((r) => r.schemaName));
  const pages = itemNames.map((item) => ({
    name: pageName(item),
    schema: PageSchema(namedSchemas[item]!),
    description: `A page of ${item} items: the envelope of every list response (spec Part 2).`,
  }));
  const output = componentSchemas([...responseNames.map(component), ...pages, ...errorComponents], 'output');
  const input = componentSchemas(unique(requests.map((r) => r.bodyName)).map(component), 'input');
  const merged = { ...output, ...input };
  if (Object.keys(merged).length !== Object.keys(output).length + Object.keys(input).length) {
    throw new Error('a request body and a response share a schema name');
  }
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The document, built afresh from the SDK's source and, for each list's `orderBy`, the mock's. */
export async function buildOpenApi(): Promise<OpenApiDocument> {
  const pkg = JSON.parse(readFileSync(`${repositoryRoot}package.json`, 'utf8')) as { version: string; license: string };
  const requests = apiRequests();
  const orders = new Map((await listOrders()).map((order) => [order.name, order]));
  const paths: OpenApiDocument['paths'] = {};
  for (const request of requests) {
    const { path, method } = request.endpoint;
    (paths[path] ??= {})[method.toLowerCase()] = operation(request, orders.get(request.name));
  }
  return {
    openapi: '3.1.0',
    info: info(pkg.version, pkg.license),
    servers: [{ url: '/' }],
    security: [{ [BEARER]: [] }],
    tags: tags(),
    paths,
    components: {
      securitySchemes: {
        [BEARER]: { type: 'http', scheme: 'bearer', description: 'The API token: `Authorization: Bearer <token>` (spec Part 5).' },
      },
      parameters: pagingParameters,
      responses: sharedResponses,
      schemas: schemas(requests),
    },
  };
}

/** The document as `openapi.json` holds it: pretty-printed, with a final newline. */
export const renderOpenApi = async () => `${JSON.stringify(await buildOpenApi(), null, 2)}\n`;

/** Where the document is committed and shipped (`community-server-sdk/openapi.json`). */
export const openApiFile = `${repositoryRoot}openapi.json`;
