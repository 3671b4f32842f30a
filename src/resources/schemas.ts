/**
 * The schemas as the resource tables see them: each typed by its named interface, so the methods
 * inferred from a table read `APIPromise<Member>` in editors and docs, not a 60-field literal.
 * Same objects as `community-server-sdk/schemas`; only their static type is narrowed.
 * @module
 */
import type * as z from 'zod/mini';
import * as s from '../schemas/index';

type Of<T> = z.ZodMiniType<T>;

export const Account: Of<s.Account> = s.AccountSchema;
export const Application: Of<s.Application> = s.ApplicationSchema;
export const ApplicationResponse: Of<s.ApplicationResponse> = s.ApplicationResponseSchema;
export const AuditLogEvent: Of<s.AuditLogEvent> = s.AuditLogEventSchema;
export const CadCall: Of<s.CadCall> = s.CadCallSchema;
export const CadCallNote: Of<s.CadCallNote> = s.CadCallNoteSchema;
export const CadCourtHearing: Of<s.CadCourtHearing> = s.CadCourtHearingSchema;
export const CadRecord: Of<s.CadRecord> = s.CadRecordSchema;
export const CadUnit: Of<s.CadUnit> = s.CadUnitSchema;
export const CadUnitGroup: Of<s.CadUnitGroup> = s.CadUnitGroupSchema;
export const ChatIdResponse: Of<s.ChatIdResponse> = s.ChatIdResponseSchema;
export const CreateTokenRequest: z.ZodMiniType<s.CreateTokenRequest, s.CreateTokenRequest> = s.CreateTokenRequestSchema;
export const Department: Of<s.Department> = s.DepartmentSchema;
export const DepartmentMember: Of<s.DepartmentMember> = s.DepartmentMemberSchema;
export const DepartmentRank: Of<s.DepartmentRank> = s.DepartmentRankSchema;
export const GameConnection: Of<s.GameConnection> = s.GameConnectionSchema;
export const HealthStatus: Of<s.HealthStatus> = s.HealthStatusSchema;
export const JoinRequest: Of<s.JoinRequest> = s.JoinRequestSchema;
export const Loa: Of<s.Loa> = s.LoaSchema;
export const Log: Of<s.Log> = s.LogSchema;
export const Member: Of<s.Member> = s.MemberSchema;
export const Metrics: Of<s.Metrics> = s.MetricsSchema;
export const RateLimitStatus: Of<s.RateLimitStatus> = s.RateLimitStatusSchema;
export const ReadinessStatus: Of<s.ReadinessStatus> = s.ReadinessStatusSchema;
export const Role: Of<s.Role> = s.RoleSchema;
export const ServerInfo: Of<s.ServerInfo> = s.ServerInfoSchema;
export const Shift: Of<s.Shift> = s.ShiftSchema;
export const Token: Of<s.Token> = s.TokenSchema;
export const TokenList: Of<s.TokenList> = s.TokenListSchema;
