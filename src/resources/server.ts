import { get } from '../core/endpoint';
import { ServerInfo } from './schemas';

export const serverInfo = /* @__PURE__ */ get('server.info', '/api/v1/server/info', ServerInfo);

/** The server the token belongs to. */
export const server = {
  /** #36: information on the server. */
  info: serverInfo,
};
