/**
 * The API's 64 requests as functions of a core (`createCore()`), one per client method, named
 * by its namespace path and method in camel case: `membersGet(core, id)` is `client.members.get(id)`.
 * Generated from the endpoint table by `npm run core:functions` (scripts/core/functions.ts);
 * each is its own binding, marked pure, so a bundle holds the functions it imports and their
 * schemas alone.
 * @module
 */
import { list, one } from '../core/function';
import * as line from './lines';

/**
 * #1: The rate-limit status of a server. Needs the token-management permission. `client.admin.rateLimit(serverId, options?)` as a function of a core.
 * @example
 * const rateLimitStatus = await adminRateLimit(core, serverId);
 */
export const adminRateLimit = /* @__PURE__ */ one(line.adminRateLimit);
/**
 * #2: The server's applications, paged. `client.applications.list(params?, options?)` as a function of a core.
 * @example
 * for await (const application of applicationsList(core, { pageSize: 100 })) console.log(application);
 */
export const applicationsList = /* @__PURE__ */ list(line.applicationsList);
/**
 * #3: The responses one user submitted, to any application, paged. `client.applications.responsesByUser(userId, params?, options?)` as a function of a core.
 * @example
 * for await (const applicationResponse of applicationsResponsesByUser(core, userId, { pageSize: 100 })) console.log(applicationResponse);
 */
export const applicationsResponsesByUser = /* @__PURE__ */ list(line.applicationsResponsesByUser);
/**
 * #4: One application. `client.applications.get(applicationId, options?)` as a function of a core.
 * @example
 * const application = await applicationsGet(core, applicationId);
 */
export const applicationsGet = /* @__PURE__ */ one(line.applicationsGet);
/**
 * #5: The responses submitted to one application, paged. `client.applications.responses(applicationId, params?, options?)` as a function of a core.
 * @example
 * for await (const applicationResponse of applicationsResponses(core, applicationId, { pageSize: 100 })) console.log(applicationResponse);
 */
export const applicationsResponses = /* @__PURE__ */ list(line.applicationsResponses);
/**
 * #6: Audit log events, paged. `client.auditLogs.list(params?, options?)` as a function of a core.
 * @example
 * for await (const auditLogEvent of auditLogsList(core, { pageSize: 100 })) console.log(auditLogEvent);
 */
export const auditLogsList = /* @__PURE__ */ list(line.auditLogsList);
/**
 * #7: CAD calls, paged. `client.cad.calls.list(params?, options?)` as a function of a core.
 * @example
 * for await (const cadCall of cadCallsList(core, { pageSize: 100 })) console.log(cadCall);
 */
export const cadCallsList = /* @__PURE__ */ list(line.cadCallsList);
/**
 * #8: One CAD call. `client.cad.calls.get(callId, options?)` as a function of a core.
 * @example
 * const cadCall = await cadCallsGet(core, callId);
 */
export const cadCallsGet = /* @__PURE__ */ one(line.cadCallsGet);
/**
 * #9: The notes of one call, paged. `client.cad.calls.notes(callId, params?, options?)` as a function of a core.
 * @example
 * for await (const cadCallNote of cadCallsNotes(core, callId, { pageSize: 100 })) console.log(cadCallNote);
 */
export const cadCallsNotes = /* @__PURE__ */ list(line.cadCallsNotes);
/**
 * #10: One note of a call. `client.cad.calls.note(callId, noteId, options?)` as a function of a core.
 * @example
 * const cadCallNote = await cadCallsNote(core, callId, noteId);
 */
export const cadCallsNote = /* @__PURE__ */ one(line.cadCallsNote);
/**
 * #11: Court hearings, paged. `client.cad.courtHearings.list(params?, options?)` as a function of a core.
 * @example
 * for await (const cadCourtHearing of cadCourtHearingsList(core, { pageSize: 100 })) console.log(cadCourtHearing);
 */
