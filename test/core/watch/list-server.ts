/**
 * A list served like the API, from an array the test changes between (and during) polls:
 * `orderBy`/`sort`/`page`/`pageSize` from the query, ties broken by id in the same direction.
 * `beforeAnswer` runs before each answer (to insert or delete between the pages of one poll, or
 * to answer a fault instead).
 */
import { json, type Handler } from '../../helpers';

export interface Row {
  id: string | number;
  createdAt?: number | undefined;
}

export function listServer<R extends Row>(shape: (row: R) => object, rows: R[] = []) {
  const served: URL[] = [];
  const state = {
    rows,
    /** Runs before each answer with its URL and 1-based count; a Response it returns is answered instead. */
    beforeAnswer: undefined as ((url: URL, n: number) => Response | Promise<Response> | void) | undefined,
  };
  const handler: Handler = async (request) => {
    const url = new URL(request.url);
    served.push(url);
    const fault = await state.beforeAnswer?.(url, served.length);
    if (fault) return fault;
    const query = url.searchParams;
    const field = (query.get('orderBy') ?? 'createdAt') as keyof R;
    const sign = (query.get('sort') ?? 'desc') === 'asc' ? 1 : -1;
    const cmp = (a: unknown, b: unknown) => (a === b ? 0 : (a as number) < (b as number) ? -sign : sign);
    const sorted = [...state.rows].sort((a, b) => cmp(a[field], b[field]) || cmp(a.id, b.id));
    const page = Number(query.get('page') ?? 1);
    const pageSize = Number(query.get('pageSize') ?? 10);
    const data = sorted.slice((page - 1) * pageSize, page * pageSize).map(shape);
    return json({ data, page, pageSize, total: sorted.length, totalPages: Math.max(1, Math.ceil(sorted.length / pageSize)) });
  };
  /** The query of every request served, e.g. `page=1&orderBy=createdAt&sort=desc`. */
  const queries = () => served.map((url) => url.search.slice(1));
  return { state, handler, served, queries };
}
