/**
 * `create()` for every table of `mock.store`: a table's declared seeder, drawing from a stream of
 * its own and pointing into the rows the store holds at that moment.
 *
 * Each table's stream is `[seed, FACTORY_STREAM, …its path in the store]` (`main.logs`,
 * `main.departmentData.<id>.loas`): independent of the seeded world (which never draws from it)
 * and of every other table, so creating members does not change the next log. The stream opens
 * on a table's first `create()`; `mock.reset()` builds a new store, so every stream starts over.
 * @module
 */
import { InvalidRowError, type CollectionOptions } from '../rows/collection';
import type { Lookups } from '../rows/references';
import { Draw, seededFaker, type Table } from '../world';
import { FACTORY_STREAM } from '../world/streams';

/** What each ref a row points into is, in words, for the refusal when there is none. */
const NEEDED: Readonly<Record<string, string>> = {
  authorIds: 'a member of the server',
  usernames: 'a member or a log (to name the player)',
  unlinked: 'a member without a linked account',
  applications: 'an application',
  applicants: 'a member without a join request',
  outsiders: 'a server member outside the department',
  ranks: 'a rank in the department',
  rosterIds: 'a member of the department',
  records: 'a CAD record',
  calls: 'a CAD call',
};

/** Where a table is and what it may point at: enough to give it `create()`. */
export interface TableSite<Refs> {
  /** The world's seed. */
  readonly seed: number;
  /** The table's path in `mock.store`, e.g. `main.logs`. */
  readonly path: string;
  /** The rows it may point at, read from the store when a row is made. */
  readonly refs: () => Refs;
  /** Where the rows its references name are looked up, read from the store at each write. */
  readonly lookups?: () => Lookups;
}

/** The options of a table's collection: its name, schema and references, and `make` for `create()`. */
export function tableOptions<Row extends object, Refs>(table: Table<Row, Refs>, site: TableSite<Refs>): CollectionOptions<Row> {
  let draw: Draw | undefined;
  return {
    name: site.path,
    schema: table.schema,
    ...(site.lookups && table.references ? { references: table.references, lookups: site.lookups } : {}),
    make: (index) => {
      const refs = site.refs();
      const missing = (table.needs ?? []).find((field) => (refs[field] as readonly unknown[]).length === 0);
      if (missing) {
        throw new InvalidRowError(
          `${site.path}.create: a row here points at ${NEEDED[missing] ?? missing}, and there is none; create one first`,
        );
      }
      const stream = [site.seed, FACTORY_STREAM, ...[...site.path].map((char) => char.charCodeAt(0))];
      draw ??= new Draw(seededFaker(stream), stream);
      return table.row(draw, refs, index);
    },
  };
}
