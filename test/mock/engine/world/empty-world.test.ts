/**
 * Empty groups (issue 10, item 12): bots are tested on empty servers, so every `counts` group at
 * 0, alone and all at once, must build a valid world that answers all 64 requests per the spec:
 * an empty page for a list, the row for an id that exists, 404 for one that does not, and never
 * a 5xx or a thrown error. Answers go through the SDK, which validates every body.
 */
import { NotFoundError } from 'community-server-sdk';
import { createMockApi, DEFAULT_COUNTS, type Store, type WorldCounts } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { mockClient } from '../../../helpers';
import { addressesMissing, endpointOf, firstPage, method, MISSING, MISSING_INT32, plain, rows, type Ids } from '../api/contract-rows';

/** `read()`, or MISSING when the world has no such row. */
const or = <T>(read: () => T, missing: T): T => {
  try {
    return read() ?? missing;
  } catch {
    return missing;
  }
};

/** The contract rows' ids, each taken from the store where the world has one. */
function idsOf(store: Store): Ids {
  const main = store.main;
  const cad = main.cad!;
  const missingRow = { id: MISSING, memberId: MISSING } as never;
  const link = or(() => main.links.all().find((l) => l.gameId !== null)!, { memberId: MISSING, chatId: MISSING, gameId: MISSING } as never);
  const departmentId = or(() => main.departments.all()[0]!.id, MISSING);
  const department = main.departmentData.get(departmentId);
  const call = or(
    () => cad.calls.all().find((c) => cad.notes.where('callId', c.id).length > 0)!.id,
    or(() => cad.calls.all()[0]!.id, MISSING),
  );
  const departmentLink = or(
    () =>
      department!.members
        .all()
        .map((m) => main.links.get(m.id))
        .find(Boolean)!,
    { memberId: MISSING, chatId: MISSING } as never,
  );
  const log = or(() => main.logs.all()[0]!, { id: MISSING, createdBy: MISSING, username: MISSING } as never);
  return {
    serverId: main.info.id,
    memberId: link.memberId,
    chatId: link.chatId,
    gameId: link.gameId!,
    unlinkedMemberId: or(() => main.members.all().find((m) => !main.links.get(m.id))!.id, MISSING),
    userId: or(() => main.applicationResponses.all()[0]!.userId, MISSING),
    applicationId: or(() => main.applications.all()[0]!.id, MISSING),
    callId: call,
    noteId: or(() => cad.notes.where('callId', call)[0]!.id, MISSING),
    hearingId: or(() => cad.courtHearings.all()[0]!.id, MISSING),
    recordId: or(() => cad.records.all()[0]!.id, MISSING),
    groupId: or(() => cad.unitGroups.all()[0]!.id, MISSING_INT32),
    unitId: or(() => cad.units.all()[0]!.id, MISSING_INT32),
    departmentId,
    deptJoinUserId: or(() => department!.joinRequests.all()[0]!.userId, MISSING),
    deptLoa: or(() => department!.loas.all()[0]!, missingRow),
    deptMemberId: departmentLink.memberId,
    deptChatId: departmentLink.chatId,
    deptUnlinkedMemberId: MISSING,
    rankId: or(() => department!.ranks.all()[0]!.id, MISSING),
    deptShift: or(() => department!.shifts.all()[0]!, missingRow),
    joinUserId: or(() => main.joinRequests.all()[0]!.userId, MISSING),
    loa: or(() => main.loas.all()[0]!, missingRow),
    staffId: log.createdBy,
    username: log.username,
    logId: log.id,
    roleId: or(() => main.roles.all()[0]!.id, MISSING),
    shift: or(() => main.shifts.all()[0]!, missingRow),
    tokenId: store.tokens.all().find((t) => t.name === 'readOnly')!.id,
  };
}

const CASES: [string, Partial<WorldCounts>][] = [
  ...Object.keys(DEFAULT_COUNTS).map((name): [string, Partial<WorldCounts>] => [name, { [name]: 0 }]),
  ['every group at once', Object.fromEntries(Object.keys(DEFAULT_COUNTS).map((name) => [name, 0]))],
];

describe('#12 every counts group at 0 makes a valid, servable world', () => {
  it.each(CASES)('%s at 0: the world builds and all 64 requests answer per the spec', async (name, counts) => {
    const mock = createMockApi({ seed: 8, counts });
    const main = mock.store.main;
    for (const group of Object.keys(counts)) {
      const table =
        group === 'calls' || group === 'records' || group === 'units' || group === 'unitGroups'
          ? (main.cad as any)[group]
          : (main as any)[group];
      expect(table.size, `${group} is empty`).toBe(0);
    }
    const client = mockClient(mock);
    const ids = idsOf(mock.store);
    for (const row of rows) {
      const args = row.args(ids);
      const label = `${name}=0, #${row.n} ${row.name}(${args.map((a) => JSON.stringify(a)).join(', ')})`;
      const outcome = await method(
        client,
        row.name,
      )(...args).then(
        (value) => ({ value: plain(value) }),
        (error: unknown) => ({ error }),
      );
      // A 404 exactly where an id the row needs is one the world has not; else the store's answer.
      const expected = addressesMissing(row, args)
        ? { error: expect.any(NotFoundError) }
        : { value: endpointOf(row).kind === 'page' ? firstPage(row.expect(mock.store, ids) as unknown[]) : row.expect(mock.store, ids) };
      expect(outcome, label).toEqual(expected);
    }
  });
});
