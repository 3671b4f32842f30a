/**
 * The API's requests as a shell and an assistant address them, derived from the endpoint table
 * (`allEndpoints()`), one per method: the words of a `community-server` command (`cad unit-groups
 * get`), the name of an MCP tool (`cad_unit_groups_get`) and its toolset (`cad`), the path ids
 * under each of those spellings, and a one-line summary. Nothing here is stated per endpoint but
 * the summary: a request added to the table is a command and a tool at once.
 * @module
 */
import type { Endpoint } from '../core/endpoint';
import { allEndpoints } from '../resources/catalog';
import { SUMMARIES } from './summaries';

/** A path id of a request, as each surface spells it. */
export interface OperationParam {
  /** As the client's method and the path template name it: `groupId`. */
  readonly name: string;
  /** As a command line shows it: `group-id`. */
  readonly kebab: string;
  /** As a tool's argument: `group_id`. */
  readonly snake: string;
  readonly kind: 'string' | 'int32';
}

/** One request of the API, as a command and a tool. */
export interface Operation {
  /** Its number in the spec's Part 4 table (#1 … #64). */
  readonly number: number;
  /** Its dotted name, the client method's path: `cad.unitGroups.get`. */
  readonly name: string;
  readonly endpoint: Endpoint;
  /** The command's words: `['cad', 'unit-groups', 'get']`. */
  readonly words: readonly string[];
  /** The tool's name: `cad_unit_groups_get`. */
  readonly tool: string;
  /** The toolset it belongs to, its top-level namespace: `cad`, `join_requests`. */
  readonly toolset: string;
  /** Its path ids, in the method's order. */
  readonly params: readonly OperationParam[];
  /** A list: it takes `page`, `pageSize`, `limit`, `orderBy` and `sort`, and answers a page. */
  readonly paged: boolean;
  /** It changes something (POST, DELETE). */
  readonly write: boolean;
  /** One line on what it answers. */
  readonly summary: string;
}

/** `unitGroups` → `unit-groups`. */
export const kebabCase = (camel: string): string => camel.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
/** `unitGroups` → `unit_groups`. */
export const snakeCase = (camel: string): string => camel.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

let all: readonly Operation[] | undefined;

/**
 * Every request as an {@link Operation}, in the spec's order; made once.
 * @example
 * for (const operation of operations()) console.log(operation.words.join(' '), operation.tool);
 */
export function operations(): readonly Operation[] {
  return (all ??= allEndpoints().map((endpoint, index) => {
    const segments = endpoint.name.split('.');
    return {
      number: index + 1,
      name: endpoint.name,
      endpoint,
      words: segments.map(kebabCase),
      tool: segments.map(snakeCase).join('_'),
      toolset: snakeCase(segments[0]!),
      params: endpoint.params.map(({ name, kind }) => ({ name, kebab: kebabCase(name), snake: snakeCase(name), kind })),
      paged: endpoint.kind === 'page',
      write: endpoint.method !== 'GET',
      summary: SUMMARIES[endpoint.name] ?? '',
    };
  }));
}
