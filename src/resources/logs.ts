import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { Log } from './schemas';

/** Moderation logs. */
export const logs = {
  /** #42: moderation logs, paged. */
  list: list('/api/v1/server/logs', Log, created),
  /** #43: the logs one staff member wrote, paged. */
  byStaff: list('/api/v1/server/logs/staff/{staffId}', Log, created),
  /** #44: the logs about one username, paged. */
  byUser: list('/api/v1/server/logs/user/{username}', Log, created),
  /** #45: one log entry. */
  get: get('/api/v1/server/logs/{logId}', Log),
};
