import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { Log } from './schemas';

/** #45's line, named here too: the lists' items are what it answers. */
const log = get('/api/v1/server/logs/{logId}', Log);

/** Moderation logs. */
export const logs = {
  /** #42: moderation logs, paged. */
  list: list('/api/v1/server/logs', Log, { ...created, itemGet: log }),
  /** #43: the logs one staff member wrote, paged. */
  byStaff: list('/api/v1/server/logs/staff/{staffId}', Log, { ...created, itemGet: log }),
  /** #44: the logs about one username, paged. */
  byUser: list('/api/v1/server/logs/user/{username}', Log, { ...created, itemGet: log }),
  /** #45: one log entry. */
  get: log,
};
