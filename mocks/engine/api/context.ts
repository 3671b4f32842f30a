/**
 * What a route sees of one request, and the small vocabulary routes are written in: a page of a
 * table, one row of it, and the parents that must exist first. Auth, paging, rate limits and
 * error rendering happen before and after, in the pipeline (`pipeline.ts`, `respond`), never in
 * a route.
 * @module
 */
import type { Collection } from '../rows/collection';
import { pageOf, type PageQuery } from './paging';
import { encodedJson, notFound, type Reply } from '../replies';
import { pageJson, rowJson } from '../rows/json';
import type { CadStore, DepartmentStore, ServerStore } from '../store/store';
import type { MockState } from '../state';
import type { Permission, TokenRecord } from '../world';
import type { PageEnvelope } from '../../../src/schemas/index';

/**
 * What of the mock's state a route may read and write: the store, the health switches, the
 * counters and the seeded streams. The journal, the faults and the latency are the pipeline's,
 * around the route; a route never sees them.
 */
export type RouteState = Pick<MockState, 'store' | 'admission' | 'health' | 'served' | 'now' | 'newSecret' | 'newId'>;

/**
 * What a health probe sees of a request: no token, and so no server. The four probes take no
 * token (spec Part 5), so a probe that reads one does not compile.
 */
export interface ProbeContext {
  /** Path parameters in path order, decoded; int32 parameters as numbers. */
  readonly params: readonly (string | number)[];
  /** The validated paging query (list requests only). */
  readonly query: PageQuery;
  /** The request body's text, read once when it arrived; `undefined` without one. */
  readonly body: string | undefined;
  readonly mock: RouteState;
}

/** What a route of a request that needs a token sees: the probe's view, the token and its server. */
export interface RouteContext extends ProbeContext {
  /** The presented token, authenticated before the route runs. */
  readonly token: TokenRecord;
  /** The server the token belongs to. */
  readonly server: ServerStore;
}

/** What a route answers: a body `Out` (status 200), or a whole response of `Out` built by `json`/`text`. */
type RouteAnswer<Out> = Out | Reply<Out> | Promise<Out | Reply<Out>>;

/**
 * What a route answers: a body `Out` (status 200), or a whole response built by `json`/`text`
 * (another status, headers) whose body is still an `Out`, so a wrong body does not compile.
 */
export type Route<Out = unknown> = (context: RouteContext) => RouteAnswer<Out>;

/** The route of a health probe: it sees no token. Any route table entry may be one. */
export type Probe<Out = unknown> = (context: ProbeContext) => RouteAnswer<Out>;

/** A table a route reads, found from the request (the server's, its CAD's, a department's). */
export type RowScope<Row extends object> = (context: RouteContext) => Collection<Row>;

export const fail = (error: Error): never => {
  throw error;
};

/** The last path parameter: the id of the addressed row. */
const lastParam = (c: RouteContext) => c.params[c.params.length - 1]!;

/** The names of the tables `Store` holds, and the row of one. */
type TableName<Store> = { [Name in keyof Store]: Store[Name] extends Collection<infer _Row> ? Name : never }[keyof Store];
type RowIn<Store, Name extends keyof Store> = Store[Name] extends Collection<infer Row> ? Row : never;

// The casts below only name the row type TypeScript cannot infer through `Store[Name]` (a
// deferred lookup); each table is the collection of its own rows.

/** The token's server's table `name`. */
export const fromServer =
  <Name extends TableName<ServerStore>>(name: Name): RowScope<RowIn<ServerStore, Name>> =>
  (c) =>
    c.server[name] as unknown as Collection<RowIn<ServerStore, Name>>;

/** The server's CAD table `name`; 404 `cad_not_found` on a server without CAD. */
export const fromCad =
  <Name extends TableName<CadStore>>(name: Name): RowScope<RowIn<CadStore, Name>> =>
  (c) =>
    (c.server.cad ?? fail(notFound('cad')))[name] as unknown as Collection<RowIn<CadStore, Name>>;

/** Table `name` of the department the first path parameter names; 404 `department_not_found` otherwise. */
export const fromDepartment =
  <Name extends TableName<DepartmentStore>>(name: Name): RowScope<RowIn<DepartmentStore, Name>> =>
  (c) => {
    const id = c.params[0] as string;
    const inside = (c.server.departments.get(id) && c.server.departmentData.get(id)) ?? fail(notFound('department', id));
    return inside[name] as unknown as Collection<RowIn<DepartmentStore, Name>>;
  };

/**
 * `child`, once the row of `parent` keyed by the first path parameter exists (404 `<kind>_not_found`
 * otherwise): `/applications/{id}/responses` of an application that is not there is a 404, not an
 * empty page.
 */
export const under =
  <Parent extends object, Row extends object>(parent: RowScope<Parent>, kind: string, child: RowScope<Row>): RowScope<Row> =>
  (c) => {
    if (!parent(c).get(c.params[0])) throw notFound(kind, c.params[0]);
    return child(c);
  };

/** A page of `scope`, or of the rows whose `field` equals the last path parameter. */
export const listRoute =
  <Row extends object>(scope: RowScope<Row>, field?: keyof Row & string): Route<PageEnvelope<Row>> =>
  (c) =>
    encodedJson(200, pageJson(pageOf(scope(c), c.query, field === undefined ? undefined : { field, value: lastParam(c) })));

/** The row of `scope` keyed by the last path parameter; with `within`, it must also belong to the first. */
export const itemRoute =
  <Row extends object>(scope: RowScope<Row>, kind: string, within?: keyof Row & string): Route<Row> =>
  (c) => {
    const id = lastParam(c);
    const row = scope(c).get(id);
    if (!row || (within !== undefined && row[within] !== c.params[0])) throw notFound(kind, id);
    return encodedJson(200, rowJson(row));
  };

/** `route`, for a token with `permission` only (403 `insufficient_permissions` otherwise). */
export const needs =
  <Out>(permission: Permission, route: Route<Out>): Route<Out> =>
  (c) => {
    c.mock.admission.require(c.token, permission);
    return route(c);
  };

/**
 * `route`, when the first path parameter is the token's own server: a token sees only its
 * server, so any other id is one it does not know (404 `server_not_found`).
 */
export const ownServer =
  <Out>(route: Route<Out>): Route<Out> =>
  (c) => {
    if (c.params[0] !== c.token.serverId) throw notFound('server', c.params[0]);
    return route(c);
  };
