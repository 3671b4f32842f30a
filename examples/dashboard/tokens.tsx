/**
 * API tokens: the server's tokens, a form that creates one (`q.tokens.create()`) and a button
 * that deactivates one (`q.tokens.deactivate()`). Both mutations invalidate the token queries
 * themselves, so the list updates with no code here. A new token's secret is shown once, as
 * the API answers it once; the token this page uses cannot be deactivated from it.
 * @module
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { toDate, type Token } from 'community-server-sdk';
import type { DashboardQueries } from './queries';
import { useState, type FormEvent } from 'react';
import { formatTime, plural, text } from './format';
import { MutationError, Panel, QueryStatus, RefreshButton } from './panel';

const LIFETIMES = [
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
  { label: 'Never expires', days: null },
] as const;

/** What a token's badge says: deactivated, past its expiry, or usable. */
function statusOf(token: Token): 'active' | 'expired' | 'inactive' {
  if (!token.active) return 'inactive';
  const expires = toDate(token.expiresAt);
  return expires && expires.getTime() <= Date.now() ? 'expired' : 'active';
}

/** Newest first; the spec leaves the list's shape open, and the mock sends an array. */
function tokensOf(list: unknown): Token[] {
  return Array.isArray(list) ? (list as Token[]).toSorted((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0)) : [];
}

export function TokensPanel({ q }: { readonly q: DashboardQueries }) {
  const tokens = useQuery(q.tokens.list());
  const current = useQuery(q.tokens.current());
  const create = useMutation(q.tokens.create());
  const deactivate = useMutation(q.tokens.deactivate());
  const [name, setName] = useState('');
  const [lifetime, setLifetime] = useState(0);
  const rows = tokensOf(tokens.data);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), expiresInDays: LIFETIMES[lifetime]!.days }, { onSuccess: () => setName('') });
  };

  return (
    <Panel
      id="tokens"
      className="wide"
      title="API tokens"
      rule="Create a token for a bot or a script, deactivate one that leaked. Deactivating is final."
      summary={
        tokens.data ? `${plural(rows.length, 'token')}, ${rows.filter((token) => statusOf(token) === 'active').length} active` : undefined
      }
      busy={tokens.isFetching || create.isPending || deactivate.isPending}
      actions={<RefreshButton query={tokens} label="tokens" />}
    >
      <form className="create" onSubmit={submit} aria-label="Create a token">
        <label>
          Name <input value={name} onChange={(event) => setName(event.target.value)} placeholder="e.g. moderation bot" required />
        </label>
        <label>
          Expires{' '}
          <select value={lifetime} onChange={(event) => setLifetime(Number(event.target.value))}>
            {LIFETIMES.map((choice, index) => (
              <option key={choice.label} value={index}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={create.isPending || name.trim() === ''}>
          {create.isPending ? 'Creating…' : 'Create token'}
        </button>
      </form>
      <MutationError mutation={create} action="create the token" />
      {create.data?.token !== undefined && (
        <div className="secret" role="status">
          <span>Token “{text(create.data.name)}” created. Copy its secret now: it is shown only once.</span>
          <code>{create.data.token}</code>
          <button type="button" className="quiet" onClick={() => create.reset()}>
            Done
          </button>
        </div>
      )}
      <MutationError mutation={deactivate} action="deactivate the token" />
      <QueryStatus query={tokens} noun="tokens" />
      <div className="scroll short">
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Created (UTC)</th>
              <th>Expires (UTC)</th>
              <th>Last used (UTC)</th>
              <th>Status</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {rows.map((token) => {
              const inUse = token.id === current.data?.id;
              return (
                <tr key={token.id} data-id={token.id}>
                  <td>{text(token.name)}</td>
                  <td>{formatTime(token.createdAt)}</td>
                  <td>{token.expiresAt == null ? 'never' : formatTime(token.expiresAt)}</td>
                  <td>{formatTime(token.lastUsedAt)}</td>
                  <td>
                    <span className={`badge ${statusOf(token)}`}>{statusOf(token)}</span>
                    {inUse && <span className="badge">this page</span>}
                  </td>
                  <td className="actions">
                    {token.active && !inUse && token.id !== undefined && (
                      <button
                        type="button"
                        className="danger"
                        disabled={deactivate.isPending}
                        onClick={() => deactivate.mutate(token.id!)}
                        aria-label={`Deactivate ${text(token.name)}`}
                      >
                        Deactivate
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
