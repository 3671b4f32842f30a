/**
 * Moderation logs.
 * @module
 */
import { LogSchema, type Log } from '../../../src/schemas/index';
import { WORLD_END } from './draw';
import { LOG_REASONS } from './kinds';
import { byTime, type WorldTable } from './table';
import { openJson, spread } from './variety';

export const logsTable: WorldTable<Log> = {
  spec: byTime<Log>('createdAt', ['createdBy', 'username']),
  schema: LogSchema,
  references: { serverId: 'server', createdBy: 'member' },
  row: (d, { serverId, staffIds, usernames }, i) => {
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
      editedBy: openJson(d.chance(0.1) ? [d.pick(staffIds)] : [], i, 2),
      username: d.pick(usernames),
      proof: openJson(d.chance(0.6) ? [f.internet.url()] : [], i, 3),
    };
    d.optional(log, 'description', () => f.lorem.sentence(), 0.5);
    d.optional(log, 'gameId', () => f.string.numeric({ length: 9, allowLeadingZeros: false }), 0.6);
    if (type === 3) {
      log.tempBan = d.chance(0.5);
      d.optional(log, 'unbanAt', () => d.time(createdAt, 30), 0.6, 0.4);
    }
    d.optional(log, 'hidden', () => d.chance(0.05), 0.4, 0.3);
    // The fields added since: drawn aside, so the rows above keep their values.
    const a = d.aside;
    const staff = () => a.pick(staffIds);
    // A log expires (a warning runs out) within three months; the hidden and the handled name who did it.
    const expiredAt = a.time(createdAt, 90);
    return spread(log, i, {
      description: (drawn) => drawn ?? a.sentence(),
      gameId: (drawn) => drawn ?? a.f.string.numeric({ length: 9, allowLeadingZeros: false }),
      typeId: () => a.uuid(),
      hidden: (drawn) => drawn || i % 9 === 4,
      hiddenBy: () => (log.hidden ? staff() : null),
      // A request log is completed or denied, never both.
      completedBy: staff,
      deniedBy: () => (log.completedBy == null ? staff() : null),
      expired: () => expiredAt < WORLD_END - 30 * 86_400,
      expiredAt: () => (log.expired ? expiredAt : null),
      expiredBy: () => (log.expired ? staff() : null),
      tempBan: (drawn) => drawn ?? false,
    });
  },
  needs: ['authorIds', 'usernames'],
  // The players logs are about: about three logs each, some players logged many times.
  *seed(d, refs, count) {
    const usernames = Array.from({ length: Math.max(1, Math.ceil(count / 3)) }, () => d.f.internet.username());
    for (let i = 0; i < count; i++) yield logsTable.row(d, { ...refs, usernames }, i);
  },
};
