/**
 * Computer-aided dispatch: units and their groups, records and court hearings, calls and their
 * notes.
 * @module
 */
import {
  CadCallNoteSchema,
  CadCallSchema,
  CadCourtHearingSchema,
  CadRecordSchema,
  CadUnitGroupSchema,
  CadUnitSchema,
  type CadCall,
  type CadCallNote,
  type CadCourtHearing,
  type CadRecord,
  type CadUnit,
  type CadUnitGroup,
} from '../../../src/schemas/index';
import type { CadCounts } from '../../contract/counts';
import { mapped, type Sequence } from '../rows/sequence';
import type { Draw } from './draw';
import { CALL_TITLES, DEPARTMENT_KINDS, RANKS } from './kinds';
import type { Steps } from '../steps';
import { byTime, extend, seedingRows, type CadRefs, type RowsOf, type ServerRefs, type Sources, type WorldTable } from './table';
import { aged, nullWhenUnset, openJson, spread } from './variety';

/**
 * The next free int32 id of a table keyed by one: past both the position and every id in use.
 * `rows` are in ascending id order (these tables' default order), so the last holds the largest.
 */
const nextId = (index: number, rows: Sequence<{ id: number }>) => Math.max(index, rows.at(rows.length - 1)?.id ?? index) + 1;

const units: WorldTable<CadUnit, CadRefs> = {
  spec: { key: 'id', orderBy: ['id', 'status'], sort: 'asc' },
  schema: CadUnitSchema,
  references: { serverId: 'server' },
  row: (d, { serverId, authorIds, agencies, units }, i) => {
    const f = d.f;
    const agency = d.pick(agencies);
    const unit: CadUnit = {
      id: nextId(i, units),
      serverId,
      userId: d.pick(authorIds),
      status: d.int(0, 6),
      panic: d.chance(0.03),
      number: `${d.int(1, 9)}-${f.string.alpha({ length: 1, casing: 'upper' })}-${d.int(10, 99)}`,
      agency,
      loc: openJson(d.chance(0.7) ? { x: d.int(-3000, 3000), y: d.int(-3000, 3000) } : null, i, 2),
      items: openJson([], i, 3),
    };
    d.optional(unit, 'name', () => f.person.fullName(), 0.8);
    d.optional(unit, 'location', () => f.location.street(), 0.5);
    d.optional(unit, 'rank', () => d.pick(RANKS), 0.6);
    d.optional(unit, 'subdivision', () => d.pick(['Patrol', 'Highway', 'K9', 'SWAT']), 0.3);
    const a = d.aside;
    return spread(unit, i, {
      name: (drawn) => drawn ?? a.f.person.fullName(),
      location: (drawn) => drawn ?? a.f.location.street(),
      rank: (drawn) => drawn ?? a.pick(RANKS),
      subdivision: (drawn) => drawn ?? a.pick(['Patrol', 'Highway', 'K9', 'SWAT']),
      customStatusId: () => a.uuid(),
    });
  },
  needs: ['authorIds'],
};

const unitGroups: WorldTable<CadUnitGroup, CadRefs> = {
  spec: { key: 'id', orderBy: ['id', 'name'], sort: 'asc' },
  schema: CadUnitGroupSchema,
  references: { serverId: 'server', units: ['unit'] },
  row: (d, { serverId, agencies, units, unitGroups }, i) => {
    const id = nextId(i, unitGroups);
    const group: CadUnitGroup = {
      id,
      serverId,
      name: `${d.pick(['Adam', 'Boy', 'Charles', 'David', 'Edward', 'Frank', 'George', 'Henry'])}-${id}`,
      units: openJson(
        d.some(
          mapped(units, (unit) => unit.id),
          0,
          4,
        ),
        i,
        2,
      ),
      status: d.int(0, 3),
      panic: false,
      premade: d.chance(0.5),
    };
    d.optional(group, 'maxUnits', () => d.int(2, 6), 0.6);
    d.optional(group, 'restrictAgency', () => d.pick(agencies), 0.3);
    const a = d.aside;
    return spread(group, i, {
      maxUnits: (drawn) => drawn ?? a.int(2, 6),
      restrictAgency: (drawn) => drawn ?? a.pick(agencies),
      customStatusId: () => a.uuid(),
    });
  },
};

