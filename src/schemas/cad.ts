import type * as z from 'zod/mini';
import { any, anyOpt, bool, int32, int64, looseObject, maybe, str } from './common';

/**
 * A computer-aided-dispatch call.
 */
export const CadCallSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: str,
    serverId: str,
    type: int32,
    createdByUserId: str,
    createdAt: int64,
    status: int32,
    units: any,
    title: str,
    description: str,
    records: any,
    panels: any,
    unitHistory: any,
    address: maybe(str),
    apiId: maybe(str),
    code: maybe(str),
    origin: maybe(str),
    postal: maybe(str),
    priority: maybe(str),
    closedAt: maybe(int64),
    createdByUnit: anyOpt,
    loc: anyOpt,
    primaryUnit: anyOpt,
  }))();
/**
 * A computer-aided-dispatch call.
 * @example
 * const call: CadCall = await client.cad.calls.get(callId);
 * console.log(call.title, call.closedAt == null ? 'open' : 'closed');
 */
export interface CadCall extends z.infer<typeof CadCallSchema> {}

/**
 * A note attached to a CAD call.
 */
export const CadCallNoteSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: str,
    serverId: str,
    callId: str,
    createdByUserId: str,
    createdByUnit: any,
    createdAt: int64,
    type: int32,
    data: any,
    mergedFrom: maybe(str),
  }))();
/**
 * A note attached to a CAD call.
 * @example
 * for await (const note of client.cad.calls.notes(callId)) console.log(note.createdByUserId, note.data);
 */
export interface CadCallNote extends z.infer<typeof CadCallNoteSchema> {}

/**
 * A court hearing about a CAD record.
 */
export const CadCourtHearingSchema = /* @__PURE__ */ (() =>
  looseObject({
    serverId: str,
    id: str,
    status: int32,
    type: int32,
    recordId: str,
    civId: str,
    createdAt: int64,
    closedAt: maybe(int64),
    processedBy: maybe(str),
  }))();
/**
 * A court hearing about a CAD record.
 * @example
 * const hearing: CadCourtHearing = await client.cad.courtHearings.get(hearingId);
 * const record = await client.cad.records.get(hearing.recordId);
 */
export interface CadCourtHearing extends z.infer<typeof CadCourtHearingSchema> {}

/**
 * A CAD record (a report, citation, warrant… as the record's template defines).
 */
export const CadRecordSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: str,
    serverId: str,
    createdByUserId: str,
    createdAt: int64,
    type: int32,
    label: str,
    data: any,
    templateId: int32,
    previewData: any,
    flags: any,
    meta: any,
    status: int32,
    objects: any,
    agency: anyOpt,
    createdByUnit: anyOpt,
    noCharge: maybe(bool),
  }))();
/**
 * A CAD record.
 * @example
 * const record: CadRecord = await client.cad.records.get(recordId);
 * console.log(record.label, record.status);
 */
export interface CadRecord extends z.infer<typeof CadRecordSchema> {}

/**
 * A CAD unit: one member on duty in the dispatch system. Its id is an int32.
 */
export const CadUnitSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: int32,
    serverId: str,
    userId: str,
    status: int32,
    panic: bool,
    number: str,
    agency: str,
    loc: any,
    items: any,
    customStatusId: maybe(str),
    location: maybe(str),
    name: maybe(str),
    rank: maybe(str),
    subdivision: maybe(str),
  }))();
/**
 * A CAD unit.
 * @example
 * const unit: CadUnit = await client.cad.units.get(12); // unit ids are int32
 * if (unit.panic) console.warn(`unit ${unit.number} pressed panic`);
 */
export interface CadUnit extends z.infer<typeof CadUnitSchema> {}

/**
 * A group of CAD units working together. Its id is an int32.
 */
export const CadUnitGroupSchema = /* @__PURE__ */ (() =>
  looseObject({
    id: int32,
    serverId: str,
    name: str,
    units: any,
    status: int32,
    panic: bool,
    premade: bool,
    customStatusId: maybe(str),
    maxUnits: maybe(int32),
    restrictAgency: maybe(str),
  }))();
/**
 * A group of CAD units.
 * @example
 * const group: CadUnitGroup = await client.cad.unitGroups.get(3); // group ids are int32
 * console.log(group.name, group.units);
 */
export interface CadUnitGroup extends z.infer<typeof CadUnitGroupSchema> {}
