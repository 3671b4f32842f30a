/**
 * Client-side filtering for lists the API cannot filter (it has no filter parameters): read the
 * newest rows page by page, through a list's infinite query, up to a bound, and keep the rows
 * that pass. The bound keeps a dashboard on a large server from downloading its whole history;
 * the panel says how much was read, so a partial answer is never passed off as the whole one.
 * @module
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import type { EndpointInfiniteQueryOptions } from 'community-server-sdk/query';
import { useEffect, useMemo } from 'react';
import type { QueryView } from './panel';

/** The rows of a bounded read that passed the filter, how much of the list was read, and the query. */
export interface Scan<T> {
  /** The list's infinite query, as the panel frame shows it (loading, error, Retry). */
  readonly query: QueryView;
  readonly matches: readonly T[];
  /** Rows read, newest first. */
  readonly scanned: number;
  /** Rows in the whole list, as the service counts them. */
  readonly total: number;
  /** Whether a first page has come. */
  readonly started: boolean;
  /** Whether the read is over: the bound reached or the list's end. */
  readonly done: boolean;
}

/** Reads `list` (newest first) until `limit` rows are read or it ends; keeps the rows passing `keep`. */
export function useNewest<T>(list: EndpointInfiniteQueryOptions<T>, keep: (row: T) => boolean, limit: number): Scan<T> {
  const query = useInfiniteQuery(list);
  const pages = query.data?.pages;
  const read = useMemo(() => (pages ?? []).flatMap((page) => page.data).slice(0, limit), [pages, limit]);
  const matches = useMemo(() => read.filter(keep), [read, keep]);
  const { hasNextPage, isFetching, isError, fetchNextPage } = query;
  const done = pages !== undefined && (!hasNextPage || read.length >= limit);

  // One page after the other, while the bound is not reached; a failed page waits for Retry.
  useEffect(() => {
    if (pages !== undefined && !done && !isFetching && !isError) void fetchNextPage();
  }, [pages, done, isFetching, isError, fetchNextPage]);

  return { query, matches, scanned: read.length, total: pages?.[0]?.total ?? 0, started: pages !== undefined, done };
}

/** "20 open of 60 calls", saying how much was read when the read stopped short of the end. */
export function scanSummary(scan: Scan<unknown>, matched: string, all: string): string {
  if (!scan.done) return `Reading the newest ${all}… ${scan.scanned} of ${scan.total}`;
  const scope = scan.scanned < scan.total ? `the newest ${scan.scanned} of ${scan.total} ${all}` : `${scan.total} ${all}`;
  return `${scan.matches.length} ${matched} of ${scope}`;
}
