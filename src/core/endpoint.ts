/**
 * The declarative description of one request. Each of the API's requests is a single line, a
 * top-level binding of its group's module, e.g.
 * `export const membersGet = get('members.get', '/api/v1/server/members/{memberId}', Member)`;
 * the method a client exposes for it, and its `community-server-sdk/core` function, with their
 * parameter names and types, are derived from that line. Each line is its own binding, its call
 * marked pure, so a bundle that imports one description holds that one and its schemas alone.
 * @module
 */
import type * as z from 'zod/mini';
import type { APIPromise } from './api-promise';
import type { PagePromise } from './pagination';
import type { ListParams, PathParam, PathPart, RequestOptions, WatchKeys } from './types';
import { PageSchema } from '../schemas/common';
import { isLine, linesOf, type Table as LineTable } from './table';

/**
 * Path parameters by name, as labelled one-element tuples: spreading them keeps the label, so
 * an editor shows `get(departmentId: string, memberId: string, …)` rather than `args_0`.
 * A path that names a parameter missing here does not compile.
 */
interface PathParamArgs {
  applicationId: [applicationId: string];
  callId: [callId: string];
  chatId: [chatId: string];
  departmentId: [departmentId: string];
  gameId: [gameId: string];
  groupId: [groupId: number];
  hearingId: [hearingId: string];
  loaId: [loaId: string];
  logId: [logId: string];
  memberId: [memberId: string];
  noteId: [noteId: string];
  rankId: [rankId: string];
  recordId: [recordId: string];
  roleId: [roleId: string];
  serverId: [serverId: string];
  shiftId: [shiftId: string];
  staffId: [staffId: string];
  tokenId: [tokenId: string];
  unitId: [unitId: number];
  userId: [userId: string];
  username: [username: string];
}

/**
 * The runtime half of {@link PathParamArgs}: the path parameters that are int32 (spec Part 4);
 * every other one is a string. The compiler fails when this and {@link PathParamArgs} part.
 */
const int32Params: { [Name in keyof PathParamArgs as PathParamArgs[Name][0] extends number ? Name : never]: true } = {
  groupId: true,
  unitId: true,
};

/** The positional arguments a path template asks for, e.g. `[departmentId: string, memberId: string]`. */
export type PathArgs<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name extends keyof PathParamArgs
    ? [...PathParamArgs[Name], ...PathArgs<Rest>]
    : never
  : [];

/** How a response body is read and what it becomes. */
export type ResponseKind = 'json' | 'page' | 'text';

/** The HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/**
 * One request of the API. `Method` is the signature the client exposes for it and `Verb` its
 * HTTP method, as the line declares it (what tells a read from a write at type level, e.g. for
 * `community-server-sdk/query`); `Method` exists only at type level.
 *
 * The fields are a contract with every entry and tool built from the table (the client, the
 * query entry, the command line and MCP server, the mock, the OpenAPI generator): they are only
 * ever added to, never renamed or removed. See `src/resources/catalog.ts` for the whole table.
 */
export interface Endpoint<Method = unknown, Verb extends HttpMethod = HttpMethod> {
  /**
   * Its dotted name: the client method (`cad.unitGroups.get` is `client.cad.unitGroups.get`),
   * the name events, errors, the cache and the mock's journal use; its `/core` function is the
   * same in camelCase (`cadUnitGroupsGet`).
   */
  readonly name: string;
  readonly method: Verb;
  /** The path template, e.g. `/api/v1/server/cad/unit-groups/{groupId}`. */
  readonly path: string;
  /** The path's parameters in order, with their kinds: the method's leading arguments. */
  readonly params: readonly PathParam[];
  /** The path template split once: literal text and the parameters in turn. */
  readonly parts: readonly PathPart[];
  readonly kind: ResponseKind;
  /** Schema of a successful body (the page envelope for lists); absent for text. */
  readonly schema: z.ZodMiniType | undefined;
  /** Schema of the JSON request body, for requests that send one. */
  readonly body: z.ZodMiniType | undefined;
  /** Whether the request carries the bearer token (health probes do not). */
  readonly auth: boolean;
  /** Retries when neither the call nor the client says otherwise; `undefined`: the client's. */
  readonly maxRetries: number | undefined;
  /** A health probe: never cached nor shared (it reports the state now). */
  readonly probe: boolean | undefined;
  /** How `watch()` tells a list's items apart and finds new ones (lists only). */
  readonly watch: WatchKeys | undefined;
  /** The GET that answers one of a list's items (lists only): the cache keeps a watch's items as its answers. */
  readonly itemGet: Endpoint | undefined;
  /** @internal type carrier */
  readonly __method?: Method;
}

/** Per-endpoint settings that differ from the norm. */
export interface EndpointSettings {
  /** Send the bearer token (default true). */
  auth?: boolean;
  /** Default retries for this request, e.g. 0 for a health probe that should report at once. */
  maxRetries?: number;
  /** A health probe (default false): its answer is never cached nor shared with another call. */
  probe?: boolean;
}

/** What `define` is given beyond the settings: a list's watch keys and item GET. */
interface ListSettings extends EndpointSettings {
  watch?: WatchKeys;
  itemGet?: Endpoint | undefined;
}

