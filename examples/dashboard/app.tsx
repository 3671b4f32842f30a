/**
 * The dashboard's page: the server's name, where its data comes from, and the five panels. Each
 * panel asks for its own data through `q` (`queries(core, tree)`, see `queries.ts`), so each loads, fails and retries
 * on its own.
 * @module
 */
import { useQuery } from '@tanstack/react-query';
import type { DashboardQueries } from './queries';
import { CallsPanel, LoasPanel } from './duty';
import { text } from './format';
import { LogsPanel } from './logs';
import { MembersPanel } from './members';
import { TokensPanel } from './tokens';

export interface AppProps {
  readonly q: DashboardQueries;
  /** Where the data comes from, in words: the mock in this tab, or a server's URL. */
  readonly source: string;
  readonly intervalMs: number;
}

export function App({ q, source, intervalMs }: AppProps) {
  const info = useQuery(q.server.info());
  return (
    <>
      <header className="top">
        <h1>{info.data?.name ? text(info.data.name) : 'Community Server'}</h1>
        <p id="status" role="status">
          {source}
        </p>
      </header>
      <main className="grid">
        <MembersPanel q={q} />
        <LogsPanel q={q} intervalMs={intervalMs} />
        <CallsPanel q={q} />
        <LoasPanel q={q} />
        <TokensPanel q={q} />
      </main>
    </>
  );
}
