import { get, list } from '../core/endpoint';
import { byId, created, createdListedOtherwise } from './watch-keys';
import { CadCall, CadCallNote, CadCourtHearing, CadRecord, CadUnit, CadUnitGroup } from './schemas';

/** Computer-aided dispatch. Every request answers 404 on a server without CAD. */
export const cad = {
  calls: {
    /** #7: CAD calls, paged. */
    list: list('/api/v1/server/cad/calls', CadCall, created),
    /** #8: one CAD call. */
    get: get('/api/v1/server/cad/calls/{callId}', CadCall),
    /** #9: the notes of one call, paged. */
    notes: list('/api/v1/server/cad/calls/{callId}/notes', CadCallNote, createdListedOtherwise),
    /** #10: one note of a call. */
    note: get('/api/v1/server/cad/calls/{callId}/notes/{noteId}', CadCallNote),
  },
  courtHearings: {
    /** #11: court hearings, paged. */
    list: list('/api/v1/server/cad/court-hearings', CadCourtHearing, created),
    /** #12: one court hearing. */
    get: get('/api/v1/server/cad/court-hearings/{hearingId}', CadCourtHearing),
  },
  records: {
    /** #13: CAD records, paged. */
    list: list('/api/v1/server/cad/records', CadRecord, created),
    /** #14: one CAD record. */
    get: get('/api/v1/server/cad/records/{recordId}', CadRecord),
  },
  unitGroups: {
    /** #15: unit groups, paged. */
    list: list('/api/v1/server/cad/unit-groups', CadUnitGroup, byId),
    /** #16: one unit group; `groupId` is an int32. */
    get: get('/api/v1/server/cad/unit-groups/{groupId}', CadUnitGroup),
  },
  units: {
    /** #17: CAD units, paged. */
    list: list('/api/v1/server/cad/units', CadUnit, byId),
    /** #18: one unit; `unitId` is an int32. */
    get: get('/api/v1/server/cad/units/{unitId}', CadUnit),
  },
};
