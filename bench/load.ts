/**
 * Load: `startMockHttpServer` on loopback under 64 concurrent SDK clients, in three bounded
 * phases, each printed as a row of a summary table.
 *
 * 1. steady: every client walks a mix of lists and gets; expect 0 failures, 0 5xx, flat RSS.
 * 2. rate-limited: 64 clients share 16 tokens under a per-token limit, so their proactive waits
 *    cannot see each other and some requests meet a 429; expect every 429 to carry Retry-After
 *    and every client to finish its work by waiting.
 * 3. mixed tokens: 60 clients with a valid token and 4 with an invalid one, under
 *    `authFailureLimit`; expect only the invalid token to be suspended.
 *
 *   npm run load                 (full: ~29k requests, ~30 s)
 *   LOAD_SHORT=1 npm run load    (the CI form, a few seconds)
 */
import { CommunityServerClient, type ClientOptions } from 'community-server-sdk';
import { createMockApi, type MockApi } from 'community-server-sdk/mock';
import { startMockHttpServer } from 'community-server-sdk/mock/node';

const CLIENTS = 64;

export interface PhaseResult {
  phase: string;
  clients: number;
  requests: number;
  failed: number;
  status5xx: number;
  status429: number;
  /** 429 answers that came without a Retry-After header. */
  status429WithoutRetryAfter: number;
  /** Tokens (by label) that met a `token_suspended` answer. */
  suspended: string[];
  seconds: number;
  p50ms: number;
  p99ms: number;
  rssStartMb: number;
  rssEndMb: number;
  rssPeakMb: number;
}

interface Tally {
  requests: number;
  failed: number;
  status5xx: number;
  status429: number;
  status429WithoutRetryAfter: number;
  suspended: Set<string>;
  latencies: number[];
}

const newTally = (): Tally => ({
  requests: 0,
  failed: 0,
  status5xx: 0,
  status429: 0,
  status429WithoutRetryAfter: 0,
  suspended: new Set(),
  latencies: [],
});

/** A fetch that counts what comes back, per label (a token's name). */
function observed(tally: Tally, label: string): typeof globalThis.fetch {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const start = performance.now();
    const response = await globalThis.fetch(input, init);
    tally.latencies.push(performance.now() - start);
    tally.requests++;
    if (response.status >= 500) tally.status5xx++;
    if (response.status === 429) {
      tally.status429++;
      if (!response.headers.get('retry-after')) tally.status429WithoutRetryAfter++;
    }
    if (response.status === 401) {
      const body = (await response.clone().json()) as { error?: { code?: string } };
      if (body.error?.code === 'token_suspended') tally.suspended.add(label);
    }
    return response;
  };
}

/**
 * RSS after each pass of a phase (after a full GC when run with `--expose-gc`, so the figure is
 * what the process keeps, not garbage not yet collected), and its peak sampled every 100 ms.
 */
function rssMonitor() {
  const afterPass: number[] = [];
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
  const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
  return {
    mark() {
      (globalThis as { gc?: () => void }).gc?.();
      afterPass.push(process.memoryUsage.rss());
    },
    stop() {
      clearInterval(timer);
      return { rssStartMb: mb(afterPass[0] ?? 0), rssEndMb: mb(afterPass.at(-1) ?? 0), rssPeakMb: mb(Math.max(peak, ...afterPass)) };
    },
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 10) / 10;
};

/**
 * One client's share of work: lists, gets and nested reads, `rounds` times over. A call that
 * fails counts in `tally.failed` (after the SDK's own retries) and the client carries on.
 */
async function work(tally: Tally, client: CommunityServerClient, mock: MockApi, rounds: number, round0 = 0) {
  const main = mock.store.main;
  const members = main.members.all();
  const departmentId = main.departments.all()[0]!.id;
  const step = (call: PromiseLike<unknown>) =>
    Promise.resolve(call).catch(() => {
      tally.failed++;
    });
  for (let round = round0; round < round0 + rounds; round++) {
    await step(client.members.list({ page: (round % 25) + 1 }));
    await step(client.members.get(members[round % members.length]!.id));
    await step(client.logs.list({ pageSize: 25, page: (round % 16) + 1 }));
    await step(client.cad.calls.list({ page: (round % 6) + 1 }));
    await step(client.departments.members.list(departmentId));
    await step(client.server.info());
  }
}

