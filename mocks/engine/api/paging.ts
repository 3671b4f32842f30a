/**
 * Paging and ordering of list requests, as the mock serves them:
 * - `page` is 1-based (default 1); a page past the end is empty, with the right `total`.
 * - `pageSize` defaults to 10, at most 100; `limit` is its alias, and `pageSize` wins when both
 *   are given.
 * - `orderBy` names one of the list's ordering fields, each list its own (the README's table,
 *   generated from the 400 an unknown one gets); `sort` is `asc` or `desc`, in lower case.
 * - Anything else is a 400 whose `details` name the parameter. Unknown parameters are ignored.
 * @module
 */
import type { Collection, SortDirection } from '../rows/collection';
import { invalidParameter } from '../replies';

/**
 * Items per page when a list request gives neither `pageSize` nor `limit`.
 * @example
 * (await client.members.list()).data.length === DEFAULT_PAGE_SIZE; // true on a list that long
 */
export const DEFAULT_PAGE_SIZE = 10;
/**
 * The largest `pageSize` (or `limit`) the mock accepts; beyond it, a 400 naming the parameter.
 * @example
 * await client.members.list({ pageSize: MAX_PAGE_SIZE + 1 }); // BadRequestError
 */
export const MAX_PAGE_SIZE = 100;

/** A validated list query. */
export interface PageQuery {
  page: number;
  pageSize: number;
  orderBy: string | undefined;
  sort: SortDirection | undefined;
}

const DIGITS = /^\d{1,16}$/;

/** The one value of `name`; given twice it is ambiguous, so a 400. */
function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw invalidParameter(name, values, 'given at most once');
  return values[0];
}

function integer(query: URLSearchParams, name: string, min: number, max: number, expected: string): number | undefined {
  const raw = single(query, name);
  if (raw === undefined) return undefined;
  const value = DIGITS.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) throw invalidParameter(name, raw, expected);
  return value;
}

export function parsePageQuery(query: URLSearchParams): PageQuery {
  const page = integer(query, 'page', 1, Number.MAX_SAFE_INTEGER, 'an integer of at least 1') ?? 1;
  const sizeRule = `an integer from 1 to ${MAX_PAGE_SIZE}`;
  const pageSize = integer(query, 'pageSize', 1, MAX_PAGE_SIZE, sizeRule);
  const limit = integer(query, 'limit', 1, MAX_PAGE_SIZE, sizeRule);
  // As the document the mock serves declares it (`asc|desc`): the spec does not show the service
  // taking another spelling, so `ASC` is a 400 here rather than a habit that fails in production.
  const sort = single(query, 'sort');
  if (sort !== undefined && sort !== 'asc' && sort !== 'desc') throw invalidParameter('sort', sort, '"asc" or "desc"');
  return { page, pageSize: pageSize ?? limit ?? DEFAULT_PAGE_SIZE, orderBy: single(query, 'orderBy'), sort };
}

/**
 * The page envelope of `collection` for `query`: of the whole table, or of the rows whose indexed
 * field `where.field` equals `where.value`.
 */
export function pageOf<Row extends object>(
  collection: Collection<Row>,
  query: PageQuery,
  where?: { readonly field: keyof Row & string; readonly value: unknown },
) {
  const { orderBy: fields, aliases = {} } = collection.spec;
  const named = query.orderBy ?? fields[0];
  const orderBy = (fields as readonly string[]).includes(named) ? named : Object.hasOwn(aliases, named) ? aliases[named] : undefined;
  if (orderBy === undefined) {
    const accepted = [...fields, ...Object.keys(aliases)];
    // The details say the whole ordering rule of the list; the README's table is generated from them.
    throw invalidParameter('orderBy', named, `one of ${accepted.map((f) => `"${f}"`).join(', ')}`, {
      accepted,
      aliases,
      default: { orderBy: fields[0], sort: collection.spec.sort },
    });
  }
  const start = (query.page - 1) * query.pageSize;
  const { rows, total } = collection.page({
    start,
    end: start + query.pageSize,
    orderBy: orderBy as keyof Row & string,
    sort: query.sort ?? collection.spec.sort,
    ...(where ? { where } : {}),
  });
  return {
    data: rows,
    page: query.page,
    pageSize: query.pageSize,
    total,
    totalPages: Math.ceil(total / query.pageSize),
  };
}
