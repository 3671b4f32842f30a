/**
 * Happenings of the computer-aided dispatch: calls opened, noted and closed. A server without
 * CAD has none.
 * @module
 */
import type { CadCall, CadCallNote } from '../../../src/schemas/index';
import type { CadStore } from '../store/store';
import { CALL_TITLES } from '../world';
import { mapped } from '../rows/sequence';
import { enter, entry, memberOf, membersOf, recent, timeAfter, timeIn, type Happening, type Moment } from './moment';

/** The call's units, as the ids the API lists. */
const unitsOf = (call: CadCall): number[] =>
  Array.isArray(call.units) ? call.units.filter((unit): unit is number => typeof unit === 'number') : [];

/** The CAD and its newest open calls, if the server has CAD and a member to act. */
function openCalls(moment: Moment): { cad: CadStore; open: CadCall[] } | undefined {
  const { cad } = moment.server;
  if (!cad || !moment.server.members.size) return undefined;
  return { cad, open: recent(cad.calls, { field: 'status', value: 0 }) };
}

/** A member opens a call, with up to three units attached. */
export const callOpened: Happening = (moment) => {
  const { draw, server } = moment;
  const cad = server.cad;
  const creator = cad && memberOf(moment, membersOf(server));
  if (!cad || !creator) return undefined;
  const createdAt = timeIn(moment, cad.calls, 'createdAt', creator.createdAt);
  const units = draw.some(
    mapped(cad.units.sequence(), (unit) => unit.id),
    0,
    3,
  );
  const call: CadCall = {
    id: draw.uuid(),
    serverId: server.info.id,
    type: draw.int(0, 3),
    createdByUserId: creator.id,
    createdAt,
    status: 0,
    units,
    title: draw.pick(CALL_TITLES),
    description: draw.sentence(),
    records: [],
    panels: [],
    unitHistory: units.map((unitId) => ({ unitId, at: createdAt })),
    code: `10-${draw.int(10, 99)}`,
  };
  draw.optional(call, 'address', () => draw.f.location.streetAddress(), 0.8);
  draw.optional(call, 'postal', () => String(draw.int(100, 999)), 0.6);
  draw.optional(call, 'priority', () => draw.pick(['1', '2', '3']), 0.7);
  call.origin = draw.pick(['911', 'officer', 'api']);
  if (units[0] !== undefined) call.primaryUnit = units[0];
  return enter('cadCalls', cad.calls, call);
};

/** A note on `call` by a member, from one of its units when it has some. */
function noteOn(moment: Moment, cad: CadStore, call: CadCall, fields: { type: number; text: string; after?: number }): CadCallNote {
  const { draw, server } = moment;
  const units = unitsOf(call);
  return {
    id: draw.uuid(),
    serverId: server.info.id,
    callId: call.id,
    // A member exists: `openCalls` found one.
    createdByUserId: memberOf(moment, membersOf(server))!.id,
    createdByUnit: units.length ? draw.pick(units) : null,
    createdAt: timeIn(moment, cad.notes, 'createdAt', call.createdAt, fields.after),
    type: fields.type,
    data: { text: fields.text },
  };
}

/** Someone adds a note to an open call. */
export const callNoted: Happening = (moment) => {
  const found = openCalls(moment);
  if (!found?.open.length) return undefined;
  const call = moment.draw.pick(found.open);
  return enter('cadCallNotes', found.cad.notes, noteOn(moment, found.cad, call, { type: 0, text: moment.draw.sentence() }));
};

/** An open call is closed; its closing note is the event, the call the row it updated. */
export const callClosed: Happening = (moment) => {
  const found = openCalls(moment);
  if (!found?.open.length) return undefined;
  const { draw } = moment;
  const call = draw.pick(found.open);
  const closedAt = timeAfter(moment, call.createdAt);
  const updated = found.cad.calls.update(call.id, { status: 1, closedAt })!;
  const note = noteOn(moment, found.cad, updated, {
    type: 1,
    text: `Call closed: ${draw.pick(['handled', 'no further action', 'report filed', 'unfounded'])}`,
    after: closedAt,
  });
  return { ...enter('cadCallNotes', found.cad.notes, note), updated: entry('cadCalls', updated) };
};
