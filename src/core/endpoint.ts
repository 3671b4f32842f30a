/**
 * The declarative description of one request. Each of the API's requests is a single line in a
 * resource table, e.g. `get: get('/api/v1/server/members/{memberId}', MemberSchema)`; the method
 * a client exposes for it, with its parameter names and types, is derived from that line.
 * @module
 */
import type * as z from 'zod/mini';
import type { APIPromise } from './api-promise';
import type { PagePromise } from './pagination';
import type { ListParams, PathPart, RequestOptions, WatchKeys } from './types';
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

/** The runtime half of {@link PathParamArgs}: which path parameters are int32 (spec Part 4). */
const pathParamKinds: { [Name in keyof PathParamArgs]: PathParamArgs[Name][0] extends number ? 'int32' : 'string' } = {
  applicationId: 'string',
  callId: 'string',
  chatId: 'string',
  departmentId: 'string',
  gameId: 'string',
  groupId: 'int32',
  hearingId: 'string',
  loaId: 'string',
  logId: 'string',
  memberId: 'string',
  noteId: 'string',
  rankId: 'string',
  recordId: 'string',
  roleId: 'string',
  serverId: 'string',
  shiftId: 'string',
  staffId: 'string',
  tokenId: 'string',
  unitId: 'int32',
  userId: 'string',
  username: 'string',
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
 */
export interface Endpoint<Method = unknown, Verb extends HttpMethod = HttpMethod> {
  readonly method: Verb;
  readonly path: string;
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
  /** A list's watch keys: its id field and, when its items carry one, its time field. */
  watch?: WatchKeys;
  /**
   * A list's item GET, when there is one: its path is the list's parameters by name, then the
   * item's id (`watch.id`) as its last, and it answers what the list's items are.
   */
  itemGet?: Endpoint;
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

function parsePath(path: string): PathPart[] {
  return path
    .split(/(\{\w+\})/)
    .filter(Boolean)
    .map((part) => {
      if (!part.startsWith('{')) return part;
      const name = part.slice(1, -1) as keyof PathParamArgs;
      return { name, kind: pathParamKinds[name] };
    });
}

function define<Method, Verb extends HttpMethod>(
  method: Verb,
  path: string,
  kind: ResponseKind,
  schema: z.ZodMiniType | undefined,
  body: z.ZodMiniType | undefined,
  settings: EndpointSettings,
): Endpoint<Method, Verb> {
  return {
    method,
    path,
    parts: parsePath(path),
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

/** A GET answering one JSON value that `schema` describes. */
export const get = <const Path extends string, Schema extends z.ZodMiniType>(path: Path, schema: Schema, settings: EndpointSettings = {}) =>
  define<JsonMethod<Path, z.infer<Schema>>, 'GET'>('GET', path, 'json', schema, undefined, settings);

/**
 * A GET answering a page of items that `item` describes; the method returns a `PagePromise`.
 * `watch` names the fields `PagePromise.watch()` follows the list by (see `WatchKeys`);
 * `itemGet`, the GET of one item, which must answer what the list's items are.
 */
export const list = <const Path extends string, Item extends z.ZodMiniType>(
  path: Path,
  item: Item,
  settings: EndpointSettings & { watch: WatchKeys; itemGet?: Endpoint<(...args: never[]) => APIPromise<z.infer<Item>>> },
) => define<ListMethod<Path, z.infer<Item>>, 'GET'>('GET', path, 'page', PageSchema(item), undefined, settings);

/** A GET answering plain text. */
export const text = <const Path extends string>(path: Path, settings: EndpointSettings = {}) =>
  define<JsonMethod<Path, string>, 'GET'>('GET', path, 'text', undefined, undefined, settings);

/** A POST sending a JSON body that `body` validates before sending. */
export const post = <const Path extends string, Body extends z.ZodMiniType, Schema extends z.ZodMiniType>(
  path: Path,
  body: Body,
  schema: Schema,
) => define<BodyMethod<Path, z.input<Body>, z.infer<Schema>>, 'POST'>('POST', path, 'json', schema, body, {});

/** A DELETE answering one JSON value. */
export const del = <const Path extends string, Schema extends z.ZodMiniType>(path: Path, schema: Schema) =>
  define<JsonMethod<Path, z.infer<Schema>>, 'DELETE'>('DELETE', path, 'json', schema, undefined, {});

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
