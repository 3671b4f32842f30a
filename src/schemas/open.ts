/**
 * Resources whose fields the spec leaves open. Each names the fields the live service is known
 * to return, all optional (and nullable), so a missing field never fails a call while a present
 * one is still type-checked.
 * @module
 */
import * as z from 'zod/mini';
import { anyOpt, bool, int64, looseObject, maybe, str } from './common';

/**
 * A duty shift of a member, server-wide or within a department.
 */
export const ShiftSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: maybe(str),
    serverId: maybe(str),
    memberId: maybe(str),
    type: maybe(str),
    wave: maybe(z.number()),
    autoEnd: maybe(bool),
    breakTimestamps: maybe(z.array(z.unknown())),
    createdAt: maybe(int64),
    endedAt: maybe(int64),
    endedBy: maybe(str),
  }))();
/**
 * A duty shift of a member.
 * @example
 * for await (const shift of client.shifts.byMember(memberId)) console.log(shift.type, shift.createdAt, shift.endedAt);
 */
export interface Shift extends z.infer<typeof ShiftSchema> {}

/**
 * A role of the server.
 */
export const RoleSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: maybe(str),
    serverId: maybe(str),
    name: maybe(str),
    colour: maybe(str),
    permissions: maybe(str),
    extraPermissions: maybe(z.number()),
    linkedChatRoleId: maybe(str),
    createdAt: maybe(int64),
  }))();
/**
 * A role of the server.
 * @example
 * const roles = await client.roles.list({ pageSize: 100 }).toArray();
 * const admins = roles.filter((role) => role.name === 'Admin');
 */
export interface Role extends z.infer<typeof RoleSchema> {}

/**
 * Information on the server the token belongs to.
 */
export const ServerInfoSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: maybe(str),
    name: maybe(str),
    ownerId: maybe(str),
    chatGuildId: maybe(str),
    joinCode: maybe(str),
    createdAt: maybe(int64),
    roles: anyOpt,
  }))();
/**
 * Information on the server the token belongs to.
 * @example
 * const info: ServerInfo = await client.server.info();
 * console.log(info.name);
 */
export interface ServerInfo extends z.infer<typeof ServerInfoSchema> {}

/**
 * The game-platform account linked to a chat-platform account.
 */
export const GameConnectionSchema = /* @__PURE__ */ (() =>
  looseObject({
    gameId: maybe(str),
    userId: maybe(str),
    createdAt: maybe(int64),
    lastUpdatedAt: maybe(int64),
  }))();
/**
 * The game-platform account linked to a chat-platform account.
 * @example
 * const connection: GameConnection = await client.verification.gameByChatId(chatId);
 * console.log(connection.gameId);
 */
export interface GameConnection extends z.infer<typeof GameConnectionSchema> {}
