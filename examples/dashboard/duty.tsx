/**
 * The two filtered panels: open CAD calls and current LOAs. The API cannot filter, so each reads
 * the newest rows of its list (100 a request, at most 500) and keeps the matching ones
 * (`filters.ts`); an LOA names its member, asked for once per member (`q.members.get`, shared by
 * every row that names them).
 * @module
 */
import { useQuery } from '@tanstack/react-query';
import type { CadCall, Loa } from 'community-server-sdk';
import { NotFoundError } from 'community-server-sdk/core';
import type { DashboardQueries } from './queries';
import type { ReactNode } from 'react';
import { isCurrentLoa, isOpenCall } from './filters';
import { count, formatDay, formatTime, text } from './format';
import { Panel, QueryStatus, RefreshButton } from './panel';
import { scanSummary, useNewest, type Scan } from './scan';

/** How many of the newest calls and LOAs the filtered panels read. */
export const SCAN_LIMIT = 500;
const SCAN_PAGE = 100;

function ScanPanel<T extends { id: string }>(props: {
  readonly id: string;
  readonly title: string;
  readonly rule: ReactNode;
  readonly noun: string;
  readonly scan: Scan<T>;
  readonly summary: string;
  readonly headers: readonly { label: string; className?: string }[];
  readonly row: (item: T) => ReactNode;
}) {
  const { scan } = props;
  return (
    <Panel
      id={props.id}
      title={props.title}
      rule={props.rule}
      summary={scan.started ? props.summary : undefined}
      busy={scan.query.isFetching}
      actions={<RefreshButton query={scan.query} label={props.noun} />}
    >
      <QueryStatus query={scan.query} noun={props.noun} />
      <div className="scroll">
        <table>
          <thead>
            <tr>
              {props.headers.map((header) => (
                <th key={header.label} className={header.className}>
                  {header.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {scan.matches.map((item) => (
              <tr key={item.id} data-id={item.id}>
                {props.row(item)}
              </tr>
            ))}
          </tbody>
        </table>
        {scan.done && scan.matches.length === 0 && !scan.query.isError && <p className="empty">None.</p>}
      </div>
    </Panel>
  );
}

export function CallsPanel({ q }: { readonly q: DashboardQueries }) {
  const scan = useNewest<CadCall>(q.cad.calls.listInfinite({ pageSize: SCAN_PAGE }), isOpenCall, SCAN_LIMIT);
  return (
    <ScanPanel
      id="calls"
      title="Open CAD calls"
      rule={
        <>
          Open: the call has no <code>closedAt</code>.
        </>
      }
      noun="open calls"
      scan={scan}
      summary={scanSummary(scan, 'open', 'calls')}
      headers={[
        { label: 'Call' },
        { label: 'Code' },
        { label: 'Priority', className: 'number' },
        { label: 'Units', className: 'number' },
        { label: 'Opened (UTC)' },
      ]}
      row={(call) => (
        <>
          <td className="clip" title={call.title}>
            {call.title}
          </td>
          <td>{text(call.code)}</td>
          <td className="number">{text(call.priority)}</td>
          <td className="number">{count(call.units)}</td>
          <td>{formatTime(call.createdAt)}</td>
        </>
      )}
    />
  );
}

/** A member's username, asked for once per member however many rows name them. */
function MemberName({ q, memberId }: { readonly q: DashboardQueries; readonly memberId: string }) {
  const member = useQuery(q.members.get(memberId));
  if (member.isPending) return <span className="muted">…</span>;
  if (member.error instanceof NotFoundError) return <span className="muted">(no longer a member)</span>;
  if (member.isError) return <span title={member.error.message}>—</span>;
  return <>{text(member.data.username)}</>;
}

export function LoasPanel({ q }: { readonly q: DashboardQueries }) {
  const scan = useNewest<Loa>(q.loas.listInfinite({ pageSize: SCAN_PAGE }), isCurrentLoa, SCAN_LIMIT);
  return (
    <ScanPanel
      id="loas"
      title="Current LOAs"
      rule={<>Current: started, and not ended, cancelled or expired, as recorded.</>}
      noun="current LOAs"
      scan={scan}
      summary={scanSummary(scan, 'current', 'LOAs')}
      headers={[{ label: 'Member' }, { label: 'Started' }, { label: 'Planned end' }, { label: 'Reason' }]}
      row={(loa) => (
        <>
          <td title={loa.memberId}>
            <MemberName q={q} memberId={loa.memberId} />
          </td>
          <td>{formatDay(loa.startedAt)}</td>
          <td>{formatDay(loa.endAt)}</td>
          <td className="clip" title={text(loa.reason)}>
            {text(loa.reason)}
          </td>
        </>
      )}
    />
  );
}
