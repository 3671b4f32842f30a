/**
 * The moderation log, live: `q.logs.listLive()` reads the newest page, then the list's `watch()`
 * puts each new entry on top while this panel is on screen; no reload, no polling code here.
 * Entries that arrived after the first page are marked as new.
 * @module
 */
import { useQuery } from '@tanstack/react-query';
import type { DashboardQueries } from './queries';
import { useEffect, useState } from 'react';
import { formatTime, text } from './format';
import { Panel, QueryStatus } from './panel';

export const LOGS_PER_PAGE = 20;

export function LogsPanel({ q, intervalMs }: { readonly q: DashboardQueries; readonly intervalMs: number }) {
  const logs = useQuery(q.logs.listLive({ pageSize: LOGS_PER_PAGE }, { intervalMs }));
  const entries = logs.data?.data ?? [];
  // The ids of the first page shown: any other entry came in live.
  const [firstSeen, setFirstSeen] = useState<ReadonlySet<string>>();
  useEffect(() => {
    if (logs.data && !firstSeen) setFirstSeen(new Set(logs.data.data.map((log) => log.id)));
  }, [logs.data, firstSeen]);
  const seconds = intervalMs / 1000;

  return (
    <Panel
      id="logs"
      title="Moderation log"
      rule={
        <>
          <span className="live-dot" aria-hidden="true" /> Live: new entries appear on top, checked every {seconds} s.
        </>
      }
      summary={logs.data ? `${entries.length === 1 ? '1 entry' : `${entries.length} entries`}, newest first` : undefined}
      busy={logs.isFetching}
    >
      <QueryStatus query={logs} noun="the moderation log" />
      <ol className="scroll feed">
        {entries.map((log) => (
          <li key={log.id} data-id={log.id} className={firstSeen && !firstSeen.has(log.id) ? 'new' : undefined}>
            <time>{formatTime(log.createdAt)}</time>
            <span className="who">{text(log.username)}</span>
            <span className="what" title={text(log.text)}>
              {text(log.text)}
            </span>
          </li>
        ))}
      </ol>
    </Panel>
  );
}
