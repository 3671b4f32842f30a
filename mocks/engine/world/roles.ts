/**
 * Roles of a server.
 * @module
 */
import { RoleSchema, type Role } from '../../../src/schemas/index';
import { WORLD_START } from './draw';
import type { WorldTable } from './table';

/**
 * A role as the mock stores it.
 * @example
 * mock.store.main.roles.insert({ id: 'r-new', name: 'Dispatcher', createdAt: WORLD_END });
 */
export interface RoleRow extends Role {
  /** The id `roles.get(roleId)` takes. */
  id: string;
  /** Unix seconds; roles list oldest first. */
  createdAt: number;
}

const ROLE_NAMES = [
  'Owner',
  'Admin',
  'Moderator',
  'Trial Moderator',
  'Staff',
  'Developer',
  'Event Team',
  'Verified',
  'Member',
  'Civilian',
  'Muted',
  'Nitro Booster',
  'Content Creator',
  'Partner',
  'Retired Staff',
  'Recruit',
];

export const rolesTable: WorldTable<RoleRow> = {
  spec: { key: 'id', orderBy: ['createdAt', 'id'], sort: 'asc' },
  schema: RoleSchema,
  references: { serverId: 'server' },
  row: (d, { serverId }, i) => {
    const role: RoleRow = {
      id: d.uuid(),
      serverId,
      // Past the list, names repeat with a number: "Staff 2".
      name: ROLE_NAMES[i % ROLE_NAMES.length] + (i >= ROLE_NAMES.length ? ` ${Math.floor(i / ROLE_NAMES.length) + 1}` : ''),
      permissions: String(d.int(0, 2 ** 31 - 1)),
      createdAt: d.time(WORLD_START, 60),
    };
    d.optional(role, 'colour', () => d.f.color.rgb());
    d.optional(role, 'linkedChatRoleId', d.snowflake, 0.6, 0.3);
    // Added since, drawn aside so the rows above keep their values: most roles have no extras.
    if (i % 3 !== 1) role.extraPermissions = i % 3 === 0 ? 0 : d.aside.int(1, 255);
    return role;
  },
};