const records: WorldTable<CadRecord, CadRefs> = {
  spec: byTime<CadRecord>('createdAt'),
  schema: CadRecordSchema,
  references: { serverId: 'server' },
  row: (d, { serverId, authorIds, agencies, units }, i) => {
    const type = d.int(0, 3);
    const record: CadRecord = {
      id: d.uuid(),
      serverId,
      createdByUserId: d.pick(authorIds),
      createdAt: d.time(),
      type,
      label: d.pick(['Citation', 'Arrest report', 'Warrant', 'Written warning']),
      data: openJson(
        {
          charges: Array.from({ length: d.int(1, 3) }, () => d.pick(['Speeding', 'Reckless driving', 'Evading', 'Assault', 'Trespassing'])),
        },
        i,
        2,
      ),
      templateId: type,
      previewData: openJson({ subject: d.f.person.fullName() }, i, 3),
      flags: openJson([], i, 4),
      meta: openJson({}, i, 0),
      status: d.int(0, 2),
      objects: openJson([], i, 1),
    };
    d.optional(record, 'noCharge', () => d.chance(0.2), 0.5);
    d.optional(record, 'agency', () => d.pick(agencies), 0.6);
    const a = d.aside;
    return spread(record, i, {
      noCharge: (drawn) => drawn ?? a.chance(0.2),
      agency: (drawn) => aged(drawn ?? a.pick(agencies), i),
      // Written from a unit's terminal, or by a dispatcher (no unit).
      createdByUnit: () => (units.length ? aged(a.pick(units).id, i) : null),
    });
  },
  needs: ['authorIds'],
};

function hearingOf(d: Draw, { serverId, authorIds }: CadRefs, record: CadRecord, index: number): CadCourtHearing {
  const hearing: CadCourtHearing = {
    serverId,
    id: d.uuid(),
    status: d.int(0, 2),
    type: d.int(0, 1),
    recordId: record.id,
    civId: d.uuid(),
    createdAt: d.time(record.createdAt, 30),
  };
  if (hearing.status === 2) hearing.closedAt = d.time(hearing.createdAt, 10);
  d.optional(hearing, 'processedBy', () => d.pick(authorIds), 0.5);
  return nullWhenUnset(hearing, index, ['closedAt', 'processedBy']);
}

const courtHearings: WorldTable<CadCourtHearing, CadRefs> = {
  spec: byTime<CadCourtHearing>('createdAt'),
  schema: CadCourtHearingSchema,
  references: { serverId: 'server', recordId: 'record' },
  row: (d, refs, index) => hearingOf(d, refs, d.pick(refs.records), index),
  needs: ['records', 'authorIds'],
  // A third of the records go to court.
  *seed(d, refs) {
    const third = Math.floor(refs.records.length / 3);
    let index = 0;
    for (const record of d.some(refs.records, third, third)) yield hearingOf(d, refs, record, index++);
  },
};

const calls: WorldTable<CadCall, CadRefs> = {
  // `status`: the activity notes and closes open calls.
  spec: byTime<CadCall>('createdAt', ['status']),
  schema: CadCallSchema,
  references: { serverId: 'server', units: ['unit'], records: ['record'] },
  row: (d, { serverId, authorIds, units, records }, i) => {
    const f = d.f;
    const createdAt = d.time();
    const open = d.chance(0.35);
    const callUnits = d.some(
      mapped(units, (unit) => unit.id),
      0,
      3,
    );
    const call: CadCall = {
      id: d.uuid(),
      serverId,
      type: d.int(0, 3),
      createdByUserId: d.pick(authorIds),
      createdAt,
      status: open ? 0 : 1,
      units: openJson(callUnits, i, 2),
      title: d.pick(CALL_TITLES),
      description: f.lorem.sentence(),
      records: openJson(
        d.some(
          mapped(records, (record) => record.id),
          0,
          2,
        ),
        i,
        3,
      ),
      panels: openJson([], i, 4),
      unitHistory: openJson(
        callUnits.map((unitId) => ({ unitId, at: createdAt + 60 })),
        i,
        0,
      ),
      code: `10-${d.int(10, 99)}`,
    };
    d.optional(call, 'address', () => f.location.streetAddress(), 0.8);
    d.optional(call, 'postal', () => String(d.int(100, 999)), 0.6);
    d.optional(call, 'priority', () => d.pick(['1', '2', '3']), 0.7);
    d.optional(call, 'origin', () => d.pick(['911', 'officer', 'api']), 0.5);
    if (!open) call.closedAt = d.time(createdAt, 1);
    if (callUnits[0] !== undefined) call.primaryUnit = callUnits[0];
    // The fields added since: drawn aside, so the rows above keep their values.
    const a = d.aside;
    nullWhenUnset(call, i, ['closedAt']);
    return spread(call, i, {
      address: (drawn) => drawn ?? a.f.location.streetAddress(),
      postal: (drawn) => drawn ?? String(a.int(100, 999)),
      priority: (drawn) => drawn ?? a.pick(['1', '2', '3']),
      origin: (drawn) => drawn ?? a.pick(['911', 'officer', 'api']),
      code: (drawn) => drawn ?? `10-${a.int(10, 99)}`,
      apiId: () => `api-${a.f.string.alphanumeric(10)}`,
      // The first unit on the call opened it; a call without units was opened by a dispatcher.
      createdByUnit: () => (callUnits[0] === undefined ? null : aged(callUnits[0], i)),
      loc: () => aged({ x: a.int(-3000, 3000), y: a.int(-3000, 3000) }, i),
      primaryUnit: (drawn) => (drawn === undefined ? null : aged(drawn, i)),
    });
  },
  needs: ['authorIds'],
};