type Options = [options?: RequestOptions];
/**
 * Signature of a request answering one JSON value.
 * @inline
 */
export type JsonMethod<Path extends string, Out> = (...args: [...PathArgs<Path>, ...Options]) => APIPromise<Out>;
/**
 * Signature of a paged list request.
 * @inline
 */
export type ListMethod<Path extends string, Item> = (...args: [...PathArgs<Path>, params?: ListParams, ...Options]) => PagePromise<Item>;
/**
 * Signature of a request sending a JSON body.
 * @inline
 */
export type BodyMethod<Path extends string, In, Out> = (...args: [...PathArgs<Path>, body: In, ...Options]) => APIPromise<Out>;

function parsePath(path: string): (string | PathParam)[] {
  return path
    .split(/(\{\w+\})/)
    .filter(Boolean)
    .map((part) => {
      if (!part.startsWith('{')) return part;
      const name = part.slice(1, -1) as keyof PathParamArgs;
      return { name, kind: name in int32Params ? 'int32' : 'string' };
    });
}

/*
 * The builders below are marked free of side effects, so that a bundler drops every line a
 * bundle does not use (the lines' own calls carry `@__PURE__` too, for bundlers that read only
 * that). Their arguments are plain values for the same reason: a spread (`{ ...created }`) is an
 * expression a bundler must keep, and with it the line and its schemas.
 */
/* @__NO_SIDE_EFFECTS__ */
function define<Method, Verb extends HttpMethod>(
  name: string,
  method: Verb,
  path: string,
  kind: ResponseKind,
  schema: z.ZodMiniType | undefined,
  body: z.ZodMiniType | undefined,
  settings: ListSettings,
): Endpoint<Method, Verb> {
  const parts = parsePath(path);
  return {
    name,
    method,
    path,
    params: parts.filter((part) => typeof part !== 'string'),
    parts,
    kind,
    schema,
    body,
    auth: settings.auth ?? true,
    maxRetries: settings.maxRetries,
    probe: settings.probe,
    watch: settings.watch,
    itemGet: settings.itemGet,
  };
}

/** A GET answering one JSON value that `schema` describes; `name` is its dotted name (`members.get`). */
export const get = /* @__NO_SIDE_EFFECTS__ */ <const Path extends string, Schema extends z.ZodMiniType>(
  name: string,
  path: Path,
  schema: Schema,
  settings: EndpointSettings = {},
) => define<JsonMethod<Path, z.infer<Schema>>, 'GET'>(name, 'GET', path, 'json', schema, undefined, settings);

/**
 * A GET answering a page of items that `item` describes; the method returns a `PagePromise`.
 * `watch` names the fields `PagePromise.watch()` follows the list by (see `WatchKeys`);
 * `itemGet`, the GET of one item, which must answer what the list's items are.
 */
export const list = /* @__NO_SIDE_EFFECTS__ */ <const Path extends string, Item extends z.ZodMiniType>(
  name: string,
  path: Path,
  item: Item,
  watch: WatchKeys,
  itemGet?: Endpoint<(...args: never[]) => APIPromise<z.infer<Item>>>,
) => define<ListMethod<Path, z.infer<Item>>, 'GET'>(name, 'GET', path, 'page', PageSchema(item), undefined, { watch, itemGet });

/** A GET answering plain text. */
export const text = /* @__NO_SIDE_EFFECTS__ */ <const Path extends string>(name: string, path: Path, settings: EndpointSettings = {}) =>
  define<JsonMethod<Path, string>, 'GET'>(name, 'GET', path, 'text', undefined, undefined, settings);

/** A POST sending a JSON body that `body` validates before sending. */
export const post = /* @__NO_SIDE_EFFECTS__ */ <const Path extends string, Body extends z.ZodMiniType, Schema extends z.ZodMiniType>(
  name: string,
  path: Path,
  body: Body,
  schema: Schema,
) => define<BodyMethod<Path, z.input<Body>, z.infer<Schema>>, 'POST'>(name, 'POST', path, 'json', schema, body, {});

/** A DELETE answering one JSON value. */
export const del = /* @__NO_SIDE_EFFECTS__ */ <const Path extends string, Schema extends z.ZodMiniType>(
  name: string,
  path: Path,
  schema: Schema,
) => define<JsonMethod<Path, z.infer<Schema>>, 'DELETE'>(name, 'DELETE', path, 'json', schema, undefined, {});

/**
 * The methods a client exposes for a resource table.
 * @inline
 */
export type Resource<Table> = {
  readonly [Name in keyof Table]: Table[Name] extends Endpoint<infer Method> ? Method : Resource<Table[Name]>;
};

/** A table of endpoints, possibly nested (`cad.calls.list`). */
export type ResourceTable = LineTable<Endpoint>;

export const isEndpoint: (value: Endpoint | ResourceTable) => value is Endpoint = isLine;

/**
 * Every endpoint of a table with its dotted name (`cad.calls.list`), in the table's order (the
 * walk itself is `table.ts`'s, free of zod).
 */
export const endpointsOf: (table: ResourceTable, prefix?: string) => { name: string; endpoint: Endpoint }[] = linesOf;
