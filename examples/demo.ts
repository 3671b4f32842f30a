/**
 * `npm run demo`: a small moderation bot, run against the offline mock in-process (no network).
 * It walks every data group of the API through the SDK and prints a short report.
 */
import { AuthenticationError, CommunityServerClient, NotFoundError, toDate, type PagePromise } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';

const mock = createMockApi({ seed: 1 });
// Any origin works: `mock.fetch` answers every request in memory.
const client = new CommunityServerClient({ token: mock.tokens.main, baseUrl: 'https://community.test', fetch: mock.fetch });

const day = (timestamp: number) => toDate(timestamp).toISOString().slice(0, 10);
const line = (label: string, text: string) => console.log(`${label.padEnd(18)}${text}`);
/** `n` and the noun, singular for one: "1 note", "14 responses". */
const counted = (n: number, noun: string) => `${n} ${n === 1 ? noun : `${noun}s`}`;

/** Walks a whole list with `for await`, page by page behind the scenes. */
async function count<T>(list: PagePromise<T>): Promise<number> {
  let n = 0;
  for await (const _ of list) n++;
  return n;
}

const server = await client.server.info();
console.log(`${server.name} — the offline mock, seed ${mock.seed}\n`);

const members = await client.members.list({ pageSize: 100 });
line('members', `${members.total} (newest joined ${day(members.data[0]!.createdAt)})`);
line(
  'roles',
  `${await count(client.roles.list())}: ${(await client.roles.list({ pageSize: 4, orderBy: 'createdAt', sort: 'asc' })).data.map((r) => r.name).join(', ')}, …`,
);

const applications = await client.applications.list({ limit: 100 }).toArray();
const open = applications.filter((a) => a.acceptingResponses);
const first = applications[0]!;
line(
  'applications',
  `${applications.length}, ${open.length} accepting; "${first.title}" has ${counted((await client.applications.responses(first.id)).total, 'response')}`,
);
line('audit log', counted(await count(client.auditLogs.list()), 'event'));

const logs = await client.logs.list({ pageSize: 100 }).toArray({ concurrency: 4 });
const byStaff = new Map<string, number>();
for (const log of logs) byStaff.set(log.createdBy, (byStaff.get(log.createdBy) ?? 0) + 1);
const [topStaff, topCount] = [...byStaff].sort((a, b) => b[1] - a[1])[0]!;
const staffLogs = await client.logs.byStaff(topStaff);
line('moderation logs', `${logs.length}; busiest moderator filed ${topCount} (${staffLogs.total} by the staff filter)`);
line('latest log', `"${logs[0]!.text}" against ${logs[0]!.username} on ${day(logs[0]!.createdAt)}`);

const calls = await client.cad.calls.list({ pageSize: 100 }).toArray();
const openCalls = calls.filter((c) => c.status === 0);
const call = openCalls[0] ?? calls[0]!;
line(
  'CAD calls',
  `${calls.length}, ${openCalls.length} open; "${call.title}" has ${counted((await client.cad.calls.notes(call.id)).total, 'note')}`,
);
const units = await client.cad.units.list({ pageSize: 100 });
const unit = await client.cad.units.get(units.data[0]!.id);
line(
  'CAD units',
  `${counted(units.total, 'unit')} in ${counted((await client.cad.unitGroups.list()).total, 'group')}; unit ${unit.number} (${unit.agency})`,
);
const hearings = await client.cad.courtHearings.list();
const record = await client.cad.records.get(hearings.data[0]!.recordId);
line(
  'CAD records',
  `${(await client.cad.records.list()).total}; ${counted(hearings.total, 'court hearing')}, e.g. on a record "${record.label}"`,
);

