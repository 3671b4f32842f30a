/**
 * A snapshot as the mock's world: the snapshot's server becomes `main`; `noCad` and the five
 * tokens stay the seeded ones, re-pointed at the snapshot's server. The one place that knows the
 * world's internal layout on the snapshot side.
 * @module
 */
import type { WorldCounts } from '../../contract/counts';
import { buildWorld, DEFAULT_COUNTS, type AccountLink, type ServerWorld, type World } from '../world';
import type { WorldSnapshot } from '../../contract/snapshot';

/** A seeded `main` with no rows: only its id and the tokens pointing at it are used. */
const NO_ROWS = Object.fromEntries(Object.keys(DEFAULT_COUNTS).map((name) => [name, 0])) as unknown as WorldCounts;

/**
 * The world `createMockApi({ world: snapshot, seed })` serves. `snapshot` must have passed
 * `parseSnapshot`; its rows are shared, not copied (the mock clones the world it serves).
 */
export function worldFromSnapshot(snapshot: WorldSnapshot, seed: number): World {
  const seeded = buildWorld(seed, NO_ROWS);
  // The API adds the member count to the server's information; the mock counts its own members.
  const { memberCount: _memberCount, ...info } = snapshot.server;
  const memberSince = new Map(snapshot.members.map((member) => [member.id, member.createdAt]));
  // A link without a game account does not show its times; the member's arrival stands in.
  const links: AccountLink[] = snapshot.accountLinks.map(({ memberId, chatId, gameId, createdAt, lastUpdatedAt }) => {
    const since = createdAt ?? memberSince.get(memberId) ?? 0;
    return { memberId, chatId, gameId, createdAt: since, lastUpdatedAt: lastUpdatedAt ?? since };
  });
  const main: ServerWorld = {
    info,
    members: snapshot.members,
    links,
    // The spec leaves roles and shifts open; the schema made sure they carry the ids the mock looks them up by.
    roles: snapshot.roles as ServerWorld['roles'],
    applications: snapshot.applications,
    applicationResponses: snapshot.applicationResponses,
    auditLogs: snapshot.auditLogs,
    logs: snapshot.logs,
    joinRequests: snapshot.joinRequests,
    loas: snapshot.loas,
    shifts: snapshot.shifts as ServerWorld['shifts'],
    departments: snapshot.departments as ServerWorld['departments'],
    cad: snapshot.cad,
  };
  const seededMainId = seeded.main.info.id;
  const tokens = seeded.tokens.map((token) => (token.serverId === seededMainId ? { ...token, serverId: info.id } : token));
  return { seed, main, noCad: seeded.noCad, tokens, secrets: seeded.secrets };
}