export const cadCourtHearingsList = /* @__PURE__ */ list(line.cadCourtHearingsList);
/**
 * #12: One court hearing. `client.cad.courtHearings.get(hearingId, options?)` as a function of a core.
 * @example
 * const cadCourtHearing = await cadCourtHearingsGet(core, hearingId);
 */
export const cadCourtHearingsGet = /* @__PURE__ */ one(line.cadCourtHearingsGet);
/**
 * #13: CAD records, paged. `client.cad.records.list(params?, options?)` as a function of a core.
 * @example
 * for await (const cadRecord of cadRecordsList(core, { pageSize: 100 })) console.log(cadRecord);
 */
export const cadRecordsList = /* @__PURE__ */ list(line.cadRecordsList);
/**
 * #14: One CAD record. `client.cad.records.get(recordId, options?)` as a function of a core.
 * @example
 * const cadRecord = await cadRecordsGet(core, recordId);
 */
export const cadRecordsGet = /* @__PURE__ */ one(line.cadRecordsGet);
/**
 * #15: Unit groups, paged. `client.cad.unitGroups.list(params?, options?)` as a function of a core.
 * @example
 * for await (const cadUnitGroup of cadUnitGroupsList(core, { pageSize: 100 })) console.log(cadUnitGroup);
 */
export const cadUnitGroupsList = /* @__PURE__ */ list(line.cadUnitGroupsList);
/**
 * #16: One unit group; `groupId` is an int32. `client.cad.unitGroups.get(groupId, options?)` as a function of a core.
 * @example
 * const cadUnitGroup = await cadUnitGroupsGet(core, 7);
 */
export const cadUnitGroupsGet = /* @__PURE__ */ one(line.cadUnitGroupsGet);
/**
 * #17: CAD units, paged. `client.cad.units.list(params?, options?)` as a function of a core.
 * @example
 * for await (const cadUnit of cadUnitsList(core, { pageSize: 100 })) console.log(cadUnit);
 */
export const cadUnitsList = /* @__PURE__ */ list(line.cadUnitsList);
/**
 * #18: One unit; `unitId` is an int32. `client.cad.units.get(unitId, options?)` as a function of a core.
 * @example
 * const cadUnit = await cadUnitsGet(core, 7);
 */
export const cadUnitsGet = /* @__PURE__ */ one(line.cadUnitsGet);
/**
 * #19: The server's departments, paged. `client.departments.list(params?, options?)` as a function of a core.
 * @example
 * for await (const department of departmentsList(core, { pageSize: 100 })) console.log(department);
 */
export const departmentsList = /* @__PURE__ */ list(line.departmentsList);
/**
 * #20: One department. `client.departments.get(departmentId, options?)` as a function of a core.
 * @example
 * const department = await departmentsGet(core, departmentId);
 */
export const departmentsGet = /* @__PURE__ */ one(line.departmentsGet);
/**
 * #21: A department's audit log, paged. `client.departments.auditLogs(departmentId, params?, options?)` as a function of a core.
 * @example
 * for await (const auditLogEvent of departmentsAuditLogs(core, departmentId, { pageSize: 100 })) console.log(auditLogEvent);
 */
export const departmentsAuditLogs = /* @__PURE__ */ list(line.departmentsAuditLogs);
/**
 * #22: Requests to join a department, paged. `client.departments.joinRequests.list(departmentId, params?, options?)` as a function of a core.
 * @example
 * for await (const joinRequest of departmentsJoinRequestsList(core, departmentId, { pageSize: 100 })) console.log(joinRequest);
 */
export const departmentsJoinRequestsList = /* @__PURE__ */ list(line.departmentsJoinRequestsList);
/**
 * #23: One user's request to join a department. `client.departments.joinRequests.get(departmentId, userId, options?)` as a function of a core.
 * @example
 * const joinRequest = await departmentsJoinRequestsGet(core, departmentId, userId);
 */
export const departmentsJoinRequestsGet = /* @__PURE__ */ one(line.departmentsJoinRequestsGet);
/**
 * #24: A department's leave-of-absence requests, paged. `client.departments.loas.list(departmentId, params?, options?)` as a function of a core.
 * @example
 * for await (const loa of departmentsLoasList(core, departmentId, { pageSize: 100 })) console.log(loa);
 */
