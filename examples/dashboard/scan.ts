/**
 * Client-side filtering for lists the API cannot filter (it has no filter parameters): walk
 * the newest rows page by page up to a bound, keep the rows that pass, then page through the
 * kept rows locally. The bound keeps a dashboard on a large server from downloading its whole
 * history; the panel says how much was scanned, so a partial answer is never passed off as the
 * whole one.
 * @module
 */
import type { PagePromise } from 'community-server-sdk';

/** The rows of a bounded walk that passed the filter, and how much of the list was read. */
export interface Scan<T> {
  readonly matches: readonly T[];
  /** Rows read, newest first. */
  readonly scanned: number;
  /** Rows in the whole list, as the service counts them. */
  readonly total: number;
}

/** Walks `list` (newest first) until `limit` rows are read or the list ends; keeps those passing `keep`. */
export async function scanNewest<T>(list: PagePromise<T>, keep: (row: T) => boolean, limit: number): Promise<Scan<T>> {
  const matches: T[] = [];
  let scanned = 0;
  let total = 0;
  for await (const page of list.pages()) {
    total = page.total;
    for (const row of page.data.slice(0, limit - scanned)) if (keep(row)) matches.push(row);
    scanned = Math.min(limit, scanned + page.data.length);
    if (scanned >= limit) break; // leaving the loop stops the walk: no further page is requested
  }
  return { matches, scanned, total };
}

/** One page of already-loaded rows, numbered like the API's pages (1-based; at least one page). */
export function localPage<T>(rows: readonly T[], page: number, pageSize: number) {
  const totalPages = Math.max(1, Math.ceil(rows.length / pageSize));
  const current = Math.min(Math.max(1, page), totalPages);
  return { rows: rows.slice((current - 1) * pageSize, current * pageSize), page: current, totalPages };
}
