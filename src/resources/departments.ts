import { get, list } from '../core/endpoint';
import { byId, created, createdListedOtherwise, joinRequest, stamped } from './watch-keys';
import { AuditLogEvent, ChatIdResponse, Department, DepartmentMember, DepartmentRank, JoinRequest, Loa, Shift } from './schemas';

/** Departments and what lives inside one. Every nested request answers 404 for an unknown department. */
export const departments = {
  /** #19: the server's departments, paged. */
  list: list('/api/v1/server/departments', Department, byId),
  /** #20: one department. */
  get: get('/api/v1/server/departments/{departmentId}', Department),
  /** #21: a department's audit log, paged. */
  auditLogs: list('/api/v1/server/departments/{departmentId}/audit-logs', AuditLogEvent, stamped),
  joinRequests: {
    /** #22: requests to join a department, paged. */
    list: list('/api/v1/server/departments/{departmentId}/join-requests', JoinRequest, joinRequest),
    /** #23: one user's request to join a department. */
    get: get('/api/v1/server/departments/{departmentId}/join-requests/{userId}', JoinRequest),
  },
  loas: {
    /** #24: a department's leave-of-absence requests, paged. */
    list: list('/api/v1/server/departments/{departmentId}/loas', Loa, created),
    /** #25: one member's LOAs in a department, paged. */
    byMember: list('/api/v1/server/departments/{departmentId}/loas/user/{memberId}', Loa, created),
    /** #26: one LOA of a department. */
    get: get('/api/v1/server/departments/{departmentId}/loas/{loaId}', Loa),
  },
  members: {
    /** #27: a department's members, paged. */
    list: list('/api/v1/server/departments/{departmentId}/members', DepartmentMember, createdListedOtherwise),
    /** #28: a department member found by chat-platform id. */
    getByChatId: get('/api/v1/server/departments/{departmentId}/members/chat/{chatId}', DepartmentMember),
    /** #29: one department member. */
    get: get('/api/v1/server/departments/{departmentId}/members/{memberId}', DepartmentMember),
    /** #30: the chat-platform id of a department member. */
    chatId: get('/api/v1/server/departments/{departmentId}/members/{memberId}/chat', ChatIdResponse),
  },
  ranks: {
    /** #31: a department's ranks, paged. */
    list: list('/api/v1/server/departments/{departmentId}/ranks', DepartmentRank, byId),
    /** #32: one rank of a department. */
    get: get('/api/v1/server/departments/{departmentId}/ranks/{rankId}', DepartmentRank),
  },
  shifts: {
    /** #33: a department's shifts, paged. */
    list: list('/api/v1/server/departments/{departmentId}/shifts', Shift, created),
    /** #34: one member's shifts in a department, paged. */
    byMember: list('/api/v1/server/departments/{departmentId}/shifts/user/{memberId}', Shift, created),
    /** #35: one shift of a department. */
    get: get('/api/v1/server/departments/{departmentId}/shifts/{shiftId}', Shift),
  },
};