export const departmentsLoasList = /* @__PURE__ */ list(line.departmentsLoasList);
/**
 * #25: One member's LOAs in a department, paged. `client.departments.loas.byMember(departmentId, memberId, params?, options?)` as a function of a core.
 * @example
 * for await (const loa of departmentsLoasByMember(core, departmentId, memberId, { pageSize: 100 })) console.log(loa);
 */
export const departmentsLoasByMember = /* @__PURE__ */ list(line.departmentsLoasByMember);
/**
 * #26: One LOA of a department. `client.departments.loas.get(departmentId, loaId, options?)` as a function of a core.
 * @example
 * const loa = await departmentsLoasGet(core, departmentId, loaId);
 */
export const departmentsLoasGet = /* @__PURE__ */ one(line.departmentsLoasGet);
/**
 * #27: A department's members, paged. `client.departments.members.list(departmentId, params?, options?)` as a function of a core.
 * @example
 * for await (const departmentMember of departmentsMembersList(core, departmentId, { pageSize: 100 })) console.log(departmentMember);
 */
export const departmentsMembersList = /* @__PURE__ */ list(line.departmentsMembersList);
/**
 * #28: A department member found by chat-platform id. `client.departments.members.getByChatId(departmentId, chatId, options?)` as a function of a core.
 * @example
 * const departmentMember = await departmentsMembersGetByChatId(core, departmentId, chatId);
 */
export const departmentsMembersGetByChatId = /* @__PURE__ */ one(line.departmentsMembersGetByChatId);
/**
 * #29: One department member. `client.departments.members.get(departmentId, memberId, options?)` as a function of a core.
 * @example
 * const departmentMember = await departmentsMembersGet(core, departmentId, memberId);
 */
export const departmentsMembersGet = /* @__PURE__ */ one(line.departmentsMembersGet);
/**
 * #30: The chat-platform id of a department member. `client.departments.members.chatId(departmentId, memberId, options?)` as a function of a core.
 * @example
 * const chatIdResponse = await departmentsMembersChatId(core, departmentId, memberId);
 */
export const departmentsMembersChatId = /* @__PURE__ */ one(line.departmentsMembersChatId);
/**
 * #31: A department's ranks, paged. `client.departments.ranks.list(departmentId, params?, options?)` as a function of a core.
 * @example
 * for await (const departmentRank of departmentsRanksList(core, departmentId, { pageSize: 100 })) console.log(departmentRank);
 */
export const departmentsRanksList = /* @__PURE__ */ list(line.departmentsRanksList);
/**
 * #32: One rank of a department. `client.departments.ranks.get(departmentId, rankId, options?)` as a function of a core.
 * @example
 * const departmentRank = await departmentsRanksGet(core, departmentId, rankId);
 */
export const departmentsRanksGet = /* @__PURE__ */ one(line.departmentsRanksGet);
/**
 * #33: A department's shifts, paged. `client.departments.shifts.list(departmentId, params?, options?)` as a function of a core.
 * @example
 * for await (const shift of departmentsShiftsList(core, departmentId, { pageSize: 100 })) console.log(shift);
 */
export const departmentsShiftsList = /* @__PURE__ */ list(line.departmentsShiftsList);
/**
 * #34: One member's shifts in a department, paged. `client.departments.shifts.byMember(departmentId, memberId, params?, options?)` as a function of a core.
 * @example
 * for await (const shift of departmentsShiftsByMember(core, departmentId, memberId, { pageSize: 100 })) console.log(shift);
 */
export const departmentsShiftsByMember = /* @__PURE__ */ list(line.departmentsShiftsByMember);
/**
 * #35: One shift of a department. `client.departments.shifts.get(departmentId, shiftId, options?)` as a function of a core.
 * @example
 * const shift = await departmentsShiftsGet(core, departmentId, shiftId);
 */
