/**
 * The dashboard: starts the offline mock in this tab (msw's service worker answers the API's
 * requests), then shows three paged panels through the SDK's client: members, open CAD calls
 * and current LOAs.
 *
 * Query parameters, for trying the dashboard out:
 * - `token`: which of the mock's tokens the client uses (`main` by default; `noCad` shows the CAD
 *   panel's 404, `expired` a 401 in every panel).
 * - `latency`: milliseconds the mock waits before each answer, to watch the loading states.
 * - `fault`: a client method name (`cad.calls.list`) whose every request the mock answers with
 *   503 (`mock.faults`), to watch a panel's error state while the others work.
 */
import { CommunityServerClient, NotFoundError, type CadCall, type Loa, type Member } from 'community-server-sdk';
import { createMockApi, type MockTokens } from 'community-server-sdk/mock';
import { setupMockWorker } from 'community-server-sdk/mock/browser';
import { isCurrentLoa, isOpenCall } from './filters';
import { count, describeError, formatDay, formatTime, text } from './format';
import { mountPanel, type PageView } from './panel';
import { localPage, scanNewest, type Scan } from './scan';

const MEMBERS_PER_PAGE = 10;
const FILTERED_PER_PAGE = 5;
/** How many of the newest calls and LOAs the filtered panels read (100 per request). */
const SCAN_LIMIT = 500;

const status = document.querySelector<HTMLElement>('#status')!;

function readSettings(query: URLSearchParams) {
  const token = (query.get('token') ?? 'main') as keyof MockTokens;
  const tokenNames = ['main', 'noCad', 'readOnly', 'expired', 'revoked'];
  if (!tokenNames.includes(token)) throw new Error(`unknown token "${token}": use one of ${tokenNames.join(', ')}`);
  const latency = Number(query.get('latency') ?? 0);
  if (!Number.isSafeInteger(latency) || latency < 0) throw new Error('latency must be a whole number of milliseconds');
  return { token, latency, fault: query.get('fault') };
}

/**
 * A panel loader over a filtered scan: the scan runs once, on the first page asked for, and
 * later pages are cut from it without a request. A failed scan is forgotten, so Retry scans
 * again.
 */
function filteredPages<T>(scan: () => Promise<Scan<T>>, describe: (result: Scan<T>) => string) {
  let pending: Promise<Scan<T>> | undefined;
  return async (page: number): Promise<PageView<T>> => {
    pending ??= scan();
    const result = await pending.catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return { ...localPage(result.matches, page, FILTERED_PER_PAGE), summary: describe(result) };
  };
}

/** "20 open of 60 calls", adding how much was scanned when the walk stopped short of the end. */
function scanSummary(result: Scan<unknown>, matched: string, all: string): string {
  const scope = result.scanned < result.total ? `the newest ${result.scanned} of ${result.total} ${all}` : `${result.total} ${all}`;
  return `${result.matches.length} ${matched} of ${scope}`;
}

async function start(): Promise<void> {
  const { token, latency, fault } = readSettings(new URL(location.href).searchParams);
  const mock = createMockApi({ seed: 1, latency });
  if (fault !== null) mock.faults.add({ endpoint: fault, status: 503 }); // an unknown name is refused, and said
  // The worker script is served next to this page; requests that are not the API's (this
  // page's own files) go to the network untouched.
  await setupMockWorker(mock).start({ serviceWorker: { url: './mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  // No baseUrl: the client's default "/" is this page's origin, where the worker answers.
  const client = new CommunityServerClient({ token: mock.tokens[token] });
  status.textContent = `Offline mock running in this tab: seed ${mock.seed}, token "${token}".`;

  // LOAs name members by id; their names cost one request each, so each is asked for once.
  const usernames = new Map<string, Promise<string>>();
  const usernameOf = (memberId: string) => {
    let name = usernames.get(memberId);
    if (!name) {
      name = client.members.get(memberId).then(
        (member) => text(member.username),
        (error: unknown) => (error instanceof NotFoundError ? '(no longer a member)' : Promise.reject(error)),
      );
      name.catch(() => usernames.delete(memberId)); // a failure is not cached: Retry asks again
      usernames.set(memberId, name);
    }
    return name;
  };

  mountPanel<Member>(document.querySelector('#members')!, {
    noun: 'members',
    rowId: (member) => member.id,
    columns: [
      { header: 'Username', cell: (member) => text(member.username) },
      { header: 'Member id', cell: (member) => member.id.slice(0, 8), title: (member) => member.id, className: 'id' },
      { header: 'Roles', cell: (member) => count(member.roles), className: 'number' },
      { header: 'Joined (UTC)', cell: (member) => formatDay(member.createdAt) },
    ],
    load: async (page) => {
      const result = await client.members.list({ page, pageSize: MEMBERS_PER_PAGE });
      return { rows: result.data, page: result.page, totalPages: result.totalPages, summary: `${result.total} members, newest first` };
    },
  });

  mountPanel<CadCall>(document.querySelector('#calls')!, {
    noun: 'open calls',
    rowId: (call) => call.id,
    columns: [
      { header: 'Call', cell: (call) => call.title },
      { header: 'Code', cell: (call) => text(call.code) },
      { header: 'Priority', cell: (call) => text(call.priority), className: 'number' },
      { header: 'Address', cell: (call) => text(call.address), className: 'text' },
      { header: 'Units', cell: (call) => count(call.units), className: 'number' },
      { header: 'Opened (UTC)', cell: (call) => formatTime(call.createdAt) },
    ],
    load: filteredPages(
      () => scanNewest(client.cad.calls.list({ pageSize: 100 }), isOpenCall, SCAN_LIMIT),
      (result) => scanSummary(result, 'open', 'calls'),
    ),
  });

  type NamedLoa = Loa & { readonly username: string };
  const loaPages = filteredPages(
    () => scanNewest(client.loas.list({ pageSize: 100 }), isCurrentLoa, SCAN_LIMIT),
    (result) => scanSummary(result, 'current', 'LOAs'),
  );

  mountPanel<NamedLoa>(document.querySelector('#loas')!, {
    noun: 'current LOAs',
    rowId: (loa) => loa.id,
    columns: [
      { header: 'Member', cell: (loa) => loa.username, title: (loa) => loa.memberId },
      { header: 'Started (UTC)', cell: (loa) => formatTime(loa.startedAt) },
      { header: 'Planned end (UTC)', cell: (loa) => formatTime(loa.endAt) },
      { header: 'Reason', cell: (loa) => text(loa.reason), className: 'text' },
    ],
    load: async (page) => {
      const view = await loaPages(page);
      // Names are looked up for the rows on screen only, before the page is shown.
      const rows = await Promise.all(view.rows.map(async (loa) => ({ ...loa, username: await usernameOf(loa.memberId) })));
      return { ...view, rows };
    },
  });
}

start().catch((error: unknown) => {
  status.textContent = `The dashboard could not start: ${describeError(error)}`;
  status.classList.add('error');
});
