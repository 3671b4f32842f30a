/**
 * The frame every panel shares: a titled `<section>` that says when it is busy, and what a
 * query shows before it has data or when it failed (loading, or the error with a Retry that
 * asks again). It knows nothing of the API: each panel brings its query.
 * @module
 */
import type { ReactNode } from 'react';
import { describeError } from './format';

export interface PanelProps {
  /** The section's id, also what its heading's id is made from. */
  readonly id: string;
  readonly title: string;
  /** One line under the title: what the panel lists, by which rule. */
  readonly rule?: ReactNode;
  /** One line above the rows: how many, in which order. */
  readonly summary?: ReactNode;
  /** Whether a request of the panel is in flight (`aria-busy`). */
  readonly busy: boolean;
  /** Buttons beside the title. */
  readonly actions?: ReactNode;
  readonly className?: string;
  readonly children: ReactNode;
}

export function Panel({ id, title, rule, summary, busy, actions, className, children }: PanelProps) {
  return (
    <section id={id} className={className ? `panel ${className}` : 'panel'} aria-labelledby={`${id}-title`} aria-busy={busy}>
      <header className="panel-head">
        <div>
          <h2 id={`${id}-title`}>{title}</h2>
          {rule !== undefined && <p className="rule">{rule}</p>}
        </div>
        {actions}
      </header>
      {summary !== undefined && <p className="summary">{summary}</p>}
      {children}
    </section>
  );
}

/** What the frame reads of a query (a `useQuery` or `useInfiniteQuery` result). */
export interface QueryView {
  readonly isPending: boolean;
  readonly isError: boolean;
  readonly isFetching: boolean;
  readonly error: unknown;
  refetch(): Promise<unknown>;
}

/**
 * Loading, until the query has data; its error, readably, with a Retry that refetches (rows
 * already shown stay under it). Nothing once it has data and no error.
 */
export function QueryStatus({ query, noun }: { readonly query: QueryView; readonly noun: string }) {
  if (query.isError) {
    return (
      <div className="error" role="alert">
        <span>
          Could not load {noun}. {describeError(query.error)}
        </span>
        <button type="button" onClick={() => void query.refetch()} disabled={query.isFetching}>
          {query.isFetching ? 'Retrying…' : 'Retry'}
        </button>
      </div>
    );
  }
  return query.isPending ? <p className="loading">Loading {noun}…</p> : null;
}

/** Why a mutation failed, readably; nothing while it has not. */
export function MutationError({ mutation, action }: { readonly mutation: { isError: boolean; error: unknown }; readonly action: string }) {
  if (!mutation.isError) return null;
  return (
    <div className="error" role="alert">
      Could not {action}. {describeError(mutation.error)}
    </div>
  );
}

/** A button that asks the query again (a refresh of what is on screen). */
export function RefreshButton({ query, label }: { readonly query: QueryView; readonly label: string }) {
  return (
    <button
      type="button"
      className="quiet"
      onClick={() => void query.refetch()}
      disabled={query.isFetching}
      aria-label={`Refresh ${label}`}
    >
      {query.isFetching ? 'Refreshing…' : 'Refresh'}
    </button>
  );
}