export const departmentsShiftsGet = /* @__PURE__ */ one(line.departmentsShiftsGet);
/**
 * #36: Information on the server. `client.server.info(options?)` as a function of a core.
 * @example
 * const serverInfo = await serverInfo(core);
 */
export const serverInfo = /* @__PURE__ */ one(line.serverInfo);
/**
 * #37: Join requests, paged. `client.joinRequests.list(params?, options?)` as a function of a core.
 * @example
 * for await (const joinRequest of joinRequestsList(core, { pageSize: 100 })) console.log(joinRequest);
 */
export const joinRequestsList = /* @__PURE__ */ list(line.joinRequestsList);
/**
 * #38: One user's join request. `client.joinRequests.get(userId, options?)` as a function of a core.
 * @example
 * const joinRequest = await joinRequestsGet(core, userId);
 */
export const joinRequestsGet = /* @__PURE__ */ one(line.joinRequestsGet);
/**
 * #39: LOAs, paged. `client.loas.list(params?, options?)` as a function of a core.
 * @example
 * for await (const loa of loasList(core, { pageSize: 100 })) console.log(loa);
 */
export const loasList = /* @__PURE__ */ list(line.loasList);
/**
 * #40: One member's LOAs, paged. `client.loas.byMember(memberId, params?, options?)` as a function of a core.
 * @example
 * for await (const loa of loasByMember(core, memberId, { pageSize: 100 })) console.log(loa);
 */
export const loasByMember = /* @__PURE__ */ list(line.loasByMember);
/**
 * #41: One LOA. `client.loas.get(loaId, options?)` as a function of a core.
 * @example
 * const loa = await loasGet(core, loaId);
 */
export const loasGet = /* @__PURE__ */ one(line.loasGet);
/**
 * #42: Moderation logs, paged. `client.logs.list(params?, options?)` as a function of a core.
 * @example
 * for await (const log of logsList(core, { pageSize: 100 })) console.log(log);
 */
export const logsList = /* @__PURE__ */ list(line.logsList);
/**
 * #43: The logs one staff member wrote, paged. `client.logs.byStaff(staffId, params?, options?)` as a function of a core.
 * @example
 * for await (const log of logsByStaff(core, staffId, { pageSize: 100 })) console.log(log);
 */
export const logsByStaff = /* @__PURE__ */ list(line.logsByStaff);
/**
 * #44: The logs about one username, paged. `client.logs.byUser(username, params?, options?)` as a function of a core.
 * @example
 * for await (const log of logsByUser(core, username, { pageSize: 100 })) console.log(log);
 */
export const logsByUser = /* @__PURE__ */ list(line.logsByUser);
/**
 * #45: One log entry. `client.logs.get(logId, options?)` as a function of a core.
 * @example
 * const log = await logsGet(core, logId);
 */
export const logsGet = /* @__PURE__ */ one(line.logsGet);
/**
 * #46: Members, paged. `client.members.list(params?, options?)` as a function of a core.
 * @example
 * for await (const member of membersList(core, { pageSize: 100 })) console.log(member);
 */
export const membersList = /* @__PURE__ */ list(line.membersList);
/**
 * #47: A member found by chat-platform id. `client.members.getByChatId(chatId, options?)` as a function of a core.
 * @example
 * const member = await membersGetByChatId(core, chatId);
 */
export const membersGetByChatId = /* @__PURE__ */ one(line.membersGetByChatId);
/**
 * #48: One member. `client.members.get(memberId, options?)` as a function of a core.
 * @example
 * const member = await membersGet(core, memberId);
 */
export const membersGet = /* @__PURE__ */ one(line.membersGet);
/**
 * #49: The chat-platform id of a member. `client.members.chatId(memberId, options?)` as a function of a core.
 * @example
 * const chatIdResponse = await membersChatId(core, memberId);
 */
export const membersChatId = /* @__PURE__ */ one(line.membersChatId);
/**
 * #50: Roles, paged. `client.roles.list(params?, options?)` as a function of a core.
 * @example
 * for await (const role of rolesList(core, { pageSize: 100 })) console.log(role);
 */