line('departments', `${(await client.departments.list()).total}`);
for await (const department of client.departments.list()) {
  const [roster, ranks, shifts, loas, joins, audit] = await Promise.all([
    client.departments.members.list(department.id),
    client.departments.ranks.list(department.id, { pageSize: 100 }),
    client.departments.shifts.list(department.id),
    client.departments.loas.list(department.id),
    client.departments.joinRequests.list(department.id),
    client.departments.auditLogs(department.id),
  ]);
  const top = ranks.data.at(-1)!;
  console.log(
    `  ${department.name}: ${counted(roster.total, 'member')}, ${counted(ranks.total, 'rank')} (top: ${top.name}), ${counted(shifts.total, 'shift')}, ${counted(loas.total, 'LOA')}, ${counted(joins.total, 'join request')}, ${counted(audit.total, 'audit event')}`,
  );
}

line('shifts', `${(await client.shifts.list()).total} server-wide`);
const loas = await client.loas.list({ pageSize: 100 }).toArray();
line('LOAs', `${loas.length}; ${loas.filter((l) => l.startedAt && !l.endedAt).length} running`);
line('join requests', `${(await client.joinRequests.list()).total} waiting`);

// Verification: from a member to their chat account and on to their game account.
let linked = 0;
for await (const member of client.members.list({ pageSize: 100 })) {
  try {
    const { chatId } = await client.members.chatId(member.id);
    const game = await client.verification.gameByChatId(chatId);
    if (linked++ === 0) line('verification', `member ${member.id.slice(0, 8)}… → chat ${chatId} → game ${game.gameId}`);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error; // not linked yet: expected for some
  }
  if (linked === 5) break;
}

// Tokens: create one for a helper bot, use it, deactivate it, and watch it stop working.
const created = await client.tokens.create({ name: 'demo helper', expiresInDays: 7 });
const helper = new CommunityServerClient({ token: String(created.token), baseUrl: 'https://community.test', fetch: mock.fetch });
line(
  'tokens',
  `created "${(await helper.tokens.current()).name}"; ${counted(((await client.tokens.list()) as unknown[]).length, 'token')} on the server`,
);
await client.tokens.deactivate(String(created.id));
try {
  await helper.members.list();
} catch (error) {
  if (!(error instanceof AuthenticationError)) throw error;
  line('', `deactivated; the next call got ${error.status}: ${error.message}`);
}

// Errors are typed: a missing member is a NotFoundError with the service's code.
try {
  await client.members.get('no-such-member');
} catch (error) {
  if (!(error instanceof NotFoundError)) throw error;
  line('errors', `${error.status} ${error.code}: ${error.message}`);
}

const health = await client.health.ready();
line(
  'health',
  `${String(health.status)}; metrics report ${counted((await client.health.metrics()).databasePoolSize, 'database connection')}`,
);

// Live: the mock's activity adds an event every 25 ms while a bot follows three lists with
// watch() and reacts to each new item, until it has reacted 9 times (or 10 s have passed).
console.log("\nlive              the mock's activity on; a bot watches and reacts:");
const enough = new AbortController();
const stopAfter = setTimeout(() => enough.abort(), 10_000);
let reactions = 0;
const react = (text: string) => {
  if (reactions === 9) return;
  console.log(`  ${text}`);
  if (++reactions === 9) enough.abort();
};
/** Follows one list: the page already fetched is the baseline, so only new items come. */
async function follow<T>(list: PagePromise<T>, reaction: (item: T) => string) {
  await list;
  for await (const item of list.watch({ intervalMs: 100, signal: enough.signal })) react(reaction(item));
}
const titles = new Map(applications.map((a) => [a.id, a.title]));
const following = Promise.all([
  follow(client.logs.list(), (log) => `moderation log  ${log.username}: "${log.text}" → posted to #mod-log`),
  follow(client.joinRequests.list(), (request) => `join request    ${request.userId} → welcomed, rules sent`),
  ...applications.map((application) =>
    follow(
      client.applications.responses(application.id),
      (response) => `application     ${response.userId} answered "${titles.get(response.applicationId)}" → queued for review`,
    ),
  ),
]);
mock.activity.start({ intervalMs: 25 });
await following;
mock.activity.stop();
clearTimeout(stopAfter);
console.log(`                  ${counted(reactions, 'reaction')}, then the bot stopped its watches`);
