import { get, list } from '../core/endpoint';
import { byId, created, createdListedOtherwise } from './watch-keys';
import { CadCall, CadCallNote, CadCourtHearing, CadRecord, CadUnit, CadUnitGroup } from './schemas';

/** The item lines (#8, #10, #12, #14, #16, #18), named here too: each list's items are what its get answers. */
const call = get('/api/v1/server/cad/calls/{callId}', CadCall);
const note = get('/api/v1/server/cad/calls/{callId}/notes/{noteId}', CadCallNote);
const hearing = get('/api/v1/server/cad/court-hearings/{hearingId}', CadCourtHearing);
const record = get('/api/v1/server/cad/records/{recordId}', CadRecord);
const unitGroup = get('/api/v1/server/cad/unit-groups/{groupId}', CadUnitGroup);
const unit = get('/api/v1/server/cad/units/{unitId}', CadUnit);

/** Computer-aided dispatch. Every request answers 404 on a server without CAD. */
export const cad = {
  calls: {
    /** #7: CAD calls, paged. */
    list: list('/api/v1/server/cad/calls', CadCall, { ...created, itemGet: call }),
    /** #8: one CAD call. */
    get: call,
    /** #9: the notes of one call, paged. */
    notes: list('/api/v1/server/cad/calls/{callId}/notes', CadCallNote, { ...createdListedOtherwise, itemGet: note }),
    /** #10: one note of a call. */
    note,
  },
  courtHearings: {
    /** #11: court hearings, paged. */
    list: list('/api/v1/server/cad/court-hearings', CadCourtHearing, { ...created, itemGet: hearing }),
    /** #12: one court hearing. */
    get: hearing,
  },
  records: {
    /** #13: CAD records, paged. */
    list: list('/api/v1/server/cad/records', CadRecord, { ...created, itemGet: record }),
    /** #14: one CAD record. */
    get: record,
  },
  unitGroups: {
    /** #15: unit groups, paged. */
    list: list('/api/v1/server/cad/unit-groups', CadUnitGroup, { ...byId, itemGet: unitGroup }),
    /** #16: one unit group; `groupId` is an int32. */
    get: unitGroup,
  },
  units: {
    /** #17: CAD units, paged. */
    list: list('/api/v1/server/cad/units', CadUnit, { ...byId, itemGet: unit }),
    /** #18: one unit; `unitId` is an int32. */
    get: unit,
  },
};
