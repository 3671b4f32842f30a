import type * as z from 'zod/mini';
import { any, bool, int32, int64, looseObject, maybe, str } from './common';

/**
 * A department of the server (police, fire, dispatch…).
 */
export const DepartmentSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: str,
    serverId: str,
    name: str,
    icon: str,
    activated: maybe(bool),
    chatGuildId: maybe(str),
    joinCode: maybe(str),
    type: maybe(int32),
  }))();
/**
 * A department of the server.
 * @example
 * for await (const department of client.departments.list()) console.log(department.name);
 */
export interface Department extends z.infer<typeof DepartmentSchema> {}

/**
 * A member of a department, holding one of its ranks.
 */
export const DepartmentMemberSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: str,
    departmentId: str,
    rankId: str,
    createdAt: int64,
    rankPosition: int32,
    customColumnValues: any,
    supportFlags: any,
    roles: any,
    inactive: maybe(bool),
    inactiveLastShift: maybe(int64),
    inactiveSince: maybe(int64),
  }))();
/**
 * A member of a department.
 * @example
 * const member: DepartmentMember = await client.departments.members.get(departmentId, memberId);
 * const rank = await client.departments.ranks.get(departmentId, member.rankId);
 */
export interface DepartmentMember extends z.infer<typeof DepartmentMemberSchema> {}

/**
 * A rank of a department; `position` orders ranks.
 */
export const DepartmentRankSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: str,
    departmentId: str,
    name: str,
    permissions: str,
    position: int32,
    colour: maybe(str),
    linkedChatRoleId: maybe(str),
  }))();
/**
 * A rank of a department.
 * @example
 * const ranks = await client.departments.ranks.list(departmentId, { orderBy: 'position', sort: 'asc' }).toArray();
 */
export interface DepartmentRank extends z.infer<typeof DepartmentRankSchema> {}
