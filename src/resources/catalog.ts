/**
 * The whole endpoint table, for the SDK's other entries and tools (the query entry's types, the
 * command line and the MCP server, the mock, the OpenAPI generator, tests): every request of the
 * API as its {@link Endpoint} description, in the spec's order (#1 … #64).
 *
 * The contract, which those consumers build on:
 * - one description per client method; `name` is its dotted name (`cad.unitGroups.get`), the
 *   method `client.cad.unitGroups.get`, the `/core` function `cadUnitGroupsGet`, the `endpoint`
 *   of events, the mock's journal and fault rules;
 * - `method` (`GET` | `POST` | `DELETE`), `path` (the template, `{name}` per parameter), `params`
 *   (the path's parameters in order, each `{ name, kind: 'string' | 'int32' }`: the method's
 *   leading arguments), `kind` (`json` | `page` | `text`: one value, a page of a list, plain
 *   text), `schema` (of a success: the page envelope for a list; none for text), `body` (the
 *   request body's schema: the POST's), `auth` (whether the request carries the token), and for
 *   lists `watch` (the fields `watch()` follows) and `itemGet` (the GET of one item, when there is one);
 * - fields are added, never renamed or removed; each description is also a top-level export of
 *   its group's module (`membersGet` in `./members`), so a bundle that imports one holds only it.
 *
 * The client entry does not import this module: it binds its namespaces from `./index`.
 * @module
 */
import type { Endpoint } from '../core/endpoint';
import { linesOf } from '../core/table';
import { resources } from './index';

/**
 * Every request's description, in the spec's order (#1 … #64): the namespaces' tables walked in
 * their order, which is the spec's.
 * @example
 * for (const endpoint of allEndpoints()) console.log(endpoint.name, endpoint.method, endpoint.path);
 */
export function allEndpoints(): readonly Endpoint[] {
  return linesOf<Endpoint>(resources).map(({ endpoint }) => endpoint);
}
