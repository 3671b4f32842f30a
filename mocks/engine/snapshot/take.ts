/**
 * `snapshotWorld(client)`: every data group of the client's server, read through the SDK's own
 * methods, as a {@link WorldSnapshot}. Requests go through the client, so its rate-limit gate,
 * retries and validation apply; at most `concurrency` of them are in flight at once.
 * @module
 */
import type { CommunityServerClient } from '../../../src/client';
import { InvalidArgumentError, NotFoundError } from '../../../src/core/errors';
import type { PagePromise } from '../../../src/core/pagination';
import { progressMeter, type ProgressMeter, type ProgressStream } from './progress';
import {
  SNAPSHOT_VERSION,
  type SnapshotAccountLink,
  type SnapshotCad,
  type SnapshotDepartment,
  type WorldSnapshot,
} from '../../contract/snapshot';

/**
 * What {@link snapshotWorld} reads through: a `CommunityServerClient` (any object with these
 * namespaces will do).
 * @example
 * const client: SnapshotClient = new CommunityServerClient({ token, baseUrl: 'https://api.example.com' });
 */
export type SnapshotClient = Pick<
  CommunityServerClient,
  | 'server'
  | 'tokens'
  | 'members'
  | 'verification'
  | 'roles'
  | 'applications'
  | 'auditLogs'
  | 'logs'
  | 'joinRequests'
  | 'loas'
  | 'shifts'
  | 'departments'
  | 'cad'
>;

/**
 * Options of {@link snapshotWorld}.
 * @example
 * await snapshotWorld(client, { concurrency: 8, progress: false, accountLinks: false });
 */
export interface SnapshotOptions {
  /** Requests in flight at once (default 4); the client's rate limit still holds them back when its window is spent. */
  concurrency?: number;
  /**
   * Where the progress line is drawn (default `process.stderr`); drawn only when the stream is a
   * TTY, so logs and pipes stay clean. `false` silences it.
   */
  progress?: ProgressStream | false;
  /**
   * Read each member's chat and game accounts (default `true`): what `members.chatId`,
   * `members.getByChatId` and the verification lookups answer. It costs one or two requests a
   * member; `false` skips them (those lookups then answer 404).
   */
  accountLinks?: boolean;
}

const OPTION_NAMES = new Set(['concurrency', 'progress', 'accountLinks']);
const DEFAULT_CONCURRENCY = 4;
/** The largest page the mock serves; fewer, fuller pages keep a large server's snapshot short. */
const PAGE = { pageSize: 100 } as const;

function checkSnapshotArguments(client: SnapshotClient, options: SnapshotOptions) {
  if (typeof client?.members?.list !== 'function') {
    throw new InvalidArgumentError('snapshotWorld(client): client must be a CommunityServerClient');
  }
  if (typeof options !== 'object' || options === null) throw new InvalidArgumentError('snapshotWorld options must be an object');
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) {
      throw new InvalidArgumentError(`unknown snapshotWorld option "${name}"; known: ${[...OPTION_NAMES].join(', ')}`);
    }
  }
  const { concurrency = DEFAULT_CONCURRENCY, accountLinks = true, progress } = options;
  if (!(Number.isSafeInteger(concurrency) && concurrency >= 1)) {
    throw new InvalidArgumentError(`snapshotWorld concurrency must be a whole number ≥ 1, got ${String(concurrency)}`);
  }
  if (typeof accountLinks !== 'boolean') throw new InvalidArgumentError('snapshotWorld accountLinks must be a boolean');
  if (progress !== undefined && progress !== false && typeof progress?.write !== 'function') {
    throw new InvalidArgumentError('snapshotWorld progress must be false or a stream with write()');
  }
  return { concurrency, accountLinks, stream: progress === undefined ? defaultStream() : progress || undefined };
}

