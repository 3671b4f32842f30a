import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { Log } from './schemas';

export const logsGet = /* @__PURE__ */ get('logs.get', '/api/v1/server/logs/{logId}', Log);
export const logsList = /* @__PURE__ */ list('logs.list', '/api/v1/server/logs', Log, created, logsGet);
export const logsByStaff = /* @__PURE__ */ list('logs.byStaff', '/api/v1/server/logs/staff/{staffId}', Log, created, logsGet);
export const logsByUser = /* @__PURE__ */ list('logs.byUser', '/api/v1/server/logs/user/{username}', Log, created, logsGet);

/** Moderation logs. */
export const logs = {
  /** #42: moderation logs, paged. */
  list: logsList,
  /** #43: the logs one staff member wrote, paged. */
  byStaff: logsByStaff,
  /** #44: the logs about one username, paged. */
  byUser: logsByUser,
  /** #45: one log entry. */
  get: logsGet,
};
