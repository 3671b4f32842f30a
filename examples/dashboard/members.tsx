/**
 * Members, newest first, with infinite scroll: `q.members.listInfinite()` fetches page 1, and each
 * next page when the end of the list scrolls into view (or on "Load more"), until the list's
 * last page: never a request past it. Members who join meanwhile are shown once each.
 * @module
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import type { DashboardQueries } from './queries';
import { useEffect, useRef } from 'react';
import { count, formatDay, text } from './format';
import { Panel, QueryStatus, RefreshButton } from './panel';

export const MEMBERS_PER_PAGE = 20;

export function MembersPanel({ q }: { readonly q: DashboardQueries }) {
  const members = useInfiniteQuery(q.members.listInfinite({ pageSize: MEMBERS_PER_PAGE }));
  // Members who join while the list is paged push members of a page onto the next: `items`
  // shows each once, and the newest page tells the total now.
  const rows = members.data?.items ?? [];
  const total = members.data?.pages.at(-1)?.total;
  const scroller = useRef<HTMLDivElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = members;

  // The end of the list coming into view asks for the next page; a failed page waits for Retry.
  useEffect(() => {
    const target = end.current;
    if (!target || !hasNextPage || isFetchingNextPage || isError) return;
    const watcher = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && void fetchNextPage(), {
      root: scroller.current,
      rootMargin: '80px',
    });
    watcher.observe(target);
    return () => watcher.disconnect();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);

  return (
    <Panel
      id="members"
      title="Members"
      rule="Every member, newest first; the next page loads as you scroll."
      summary={total === undefined ? undefined : `${rows.length} of ${total} members loaded`}
      busy={members.isFetching}
      actions={<RefreshButton query={members} label="members" />}
    >
      <QueryStatus query={members} noun="members" />
      <div className="scroll" ref={scroller}>
        <table>
          <thead>
            <tr>
              <th>Username</th>
              <th className="id">Member id</th>
              <th className="number">Roles</th>
              <th>Joined (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((member) => (
              <tr key={member.id} data-id={member.id}>
                <td>{text(member.username)}</td>
                <td className="id" title={member.id}>
                  {member.id.slice(0, 8)}
                </td>
                <td className="number">{count(member.roles)}</td>
                <td>{formatDay(member.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div ref={end} className="list-end" aria-live="polite">
          {isFetchingNextPage ? (
            'Loading more…'
          ) : hasNextPage ? (
            <button type="button" className="quiet" onClick={() => void fetchNextPage()} disabled={isError}>
              Load more
            </button>
          ) : members.data ? (
            // Members who joined after page 1 was read are not among the rows; ones who left are.
            rows.length === total ? (
              `All ${total} members loaded`
            ) : (
              'End of the list: it changed while loading. Refresh shows all of it.'
            )
          ) : null}
        </div>
      </div>
    </Panel>
  );
}