/** A note on `call`, written within a day of it by someone, from one of its units if it has any. */
function noteOf(d: Draw, { serverId, authorIds }: CadRefs, call: CadCall, index: number): CadCallNote {
  const callUnits = Array.isArray(call.units) ? (call.units as number[]) : [];
  const note: CadCallNote = {
    id: d.uuid(),
    serverId,
    callId: call.id,
    createdByUserId: d.pick(authorIds),
    createdByUnit: callUnits.length ? openJson(d.pick(callUnits), index, 2) : null,
    createdAt: d.time(call.createdAt, 1),
    type: d.int(0, 1),
    data: openJson({ text: d.f.lorem.sentence() }, index, 3),
  };
  d.optional(note, 'mergedFrom', () => null, 0, 0.4);
  // A few notes were carried over from a call merged into this one (that call is gone: merged calls are deleted).
  return spread(note, index, { mergedFrom: () => (index % 4 === 0 ? d.aside.uuid() : null) });
}

const notes: WorldTable<CadCallNote, CadRefs> = {
  spec: { ...byTime<CadCallNote>('createdAt', ['callId']), sort: 'asc' },
  schema: CadCallNoteSchema,
  references: { serverId: 'server', callId: 'call' },
  row: (d, refs, index) => noteOf(d, refs, d.pick(refs.calls), index),
  needs: ['calls', 'authorIds'],
};

/** The tables of a server's CAD: `CadStore` has one collection per entry, named and documented as here. */
export const cadTables = {
  /** CAD calls (`cad.calls.list`, `.get`). */
  calls,
  /** Notes of every call, indexed by `callId` (`cad.calls.notes`, `.note`). */
  notes,
  /** Records (`cad.records.*`). */
  records,
  /** Court hearings (`cad.courtHearings.*`). */
  courtHearings,
  /** Units, keyed by their int32 id (`cad.units.*`). */
  units,
  /** Unit groups, keyed by their int32 id (`cad.unitGroups.*`). */
  unitGroups,
};

/** A server's CAD rows. */
export type CadWorld = RowsOf<typeof cadTables>;

/** The agencies CAD rows name: one per department kind. */
export const AGENCIES = DEPARTMENT_KINDS.map((kind) => kind.agency);

/** The CAD rows its refs are drawn from, each read when first needed. */
export type CadSources = Sources<Pick<CadRefs, 'units' | 'records' | 'calls' | 'unitGroups'>>;

/** The refs of a CAD for its tables. */
export const cadRefs = (server: ServerRefs, rows: CadSources): CadRefs => extend(server, { agencies: () => AGENCIES, ...rows });

const none = () => [];

/**
 * A server's CAD, drawn in one stream, a step per row: units, unit groups, records, court
 * hearings, then each call followed by its notes (zero to six).
 */
export function* seedingCad(d: Draw, server: ServerRefs, counts: CadCounts): Steps<CadWorld> {
  const empty = cadRefs(server, { units: none, records: none, calls: none, unitGroups: none });
  const unitRows = yield* seedingRows(units, d, empty, counts.units);
  // Unit groups and records see the units (a record names the unit that filed it).
  const withUnits = cadRefs(server, { units: () => unitRows, records: none, calls: none, unitGroups: none });
  const groupRows = yield* seedingRows(unitGroups, d, withUnits, counts.unitGroups);
  const recordRows = yield* seedingRows(records, d, withUnits, counts.records);
  const refs = cadRefs(server, { units: () => unitRows, records: () => recordRows, calls: none, unitGroups: none });
  const hearingRows = yield* seedingRows(courtHearings, d, refs, 0);
  const callRows: CadCall[] = [];
  const noteRows: CadCallNote[] = [];
  for (let i = 0; i < counts.calls; i++) {
    const call = calls.row(d, refs, i);
    callRows.push(call);
    for (let n = d.int(0, 6); n > 0; n--) noteRows.push(noteOf(d, refs, call, noteRows.length));
    yield;
  }
  return { calls: callRows, notes: noteRows, records: recordRows, courtHearings: hearingRows, units: unitRows, unitGroups: groupRows };
}