/** Runs a phase as `passes` passes of `run`, marking RSS after each. */
async function phase(name: string, passes: number, run: (tally: Tally, pass: number) => Promise<unknown>): Promise<PhaseResult> {
  const tally = newTally();
  const rss = rssMonitor();
  const start = performance.now();
  for (let pass = 0; pass < passes; pass++) {
    await run(tally, pass);
    rss.mark();
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    phase: name,
    clients: CLIENTS,
    requests: tally.requests,
    failed: tally.failed,
    status5xx: tally.status5xx,
    status429: tally.status429,
    status429WithoutRetryAfter: tally.status429WithoutRetryAfter,
    suspended: [...tally.suspended],
    seconds: Math.round(seconds * 10) / 10,
    p50ms: percentile(tally.latencies, 0.5),
    p99ms: percentile(tally.latencies, 0.99),
    ...rss.stop(),
  };
}

/**
 * `count` clients at once, each doing its share of `work` (`rounds` rounds from `round0(i)`): the
 * `i`-th on the options `options(i)` gives, against `server`.
 */
function everyClient(
  count: number,
  tally: Tally,
  mock: MockApi,
  rounds: number,
  options: (i: number) => ClientOptions,
  round0: (i: number) => number = (i) => i,
): Promise<void[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => work(tally, new CommunityServerClient(options(i)), mock, rounds, round0(i))));
}

export async function runLoad({ short = false } = {}): Promise<PhaseResult[]> {
  const rounds = short ? 8 : 60; // per client, in 4 passes
  const results: PhaseResult[] = [];

  {
    const mock = createMockApi({ seed: 1 });
    const server = await startMockHttpServer({ mock });
    const main = { token: mock.tokens.main, baseUrl: server.url };
    // A warm-up at full concurrency, so the RSS baseline is the steady state (heap grown to its
    // working size, connections open, code compiled), not the ramp up to it.
    await everyClient(CLIENTS, newTally(), mock, 3, () => main);
    results.push(
      await phase('steady', 4, (tally, pass) =>
        everyClient(
          CLIENTS,
          tally,
          mock,
          rounds / 4,
          () => ({ ...main, fetch: observed(tally, 'main') }),
          (i) => i * 7 + pass * rounds,
        ),
      ),
    );
    await server.close();
  }

  {
    const mock = createMockApi({ seed: 1, rateLimit: { limit: 40, windowMs: 1000 } });
    const server = await startMockHttpServer({ mock });
    const admin = new CommunityServerClient({ token: mock.tokens.main, baseUrl: server.url });
    const tokens: string[] = [];
    for (let i = 0; i < 16; i++) tokens.push(String((await admin.tokens.create({ name: `load ${i}` })).token));
    results.push(
      await phase('rate-limited', 1, (tally) =>
        everyClient(CLIENTS, tally, mock, short ? 2 : 6, (i) => ({
          token: tokens[i % 16]!,
          baseUrl: server.url,
          fetch: observed(tally, `load ${i % 16}`),
          maxRetries: 20,
        })),
      ),
    );
    await server.close();
  }

  {
    const mock = createMockApi({ seed: 1, authFailureLimit: { failures: 5, durationMs: 60_000 }, authErrorShape: 'object' });
    const server = await startMockHttpServer({ mock });
    const invalid = 'cst_not_a_token_0000000000000000000000000000';
    results.push(
      await phase('mixed tokens', 1, async (tally) => {
        await Promise.all([
          everyClient(CLIENTS - 4, tally, mock, short ? 2 : 10, () => ({
            token: mock.tokens.main,
            baseUrl: server.url,
            fetch: observed(tally, 'main'),
          })),
          // The invalid token's clients expect to be refused: each tries, and keeps trying.
          ...Array.from({ length: 4 }, async () => {
            const client = new CommunityServerClient({
              token: invalid,
              baseUrl: server.url,
              fetch: observed(tally, 'invalid'),
              maxRetries: 0,
            });
            for (let i = 0; i < (short ? 6 : 20); i++) await client.roles.list().catch(() => undefined);
          }),
        ]);
      }),
    );
    await server.close();
  }
  return results;
}

export function table(results: PhaseResult[]): string {
  const header = [
    'phase',
    'clients',
    'requests',
    'failed',
    '5xx',
    '429',
    '429 w/o Retry-After',
    'suspended',
    's',
    'req/s',
    'p50 ms',
    'p99 ms',
    'RSS MB after 1st→last pass (peak)',
  ];
  const rows = results.map((r) => [
    r.phase,
    r.clients,
    r.requests,
    r.failed,
    r.status5xx,
    r.status429,
    r.status429WithoutRetryAfter,
    r.suspended.join(', ') || '—',
    r.seconds,
    Math.round(r.requests / r.seconds),
    r.p50ms,
    r.p99ms,
    `${r.rssStartMb}→${r.rssEndMb} (${r.rssPeakMb})`,
  ]);
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await runLoad({ short: process.env.LOAD_SHORT === '1' });
  console.log(process.env.LOAD_JSON === '1' ? JSON.stringify(results) : table(results));
}
