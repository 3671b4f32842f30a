/**
 * A table's orderings and indexes are kept in step with its writes (issue 23, item 12: a write
 * costs O(log n), not a re-sort of the table). Whatever writes come, in whatever order, every
 * read (a page in each order, a filtered page, `where`, `values`, `sequence`, `ordered`) answers
 * what sorting the table's rows afresh answers.
 */
import fc from 'fast-check';
import { createMockApi, type ShiftRow, type SortDirection } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';

/** The order a list is served in, by a fresh sort: by `field`, missing values last, ties by id, in `sort`'s direction. */
function sorted(rows: readonly ShiftRow[], field: 'createdAt' | 'id', sort: SortDirection): ShiftRow[] {
  const sign = sort === 'asc' ? 1 : -1;
  const compare = (a: unknown, b: unknown) => {
    if (a === b) return 0;
    if (a === undefined || a === null) return 1;
    if (b === undefined || b === null) return -1;
    return (a < b ? -1 : 1) * sign;
  };
  return [...rows].sort((a, b) => compare(a[field], b[field]) || compare(a.id, b.id));
}

const MEMBERS = ['m1', 'm2', 'm3'];
const id = fc.constantFrom('s1', 's2', 's3', 's4', 's5', 's6');
const time = fc.integer({ min: 1_700_000_000, max: 1_700_000_004 }); // few values: many ties
const write = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), id, createdAt: time, memberId: fc.constantFrom(...MEMBERS), open: fc.boolean() }),
  fc.record({ kind: fc.constant('update' as const), id, createdAt: fc.option(time), memberId: fc.option(fc.constantFrom(...MEMBERS)) }),
  fc.record({ kind: fc.constant('rekey' as const), id, to: id }),
  fc.record({ kind: fc.constant('end' as const), id, at: time }),
  fc.record({ kind: fc.constant('delete' as const), id }),
);

describe('orderings and indexes follow every write', () => {
  it('every read equals a fresh sort of the rows, after any writes', () => {
    const template = createMockApi({ seed: 1 }).store.main.shifts.all()[0]!;
    const mock = createMockApi({
      seed: 1,
      counts: { members: 3, shifts: 0, logs: 0, auditLogs: 0, applicationResponses: 0, departments: 0, calls: 0, records: 0 },
    });
    fc.assert(
      fc.property(fc.array(write, { maxLength: 40 }), fc.boolean(), (writes, readFirst) => {
        mock.reset();
        const { shifts } = mock.store.main;
        const model = new Map<string, ShiftRow>();
        const read = () => {
          const rows = [...model.values()];
          for (const field of ['createdAt', 'id'] as const) {
            for (const sort of ['asc', 'desc'] as const) {
              const expected = sorted(rows, field, sort);
              expect(shifts.ordered(field, sort)).toEqual(expected);
              expect(shifts.page({ start: 1, end: 4, orderBy: field, sort })).toEqual({ rows: expected.slice(1, 4), total: rows.length });
              const view = shifts.sequence(field, sort);
              expect(Array.from({ length: view.length }, (_, index) => view.at(index))).toEqual(expected);
            }
          }
          const newestFirst = sorted(rows, 'createdAt', 'desc');
          for (const memberId of MEMBERS) {
            const theirs = newestFirst.filter((row) => row.memberId === memberId);
            expect(shifts.where('memberId', memberId)).toEqual(theirs);
            expect(shifts.page({ start: 0, end: 2, where: { field: 'memberId', value: memberId } })).toEqual({
              rows: theirs.slice(0, 2),
              total: theirs.length,
            });
          }
          expect(shifts.where('endedAt', null)).toEqual(newestFirst.filter((row) => row.endedAt === null));
          const values = shifts.values('memberId');
          expect(new Set(Array.from({ length: values.length }, (_, index) => values.at(index)))).toEqual(
            new Set(rows.map((row) => row.memberId)),
          );
          expect(values.length).toBe(new Set(rows.map((row) => row.memberId)).size);
        };
        if (readFirst) read(); // orderings and indexes built before the writes, then kept in step
        for (const change of writes) {
          const existing = model.get(change.id);
          if (change.kind === 'insert') {
            const row = {
              ...template,
              id: change.id,
              createdAt: change.createdAt,
              memberId: change.memberId,
              endedAt: change.open ? null : change.createdAt,
            };
            model.set(change.id, shifts.insert(row, { dangling: true }));
          } else if (change.kind === 'update' && existing) {
            const patch = {
              ...(change.createdAt === null ? {} : { createdAt: change.createdAt }),
              ...(change.memberId === null ? {} : { memberId: change.memberId }),
            };
            model.set(change.id, shifts.update(change.id, patch, { dangling: true })!);
          } else if (change.kind === 'rekey' && existing && !model.has(change.to)) {
            model.delete(change.id);
            model.set(change.to, shifts.update(change.id, { id: change.to })!);
          } else if (change.kind === 'end' && existing) {
            model.set(change.id, shifts.update(change.id, { endedAt: change.at })!);
          } else if (change.kind === 'delete') {
            expect(shifts.delete(change.id)).toBe(model.delete(change.id));
          }
          expect(shifts.size).toBe(model.size);
          read();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a row changed in place is served as changed, and placed anew once it is written', () => {
    const shifts = createMockApi({ seed: 1 }).store.main.shifts;
    const [newest, second] = shifts.all();
    second!.createdAt = newest!.createdAt + 1; // in place: the ordering does not know
    expect(shifts.all()[1]).toBe(second);
    const rewritten = shifts.update(second!.id, {})!;
    expect(shifts.all()[0]).toBe(rewritten);
    expect(shifts.ordered()).toEqual(sorted(shifts.all(), 'createdAt', 'desc'));
  });
});
