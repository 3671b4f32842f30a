/**
 * The dashboard's entry: reads the page's address (`config.ts`), starts the offline mock in this
 * tab (msw's service worker answers the API) unless a server is given, then renders the React
 * app over one `QueryClient` and the panels' queries over a core (`queries.ts`).
 *
 * In mock mode the mock is `window.mock`, for the console (and the browser tests):
 * `mock.faults.add({ endpoint: 'members.list', status: 503 })` makes the next refresh fail,
 * `mock.activity.step(5)` adds five rows (a moderation log among them shows up live).
 * @module
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createCore, type Core } from 'community-server-sdk/core';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { setupMockWorker } from 'community-server-sdk/mock/browser';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { readSettings } from './config';
import { describeError } from './format';
import { dashboardQueries } from './queries';

declare global {
  interface Window {
    /** The offline mock of this tab (mock mode only). */
    mock?: MockApi;
  }
}

/** The core the settings ask for, and where its data comes from, in words. */
async function connect(): Promise<{ core: Core; source: string; intervalMs: number }> {
  const settings = readSettings(new URL(location.href));
  if (settings.mode === 'server') {
    const core = createCore({ token: settings.token, baseUrl: settings.baseUrl });
    return { core, source: `Server ${new URL(settings.baseUrl).origin}`, intervalMs: settings.intervalMs };
  }
  const mock = createMockApi({ seed: 1, latency: settings.latency });
  // The worker script is served next to this page; requests that are not the API's (this
  // page's own files) go to the network untouched.
  await setupMockWorker(mock).start({ serviceWorker: { url: './mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  window.mock = mock;
  // No baseUrl: the default "/" is this page's origin, where the worker answers.
  const core = createCore({ token: mock.tokens[settings.token] });
  return { core, source: `Offline mock in this tab: seed ${mock.seed}, token "${settings.token}"`, intervalMs: settings.intervalMs };
}

async function start(): Promise<void> {
  const { core, source, intervalMs } = await connect();
  // The core retries what is worth retrying; the queries do not (see QueryRetry), and a
  // window coming back into focus does not refetch every panel at once.
  const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
  createRoot(document.querySelector('#root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App q={dashboardQueries(core)} source={source} intervalMs={intervalMs} />
      </QueryClientProvider>
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  const status = document.querySelector<HTMLElement>('#root')!;
  status.innerHTML = '<p id="status" class="error" role="alert"></p>';
  status.firstElementChild!.textContent = `The dashboard could not start: ${describeError(error)}`;
});
