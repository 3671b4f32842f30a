/**
 * The source of `src/resources/functions.ts`, the 64 functions of `community-server-sdk/core`, from
 * the endpoint table: one `export const` per request, named as its line (`membersGet`), with the
 * request's doc comment and an example of its own. `npm run core:functions` writes it;
 * test/core/core.test.ts fails while the committed file differs.
 * @module
 */
import { format, resolveConfig } from 'prettier';
import { apiRequests, repositoryRoot, type ApiRequest } from '../openapi/requests';

export const coreFunctionsFile = `${repositoryRoot}src/resources/functions.ts`;

/** `cad.unitGroups.get` → `cadUnitGroupsGet`. */
export const functionName = (name: string) => name.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase());

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The method's parameters as its signature reads: path ids, then the body or the list params, then options. */
function parameters({ endpoint, bodyName }: ApiRequest): string[] {
  return [
    ...endpoint.params.map((param) => param.name),
    ...(bodyName ? ['body'] : []),
    ...(endpoint.kind === 'page' ? ['params?'] : []),
    'options?',
  ];
}

/** A call of the function, as an example shows it. */
function example(request: ApiRequest): string {
  const { endpoint, schemaName } = request;
  const fn = functionName(request.name);
  const ids = endpoint.params.map((param) => (param.kind === 'int32' ? '7' : param.name));
  const body = request.bodyName ? ["{ name: 'ci', expiresInDays: 30 }"] : [];
  if (endpoint.kind === 'page') {
    const item = lowerFirst(schemaName!);
    return `for await (const ${item} of ${fn}(core, ${[...ids, '{ pageSize: 100 }'].join(', ')})) console.log(${item});`;
  }
  const result = endpoint.kind === 'text' ? 'text' : lowerFirst(schemaName!);
  return `const ${result} = await ${fn}(${['core', ...ids, ...body].join(', ')});`;
}

function declaration(request: ApiRequest): string {
  const fn = functionName(request.name);
  const maker = request.endpoint.kind === 'page' ? 'list' : 'one';
  const doc = request.doc.charAt(0).toUpperCase() + request.doc.slice(1);
  return [
    '/**',
    ` * #${request.number}: ${doc} \`client.${request.name}(${parameters(request).join(', ')})\` as a function of a core.`,
    ' * @example',
    ` * ${example(request)}`,
    ' */',
    `export const ${fn} = /* @__PURE__ */ ${maker}(line.${fn});`,
  ].join('\n');
}

/** The file's text, formatted as the repository formats it. */
export async function renderCoreFunctions(): Promise<string> {
  const text = [
    '/**',
    " * The API's 64 requests as functions of a core (`createCore()`), one per client method, named",
    ' * by its namespace path and method in camel case: `membersGet(core, id)` is `client.members.get(id)`.',
    ' * Generated from the endpoint table by `npm run core:functions` (scripts/core/functions.ts);',
    ' * each is its own binding, marked pure, so a bundle holds the functions it imports and their',
    ' * schemas alone.',
    ' * @module',
    ' */',
    "import { list, one } from '../core/function';",
    "import * as line from './lines';",
    '',
    ...apiRequests().map(declaration),
    '',
  ].join('\n');
  return format(text, { ...(await resolveConfig(coreFunctionsFile)), filepath: coreFunctionsFile });
}
