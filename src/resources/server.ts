import { get } from '../core/endpoint';
import { ServerInfo } from './schemas';

/** The server the token belongs to. */
export const server = {
  /** #36: information on the server. */
  info: get('/api/v1/server/info', ServerInfo),
};
