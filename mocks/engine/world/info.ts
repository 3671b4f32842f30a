/**
 * The server itself: what `server.info()` answers.
 * @module
 */
import type { ServerInfo } from '../../../src/schemas/index';
import { WORLD_START, type Draw } from './draw';

/**
 * Server information as the mock stores it (what `server.info()` answers); `id` is always present.
 * @example
 * mock.store.main.info = { ...mock.store.main.info, name: 'Renamed' };
 * (await client.server.info()).name; // 'Renamed'
 */
export interface ServerRow extends ServerInfo {
  /** The server's id (what `admin.rateLimit(serverId)` takes). */
  id: string;
}

/** The seeded server row (stream 0 of the server). */
export function seedInfo(d: Draw): ServerRow {
  return {
    id: d.uuid(),
    name: `${d.f.location.city()} ${d.pick(['Roleplay', 'RP', 'Community', 'State RP'])}`,
    ownerId: d.snowflake(),
    chatGuildId: d.snowflake(),
    joinCode: d.f.string.alphanumeric({ length: 8, casing: 'lower' }),
    createdAt: WORLD_START,
  };
}
