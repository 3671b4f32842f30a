/**
 * Moderation logs.
 * @module
 */
import { LogSchema, type Log } from '../../src/schemas/index';
import { LOG_REASONS } from './kinds';
import { byTime, type Table } from './table';

export const logs: Table<Log> = {
  spec: byTime<Log>('createdAt', ['createdBy', 'username']),
  schema: LogSchema,
  row: (d, { serverId, staffIds, usernames }) => {
    const f = d.f;
    const createdAt = d.time();
    const type = d.int(0, 4);
    const log: Log = {
      id: d.uuid(),
      serverId,
      type,
      text: d.pick(LOG_REASONS),
      createdAt,
      createdBy: d.pick(staffIds),
      editedBy: d.chance(0.1) ? [d.pick(staffIds)] : [],
      username: d.pick(usernames),
      proof: d.chance(0.6) ? [f.internet.url()] : [],
    };
    d.optional(log, 'description', () => f.lorem.sentence(), 0.5);
    d.optional(log, 'gameId', () => f.string.numeric({ length: 9, allowLeadingZeros: false }), 0.6);
    if (type === 3) {
      log.tempBan = d.chance(0.5);
      d.optional(log, 'unbanAt', () => d.time(createdAt, 30), 0.6, 0.4);
    }
    d.optional(log, 'hidden', () => d.chance(0.05), 0.4, 0.3);
    return log;
  },
  needs: ['authorIds', 'usernames'],
  // The players logs are about: about three logs each, some players logged many times.
  seed: (d, refs, count) => {
    const usernames = Array.from({ length: Math.max(1, Math.ceil(count / 3)) }, () => d.f.internet.username());
    return Array.from({ length: count }, (_, i) => logs.row(d, { ...refs, usernames }, i));
  },
};
