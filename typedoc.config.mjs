// `npm run docs`: the API reference of every entry point, into docs/api/. Any warning fails it.
/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'community-server-sdk',
  entryPoints: [
    'src/index.ts',
    'src/schemas/index.ts',
    'mocks/index.ts',
    'mocks/node.ts',
    'mocks/browser.ts',
    'mocks/remote.ts',
    'src/redis.ts',
    'src/otel.ts',
    'src/query.ts',
    'src/core.ts',
    'src/webhooks.ts',
    'src/mcp.ts',
  ],
  tsconfig: 'tsconfig.docs.json',
  // The JSON model is what test/docs/docs.test.ts reads to check every symbol has an example.
  outputs: [
    { name: 'html', path: 'docs/api' },
    { name: 'json', path: 'docs/api/reference.json' },
  ],
  readme: 'none',
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  // Source links would need a public repository URL; the reference stands on its own.
  disableSources: true,
  treatWarningsAsErrors: true,
  validation: { notExported: true, invalidLink: true, notDocumented: true },
  // The query entry's tree is mapped from the client's endpoint table: `Queries` documents what it
  // gives; the mapping's own steps and the table's type are not API to look up.
  // So are the steps of `queries(core, tree)`'s types (`CoreTree`, `CoreQueries`), and the line
  // type they read a function's endpoint from.
  intentionallyNotExported: [
    'src/query/types.ts:QueryTree',
    'src/query/types.ts:Paths',
    'src/resources/index.ts:Resources',
    'src/query/types.ts:Selected',
    'src/query/types.ts:CoreKeyPrefix',
    'src/core/endpoint.ts:Endpoint',
  ],
  // Properties are left out here only because the resource types carry the spec's field lists
  // (Part 2), whose meanings the spec does not give; test/docs/docs.test.ts requires a comment on
  // every other property, and an example on every exported symbol.
  requiredToBeDocumented: ['Enum', 'Variable', 'Function', 'Class', 'Interface', 'TypeAlias', 'Method', 'Accessor'],
};
