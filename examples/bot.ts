/**
 * A bot-style script: a shift supervisor's briefing (open CAD calls, who is on leave in each
 * department, the month's moderation), over HTTP. With COMMUNITY_SERVER_BASE_URL and
 * COMMUNITY_SERVER_TOKEN set it talks to that server; without them it starts the offline mock on
 * loopback and talks to that, over real HTTP all the same.
 *
 *   npx tsx examples/bot.ts
 *
 * With `--follow`, it then stays and reacts to new moderation logs, join requests and LOAs as
 * they come (`watch()`), until Ctrl-C (`--follow=30`: for 30 seconds). Against the mock's bin
 * started with `--activity`, there is something to follow:
 *
 *   npm run mock -- --port 4010 --activity 500    (prints its tokens)
 *   COMMUNITY_SERVER_BASE_URL=http://127.0.0.1:4010 COMMUNITY_SERVER_TOKEN=<main token> npx tsx examples/bot.ts --follow
 *
 * Without a configured server, `--follow` turns the offline mock's activity on itself.
 */
import { CommunityServerClient, NotFoundError, toDate, type CadCall, type Loa, type PagePromise } from 'community-server-sdk';

const MONTH_SECONDS = 30 * 24 * 3600;
/** `--follow` (until Ctrl-C) or `--follow=<seconds>`; absent: brief and exit. */
const followArg = process.argv.slice(2).find((arg) => arg === '--follow' || arg.startsWith('--follow='));
const followSeconds = followArg?.includes('=') ? Number(followArg.split('=')[1]) : Number.POSITIVE_INFINITY;

/** A client for the configured server, or for the mock served on a free loopback port. */
async function connect(): Promise<{ client: CommunityServerClient; close: () => Promise<void> }> {
  if (process.env.COMMUNITY_SERVER_BASE_URL && process.env.COMMUNITY_SERVER_TOKEN) {
    return { client: new CommunityServerClient(), close: async () => {} };
  }
  // Loaded only when needed: a bot pointed at the real service does not need msw or faker.
  const { createMockApi } = await import('community-server-sdk/mock');
  const { startMockHttpServer } = await import('community-server-sdk/mock/node');
  const mock = createMockApi({ seed: 1, ...(followArg ? { activity: { intervalMs: 200 } } : {}) });
  const http = await startMockHttpServer({ mock });
  console.log(`(no server configured: briefing from the offline mock at ${http.url})`);
  return { client: new CommunityServerClient({ token: mock.tokens.main, baseUrl: http.url }), close: () => http.close() };
}

/** The spec gives status codes no meaning, so state is read from the timestamps. */
const isOpen = (call: CadCall) => call.closedAt == null;
const isOnLeave = (loa: Loa) => loa.startedAt != null && loa.endedAt == null && loa.cancelledAt == null && loa.expiredAt == null;

async function openCalls(client: CommunityServerClient): Promise<string[]> {
  try {
    const calls = (await client.cad.calls.list({ pageSize: 100 }).toArray()).filter(isOpen);
    const lines = [`Open CAD calls: ${calls.length}`];
    for (const call of calls.slice(0, 3)) {
      const unit = typeof call.primaryUnit === 'number' ? await client.cad.units.get(call.primaryUnit) : undefined;
      lines.push(`- ${call.title} (priority ${call.priority ?? '?'}, ${unit ? `unit ${unit.number}` : 'no unit yet'})`);
    }
    return lines;
  } catch (error) {
    // A server without CAD answers 404 cad_not_found for every CAD request.
    if (error instanceof NotFoundError && error.code === 'cad_not_found') return ['Open CAD calls: CAD is not enabled on this server'];
    throw error;
  }
}

async function leave(client: CommunityServerClient): Promise<string[]> {
  const lines = ['On leave:'];
  for await (const department of client.departments.list()) {
    const [roster, loas] = await Promise.all([
      client.departments.members.list(department.id, { pageSize: 1 }),
      client.departments.loas.list(department.id, { pageSize: 100 }).toArray({ concurrency: 2 }),
    ]);
    lines.push(`- ${department.name}: ${loas.filter(isOnLeave).length} of ${roster.total}`);
  }
  return lines;
}

async function moderation(client: CommunityServerClient): Promise<string[]> {
  // Logs come newest first, so the walk stops at the first one older than 30 days: only the
  // pages that hold the month are ever fetched.
  const byStaff = new Map<string, number>();
  let monthStart: number | undefined;
  for await (const log of client.logs.list({ pageSize: 100 })) {
    monthStart ??= log.createdAt - MONTH_SECONDS; // the 30 days before the newest log
    if (log.createdAt < monthStart) break;
    byStaff.set(log.createdBy, (byStaff.get(log.createdBy) ?? 0) + 1);
  }
  const total = [...byStaff.values()].reduce((sum, n) => sum + n, 0);
  const busiest = [...byStaff].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  if (!busiest || monthStart === undefined) return ['Moderation: no actions logged'];
  const staff = await client.members.get(busiest[0]);
  const name = typeof staff.username === 'string' ? staff.username : staff.id; // a field the spec does not name
  return [
    `Moderation since ${toDate(monthStart).toISOString().slice(0, 10)}: ${total} actions by ${byStaff.size} staff; busiest ${name} (${busiest[1]})`,
  ];
}

/**
 * Reacts to what enters three lists, each page already fetched being the baseline, until
 * `signal` aborts. A watch rides out network errors, 429s and 5xx by itself.
 */
async function follow(client: CommunityServerClient, signal: AbortSignal): Promise<void> {
  const watch = async <T>(list: PagePromise<T>, react: (item: T) => string) => {
    await list;
    for await (const item of list.watch({ intervalMs: 1_000, signal })) console.log(react(item));
  };
  await Promise.all([
    watch(client.logs.list(), (log) => `[log] ${log.username}: ${log.text} (by ${log.createdBy})`),
    watch(client.joinRequests.list(), (request) => `[join] ${request.userId} asks to join`),
    watch(client.loas.list(), (loa) => `[loa] ${loa.memberId} asks for leave: ${loa.reason ?? 'no reason given'}`),
  ]);
}

const { client, close } = await connect();
try {
  const server = await client.server.info();
  console.log(`Briefing for ${server.name ?? server.id}`);
  for (const section of [openCalls, leave, moderation]) console.log((await section(client)).join('\n'));
  if (followArg) {
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    const timer = Number.isFinite(followSeconds) ? setTimeout(() => stop.abort(), followSeconds * 1000) : undefined;
    console.log(`Following moderation logs, join requests and LOAs${timer ? ` for ${followSeconds} s` : ' (Ctrl-C stops)'}:`);
    await follow(client, stop.signal);
    clearTimeout(timer);
  }
} finally {
  await close();
}
