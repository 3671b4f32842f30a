/**
 * What a route sees of one request, and the small vocabulary routes are written in: a page of a
 * table, one row of it, and the parents that must exist first. Auth, paging, rate limits and
 * error rendering happen before and after, in `pipeline.ts`, never in a route.
 * @module
 */
import type { Gate } from './auth';
import type { Collection } from './collection';
import type { Journal } from './journal';
import { pageOf, type PageQuery } from './paging';
import { notFound } from './replies';
import type { CadStore, DepartmentStore, ServerStore, Store } from './store';
import type { TokenRecord } from './world';

/**
 * The switches `setHealth` flips; all `true` after `createMockApi()` and `reset()`.
 * @example
 * mock.setHealth({ cache: false }); // GET /health: 503 "cache unavailable"; /readyz: 503
 */
export interface HealthState {
  /** The database: when `false`, `/health` and `/readyz` answer 503 and `/metrics` reports no pool. */
  database: boolean;
  /** The cache: when `false`, `/health` and `/readyz` answer 503. */
  cache: boolean;
  /** Readiness of the service itself: when `false`, `/readyz` answers 503 (`/health` stays 200). */
  ready: boolean;
}

/** The mock's live state, shared by every request. */
export interface MockState {
  store: Store;
  readonly gate: Gate;
  health: HealthState;
  /** Requests answered, by status, since the last reset (served by `/metrics`). */
  readonly served: Map<number, number>;
  /** Every request answered, for `mock.requests`. */
  readonly journal: Journal;
  readonly rateLimit: { limit: number; windowMs: number } | undefined;
  /** Milliseconds since the epoch; `Date.now` unless the mock was given a clock. */
  now: () => number;
  /** A fresh token secret from the mock's seeded stream. */
  newSecret(): string;
  newId(): string;
}

export interface RouteContext {
  readonly request: Request;
  /** Path parameters in path order, decoded; int32 parameters as numbers. */
  readonly params: readonly (string | number)[];
  /** The validated paging query (list requests only). */
  readonly query: PageQuery;
  /** The presented token (requests that need one). */
  readonly token: TokenRecord;
  /** The server the token belongs to. */
  readonly server: ServerStore;
  readonly mock: MockState;
}

/** A route answers a JSON body (status 200) or a whole `Response`. */
export type Route = (context: RouteContext) => unknown;

export const fail = (error: Error): never => {
  throw error;
};

/** The last path parameter: the id of the addressed row. */
const lastParam = (c: RouteContext) => c.params[c.params.length - 1]!;

/** A page of `table`, or of the rows whose `field` equals the last path parameter. */
export const list =
  <Row extends object>(table: (c: RouteContext) => Collection<Row>, field?: keyof Row & string): Route =>
  (c) => {
    const rows = table(c);
    return pageOf(rows, c.query, field === undefined ? undefined : rows.where(field, lastParam(c)));
  };

/** The row of `table` keyed by the last path parameter; with `within`, it must also belong to the first. */
export const item =
  <Row extends object>(table: (c: RouteContext) => Collection<Row>, kind: string, within?: keyof Row & string): Route =>
  (c) => {
    const id = lastParam(c);
    const row = table(c).get(id);
    if (!row || (within !== undefined && row[within] !== c.params[0])) throw notFound(kind, id);
    return row;
  };

/** The server's CAD; 404 `cad_not_found` on a server without one. */
export const cad = (c: RouteContext): CadStore => c.server.cad ?? fail(notFound('cad'));

/** The department named by the first path parameter; 404 `department_not_found` otherwise. */
export const department = (c: RouteContext): DepartmentStore => {
  const id = c.params[0] as string;
  return (c.server.departments.get(id) && c.server.departmentData.get(id)) ?? fail(notFound('department', id));
};

/** Checks that the row of `table` keyed by the first path parameter exists (a list's parent). */
export const parent = <Row extends object>(table: Collection<Row>, kind: string, c: RouteContext): Row =>
  table.get(c.params[0]) ?? fail(notFound(kind, c.params[0]));
