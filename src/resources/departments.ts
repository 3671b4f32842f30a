import { get, list } from '../core/endpoint';
import { byId, created, createdListedOtherwise, joinRequest, stamped } from './watch-keys';
import { AuditLogEvent, ChatIdResponse, Department, DepartmentMember, DepartmentRank, JoinRequest, Loa, Shift } from './schemas';

export const departmentsGet = /* @__PURE__ */ get('departments.get', '/api/v1/server/departments/{departmentId}', Department);
export const departmentsList = /* @__PURE__ */ list('departments.list', '/api/v1/server/departments', Department, byId, departmentsGet);
export const departmentsAuditLogs = /* @__PURE__ */ list(
  'departments.auditLogs',
  '/api/v1/server/departments/{departmentId}/audit-logs',
  AuditLogEvent,
  stamped,
);
export const departmentsJoinRequestsGet = /* @__PURE__ */ get(
  'departments.joinRequests.get',
  '/api/v1/server/departments/{departmentId}/join-requests/{userId}',
  JoinRequest,
);
export const departmentsJoinRequestsList = /* @__PURE__ */ list(
  'departments.joinRequests.list',
  '/api/v1/server/departments/{departmentId}/join-requests',
  JoinRequest,
  joinRequest,
  departmentsJoinRequestsGet,
);
export const departmentsLoasGet = /* @__PURE__ */ get(
  'departments.loas.get',
  '/api/v1/server/departments/{departmentId}/loas/{loaId}',
  Loa,
);
export const departmentsLoasList = /* @__PURE__ */ list(
  'departments.loas.list',
  '/api/v1/server/departments/{departmentId}/loas',
  Loa,
  created,
  departmentsLoasGet,
);
export const departmentsLoasByMember = /* @__PURE__ */ list(
  'departments.loas.byMember',
  '/api/v1/server/departments/{departmentId}/loas/user/{memberId}',
  Loa,
  created,
  departmentsLoasGet,
);
export const departmentsMembersGet = /* @__PURE__ */ get(
  'departments.members.get',
  '/api/v1/server/departments/{departmentId}/members/{memberId}',
  DepartmentMember,
);
export const departmentsMembersList = /* @__PURE__ */ list(
  'departments.members.list',
  '/api/v1/server/departments/{departmentId}/members',
  DepartmentMember,
  createdListedOtherwise,
  departmentsMembersGet,
);
export const departmentsMembersGetByChatId = /* @__PURE__ */ get(
  'departments.members.getByChatId',
  '/api/v1/server/departments/{departmentId}/members/chat/{chatId}',
  DepartmentMember,
);
export const departmentsMembersChatId = /* @__PURE__ */ get(
  'departments.members.chatId',
  '/api/v1/server/departments/{departmentId}/members/{memberId}/chat',
  ChatIdResponse,
);
export const departmentsRanksGet = /* @__PURE__ */ get(
  'departments.ranks.get',
  '/api/v1/server/departments/{departmentId}/ranks/{rankId}',
  DepartmentRank,
);
export const departmentsRanksList = /* @__PURE__ */ list(
  'departments.ranks.list',
  '/api/v1/server/departments/{departmentId}/ranks',
  DepartmentRank,
  byId,
  departmentsRanksGet,
);
export const departmentsShiftsGet = /* @__PURE__ */ get(
  'departments.shifts.get',
  '/api/v1/server/departments/{departmentId}/shifts/{shiftId}',
  Shift,
);
export const departmentsShiftsList = /* @__PURE__ */ list(
  'departments.shifts.list',
  '/api/v1/server/departments/{departmentId}/shifts',
  Shift,
  created,
  departmentsShiftsGet,
);
export const departmentsShiftsByMember = /* @__PURE__ */ list(
  'departments.shifts.byMember',
  '/api/v1/server/departments/{departmentId}/shifts/user/{memberId}',
  Shift,
  created,
  departmentsShiftsGet,
);

/** Departments and what lives inside one. Every nested request answers 404 for an unknown department. */
export const departments = {
  /** #19: the server's departments, paged. */
  list: departmentsList,
  /** #20: one department. */
  get: departmentsGet,
  /** #21: a department's audit log, paged. */
  auditLogs: departmentsAuditLogs,
  joinRequests: {
    /** #22: requests to join a department, paged. */
    list: departmentsJoinRequestsList,
    /** #23: one user's request to join a department. */
    get: departmentsJoinRequestsGet,
  },
  loas: {
    /** #24: a department's leave-of-absence requests, paged. */
    list: departmentsLoasList,
    /** #25: one member's LOAs in a department, paged. */
    byMember: departmentsLoasByMember,
    /** #26: one LOA of a department. */
    get: departmentsLoasGet,
  },
  members: {
    /** #27: a department's members, paged. */
    list: departmentsMembersList,
    /** #28: a department member found by chat-platform id. */
    getByChatId: departmentsMembersGetByChatId,
    /** #29: one department member. */
    get: departmentsMembersGet,
    /** #30: the chat-platform id of a department member. */
    chatId: departmentsMembersChatId,
  },
  ranks: {
    /** #31: a department's ranks, paged. */
    list: departmentsRanksList,
    /** #32: one rank of a department. */
    get: departmentsRanksGet,
  },
  shifts: {
    /** #33: a department's shifts, paged. */
    list: departmentsShiftsList,
    /** #34: one member's shifts in a department, paged. */
    byMember: departmentsShiftsByMember,
    /** #35: one shift of a department. */
    get: departmentsShiftsGet,
  },
};
