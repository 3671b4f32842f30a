import { get, list } from '../core/endpoint';
import { Log } from './schemas';

/** Moderation logs. */
export const logs = {
  /** #42: moderation logs, paged. */
  list: list('/api/v1/server/logs', Log),
  /** #43: the logs one staff member wrote, paged. */
  byStaff: list('/api/v1/server/logs/staff/{staffId}', Log),
  /** #44: the logs about one username, paged. */
  byUser: list('/api/v1/server/logs/user/{username}', Log),
  /** #45: one log entry. */
  get: get('/api/v1/server/logs/{logId}', Log),
};
