import { get, list } from '../core/endpoint';
import { byId, created, createdListedOtherwise } from './watch-keys';
import { CadCall, CadCallNote, CadCourtHearing, CadRecord, CadUnit, CadUnitGroup } from './schemas';

export const cadCallsGet = /* @__PURE__ */ get('cad.calls.get', '/api/v1/server/cad/calls/{callId}', CadCall);
export const cadCallsList = /* @__PURE__ */ list('cad.calls.list', '/api/v1/server/cad/calls', CadCall, created, cadCallsGet);
export const cadCallsNote = /* @__PURE__ */ get('cad.calls.note', '/api/v1/server/cad/calls/{callId}/notes/{noteId}', CadCallNote);
export const cadCallsNotes = /* @__PURE__ */ list(
  'cad.calls.notes',
  '/api/v1/server/cad/calls/{callId}/notes',
  CadCallNote,
  createdListedOtherwise,
  cadCallsNote,
);
export const cadCourtHearingsGet = /* @__PURE__ */ get(
  'cad.courtHearings.get',
  '/api/v1/server/cad/court-hearings/{hearingId}',
  CadCourtHearing,
);
export const cadCourtHearingsList = /* @__PURE__ */ list(
  'cad.courtHearings.list',
  '/api/v1/server/cad/court-hearings',
  CadCourtHearing,
  created,
  cadCourtHearingsGet,
);
export const cadRecordsGet = /* @__PURE__ */ get('cad.records.get', '/api/v1/server/cad/records/{recordId}', CadRecord);
export const cadRecordsList = /* @__PURE__ */ list('cad.records.list', '/api/v1/server/cad/records', CadRecord, created, cadRecordsGet);
export const cadUnitGroupsGet = /* @__PURE__ */ get('cad.unitGroups.get', '/api/v1/server/cad/unit-groups/{groupId}', CadUnitGroup);
export const cadUnitGroupsList = /* @__PURE__ */ list(
  'cad.unitGroups.list',
  '/api/v1/server/cad/unit-groups',
  CadUnitGroup,
  byId,
  cadUnitGroupsGet,
);
export const cadUnitsGet = /* @__PURE__ */ get('cad.units.get', '/api/v1/server/cad/units/{unitId}', CadUnit);
export const cadUnitsList = /* @__PURE__ */ list('cad.units.list', '/api/v1/server/cad/units', CadUnit, byId, cadUnitsGet);

/** Computer-aided dispatch. Every request answers 404 on a server without CAD. */
export const cad = {
  calls: {
    /** #7: CAD calls, paged. */
    list: cadCallsList,
    /** #8: one CAD call. */
    get: cadCallsGet,
    /** #9: the notes of one call, paged. */
    notes: cadCallsNotes,
    /** #10: one note of a call. */
    note: cadCallsNote,
  },
  courtHearings: {
    /** #11: court hearings, paged. */
    list: cadCourtHearingsList,
    /** #12: one court hearing. */
    get: cadCourtHearingsGet,
  },
  records: {
    /** #13: CAD records, paged. */
    list: cadRecordsList,
    /** #14: one CAD record. */
    get: cadRecordsGet,
  },
  unitGroups: {
    /** #15: unit groups, paged. */
    list: cadUnitGroupsList,
    /** #16: one unit group; `groupId` is an int32. */
    get: cadUnitGroupsGet,
  },
  units: {
    /** #17: CAD units, paged. */
    list: cadUnitsList,
    /** #18: one unit; `unitId` is an int32. */
    get: cadUnitsGet,
  },
};