export const rolesList = /* @__PURE__ */ list(line.rolesList);
/**
 * #51: One role. `client.roles.get(roleId, options?)` as a function of a core.
 * @example
 * const role = await rolesGet(core, roleId);
 */
export const rolesGet = /* @__PURE__ */ one(line.rolesGet);
/**
 * #52: Shifts, paged. `client.shifts.list(params?, options?)` as a function of a core.
 * @example
 * for await (const shift of shiftsList(core, { pageSize: 100 })) console.log(shift);
 */
export const shiftsList = /* @__PURE__ */ list(line.shiftsList);
/**
 * #53: One member's shifts, paged. `client.shifts.byMember(memberId, params?, options?)` as a function of a core.
 * @example
 * for await (const shift of shiftsByMember(core, memberId, { pageSize: 100 })) console.log(shift);
 */
export const shiftsByMember = /* @__PURE__ */ list(line.shiftsByMember);
/**
 * #54: One shift. `client.shifts.get(shiftId, options?)` as a function of a core.
 * @example
 * const shift = await shiftsGet(core, shiftId);
 */
export const shiftsGet = /* @__PURE__ */ one(line.shiftsGet);
/**
 * #55: The server's tokens. `client.tokens.list(options?)` as a function of a core.
 * @example
 * const tokenList = await tokensList(core);
 */
export const tokensList = /* @__PURE__ */ one(line.tokensList);
/**
 * #56: Creates a token; the answer shows its secret, once. `name` is required. `client.tokens.create(body, options?)` as a function of a core.
 * @example
 * const token = await tokensCreate(core, { name: 'ci', expiresInDays: 30 });
 */
export const tokensCreate = /* @__PURE__ */ one(line.tokensCreate);
/**
 * #57: The token in use. `client.tokens.current(options?)` as a function of a core.
 * @example
 * const token = await tokensCurrent(core);
 */
export const tokensCurrent = /* @__PURE__ */ one(line.tokensCurrent);
/**
 * #58: Deactivates a token; it answers 401 from then on. `client.tokens.deactivate(tokenId, options?)` as a function of a core.
 * @example
 * const token = await tokensDeactivate(core, tokenId);
 */
export const tokensDeactivate = /* @__PURE__ */ one(line.tokensDeactivate);
/**
 * #59: The game account linked to a chat account. `client.verification.gameByChatId(chatId, options?)` as a function of a core.
 * @example
 * const gameConnection = await verificationGameByChatId(core, chatId);
 */
export const verificationGameByChatId = /* @__PURE__ */ one(line.verificationGameByChatId);
/**
 * #60: The chat account linked to a game account. `client.verification.chatByGameId(gameId, options?)` as a function of a core.
 * @example
 * const account = await verificationChatByGameId(core, gameId);
 */
export const verificationChatByGameId = /* @__PURE__ */ one(line.verificationChatByGameId);
/**
 * #61: `"OK"`-style plain text when the database and cache are up; 503 otherwise. `client.health.check(options?)` as a function of a core.
 * @example
 * const text = await healthCheck(core);
 */
export const healthCheck = /* @__PURE__ */ one(line.healthCheck);
/**
 * #62: Liveness. `client.health.live(options?)` as a function of a core.
 * @example
 * const healthStatus = await healthLive(core);
 */
export const healthLive = /* @__PURE__ */ one(line.healthLive);
/**
 * #63: Service metrics. `client.health.metrics(options?)` as a function of a core.
 * @example
 * const metrics = await healthMetrics(core);
 */
export const healthMetrics = /* @__PURE__ */ one(line.healthMetrics);
/**
 * #64: Readiness; a 503 (not ready) carries the same shape, as `ServiceUnavailableError.details`. `client.health.ready(options?)` as a function of a core.
 * @example
 * const readinessStatus = await healthReady(core);
 */
export const healthReady = /* @__PURE__ */ one(line.healthReady);