/** `process.stderr` where there is one (not in a browser). */
const defaultStream = (): ProgressStream | undefined => (globalThis as { process?: { stderr?: ProgressStream } }).process?.stderr;

/** `items` mapped by `fn`, `width` at a time, in order; the first failure stops starting new ones. */
async function mapPool<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const at = next++;
      try {
        results[at] = await fn(items[at]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

/** The answer, or `undefined` when the API says 404 (a member without a chat link, a server without CAD). */
async function unlessMissing<T>(request: PromiseLike<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/**
 * Reads every data group of the server `client`'s token belongs to and returns it as a
 * JSON-serialisable {@link WorldSnapshot}: server information, members and their account links,
 * roles, applications and their responses, the audit log, logs, join requests, LOAs, shifts,
 * departments with everything inside them, and CAD (calls with their notes, records, court
 * hearings, units, unit groups). Pages are fetched in parallel within `concurrency`; rows are kept
 * as the API returned them, in its default order. No token is written, secret or not.
 * @example
 * import { CommunityServerClient } from 'community-server-sdk';
 * import { createMockApi, snapshotWorld } from 'community-server-sdk/mock';
 *
 * const client = new CommunityServerClient({ token: process.env.COMMUNITY_SERVER_TOKEN, baseUrl: 'https://api.example.com' });
 * const snapshot = await snapshotWorld(client);
 * const mock = createMockApi({ world: snapshot }); // the real server's data, offline
 */
export function snapshotWorld(client: SnapshotClient, options: SnapshotOptions = {}): Promise<WorldSnapshot> {
  // Checked here, not in the promise: a bad option throws at the call, before any request.
  const { concurrency, accountLinks, stream } = checkSnapshotArguments(client, options);
  return take(new Reader(client, concurrency, progressMeter(stream)), accountLinks);
}

async function take(reader: Reader, accountLinks: boolean): Promise<WorldSnapshot> {
  const { meter } = reader;
  try {
    const snapshot = await reader.read(accountLinks);
    meter.finish(`snapshot of "${snapshot.server.name ?? snapshot.server.id}" taken`);
    return snapshot;
  } catch (error) {
    meter.finish('snapshot failed');
    throw error;
  }
}

/** One snapshot's reading: the client, how wide to fan out, and the progress it reports. */
class Reader {
  constructor(
    private readonly client: SnapshotClient,
    private readonly concurrency: number,
    readonly meter: ProgressMeter,
  ) {}

  /**
   * Every row of a list, `pages` pages at a time, counted on the progress line. A live list may
   * shift while its pages are read, showing a row on two of them: it is kept once, where it was
   * first read (a world with two rows under one key is refused).
   */
  private async all<T>(list: PagePromise<T>, pages = this.concurrency, key = 'id'): Promise<T[]> {
    const rows = await list.toArray({ concurrency: pages });
    this.meter.add(rows.length);
    const seen = new Set<unknown>();
    return rows.filter((row) => {
      const id = (row as Record<string, unknown>)[key];
      if (id !== undefined && seen.has(id)) return false;
      seen.add(id);
      return true;
    });
  }

  /** A list of each parent (a call's notes, an application's responses), parents side by side, one page at a time each. */
  private async ofEach<P, T>(parents: readonly P[], list: (parent: P) => PagePromise<T>): Promise<T[]> {
    return (await mapPool(parents, this.concurrency, (parent) => this.all(list(parent), 1))).flat();
  }

  private step<T>(label: string, read: () => Promise<T>): Promise<T> {
    this.meter.step(label);
    return read();
  }

  async read(withLinks: boolean): Promise<WorldSnapshot> {
    const { client } = this;
    const takenAt = new Date().toISOString();
    const info = await this.step('server', () => client.server.info());
    // The spec leaves server information open; the token always knows its server.
    const id = typeof info.id === 'string' ? info.id : (await client.tokens.current()).serverId;
    if (typeof id !== 'string') throw new Error('snapshotWorld: neither server.info() nor tokens.current() names the server id');
    const members = await this.step('members', () => this.all(client.members.list(PAGE)));
    const accountLinks = withLinks ? await this.step('account links', () => this.accountLinks(members.map((member) => member.id))) : [];
    const roles = await this.step('roles', () => this.all(client.roles.list(PAGE)));
    const applications = await this.step('applications', () => this.all(client.applications.list(PAGE)));
    const applicationResponses = await this.step('application responses', () =>
      this.ofEach(applications, (application) => client.applications.responses(application.id, PAGE)),
    );
    const auditLogs = await this.step('audit logs', () => this.all(client.auditLogs.list(PAGE)));
    const logs = await this.step('logs', () => this.all(client.logs.list(PAGE)));
    const joinRequests = await this.step('join requests', () => this.all(client.joinRequests.list(PAGE), this.concurrency, 'userId'));
    const loas = await this.step('LOAs', () => this.all(client.loas.list(PAGE)));
    const shifts = await this.step('shifts', () => this.all(client.shifts.list(PAGE)));
    const departments = await this.step('departments', () => this.departments());
    const cad = await this.step('CAD', () => this.cad());
    return {
      version: SNAPSHOT_VERSION,
      takenAt,
      server: { ...info, id },
      members,
      accountLinks,
      roles,
      applications,
      applicationResponses,
      auditLogs,
      logs,
      joinRequests,
      loas,
      shifts,
      departments,
      cad,
    };
  }

  /** Each member's chat account (a 404: none) and, through it, their game account (a 404: none). */
  private async accountLinks(memberIds: readonly string[]): Promise<SnapshotAccountLink[]> {
    const { members, verification } = this.client;
    const links = await mapPool(memberIds, this.concurrency, async (memberId): Promise<SnapshotAccountLink | undefined> => {
      const chat = await unlessMissing(members.chatId(memberId));
      if (chat === undefined) return undefined;
      const game = await unlessMissing(verification.gameByChatId(chat.chatId));
      this.meter.add(1);
      const link: SnapshotAccountLink = { memberId, chatId: chat.chatId, gameId: game?.gameId ?? null };
      // Only a game connection shows the link's times; the spec lets it leave them out.
      if (typeof game?.createdAt === 'number') link.createdAt = game.createdAt;
      if (typeof game?.lastUpdatedAt === 'number') link.lastUpdatedAt = game.lastUpdatedAt;
      return link;
    });
    return links.filter((link) => link !== undefined);
  }

  private async departments(): Promise<SnapshotDepartment[]> {
    const { departments } = this.client;
    const list = await this.all(departments.list(PAGE));
    return mapPool(list, this.concurrency, async (department) => ({
      department,
      ranks: await this.all(departments.ranks.list(department.id, PAGE), 1),
      members: await this.all(departments.members.list(department.id, PAGE), 1),
      shifts: await this.all(departments.shifts.list(department.id, PAGE), 1),
      loas: await this.all(departments.loas.list(department.id, PAGE), 1),
      joinRequests: await this.all(departments.joinRequests.list(department.id, PAGE), 1, 'userId'),
      auditLogs: await this.all(departments.auditLogs(department.id, PAGE), 1),
    }));
  }

  /** `null` when the server has no CAD: its calls list answers 404. */
  private async cad(): Promise<SnapshotCad | null> {
    const { cad } = this.client;
    const calls = await unlessMissing(this.all(cad.calls.list(PAGE)));
    if (calls === undefined) return null;
    return {
      calls,
      notes: await this.ofEach(calls, (call) => cad.calls.notes(call.id, PAGE)),
      records: await this.all(cad.records.list(PAGE)),
      courtHearings: await this.all(cad.courtHearings.list(PAGE)),
      units: await this.all(cad.units.list(PAGE)),
      unitGroups: await this.all(cad.unitGroups.list(PAGE)),
    };
  }
}
