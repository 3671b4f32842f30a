import { get, list } from '../core/endpoint';
import { byId, created, createdListedOtherwise, joinRequest, stamped } from './watch-keys';
import { AuditLogEvent, ChatIdResponse, Department, DepartmentMember, DepartmentRank, JoinRequest, Loa, Shift } from './schemas';

/** The item lines (#20, #23, #26, #29, #32, #35), named here too: each list's items are what its get answers. */
const department = get('/api/v1/server/departments/{departmentId}', Department);
const joinRequestOf = get('/api/v1/server/departments/{departmentId}/join-requests/{userId}', JoinRequest);
const loa = get('/api/v1/server/departments/{departmentId}/loas/{loaId}', Loa);
const member = get('/api/v1/server/departments/{departmentId}/members/{memberId}', DepartmentMember);
const rank = get('/api/v1/server/departments/{departmentId}/ranks/{rankId}', DepartmentRank);
const shift = get('/api/v1/server/departments/{departmentId}/shifts/{shiftId}', Shift);

/** Departments and what lives inside one. Every nested request answers 404 for an unknown department. */
export const departments = {
  /** #19: the server's departments, paged. */
  list: list('/api/v1/server/departments', Department, { ...byId, itemGet: department }),
  /** #20: one department. */
  get: department,
  /** #21: a department's audit log, paged. */
  auditLogs: list('/api/v1/server/departments/{departmentId}/audit-logs', AuditLogEvent, stamped),
  joinRequests: {
    /** #22: requests to join a department, paged. */
    list: list('/api/v1/server/departments/{departmentId}/join-requests', JoinRequest, { ...joinRequest, itemGet: joinRequestOf }),
    /** #23: one user's request to join a department. */
    get: joinRequestOf,
  },
  loas: {
    /** #24: a department's leave-of-absence requests, paged. */
    list: list('/api/v1/server/departments/{departmentId}/loas', Loa, { ...created, itemGet: loa }),
    /** #25: one member's LOAs in a department, paged. */
    byMember: list('/api/v1/server/departments/{departmentId}/loas/user/{memberId}', Loa, { ...created, itemGet: loa }),
    /** #26: one LOA of a department. */
    get: loa,
  },
  members: {
    /** #27: a department's members, paged. */
    list: list('/api/v1/server/departments/{departmentId}/members', DepartmentMember, { ...createdListedOtherwise, itemGet: member }),
    /** #28: a department member found by chat-platform id. */
    getByChatId: get('/api/v1/server/departments/{departmentId}/members/chat/{chatId}', DepartmentMember),
    /** #29: one department member. */
    get: member,
    /** #30: the chat-platform id of a department member. */
    chatId: get('/api/v1/server/departments/{departmentId}/members/{memberId}/chat', ChatIdResponse),
  },
  ranks: {
    /** #31: a department's ranks, paged. */
    list: list('/api/v1/server/departments/{departmentId}/ranks', DepartmentRank, { ...byId, itemGet: rank }),
    /** #32: one rank of a department. */
    get: rank,
  },
  shifts: {
    /** #33: a department's shifts, paged. */
    list: list('/api/v1/server/departments/{departmentId}/shifts', Shift, { ...created, itemGet: shift }),
    /** #34: one member's shifts in a department, paged. */
    byMember: list('/api/v1/server/departments/{departmentId}/shifts/user/{memberId}', Shift, { ...created, itemGet: shift }),
    /** #35: one shift of a department. */
    get: shift,
  },
};
