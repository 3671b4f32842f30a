/**
 * What a data group declares about each of its tables, in one place: how the store keys, indexes
 * and orders it, the client's schema its rows must satisfy, and how one seeded row is made. The
 * world, the store and the factories are all derived from these declarations.
 * @module
 */
import type * as z from 'zod/mini';
import type {
  Application,
  CadCall,
  CadRecord,
  CadUnit,
  CadUnitGroup,
  Department,
  DepartmentRank,
  Member,
} from '../../../src/schemas/index';
import type { CollectionSpec } from '../rows/collection';
import type { References } from '../rows/references';
import type { Sequence } from '../rows/sequence';
import type { Steps } from '../steps';
import type { Draw } from './draw';

/**
 * The rows a server's other rows point at: what a seeder picks references from. Lists are
 * {@link Sequence}s: arrays while the world is seeded, live views of the store's tables for
 * `create()`, so a row costs O(log n) to make however big the tables it points into are.
 */
export interface ServerRefs {
  readonly serverId: string;
  readonly roleIds: Sequence<string>;
  readonly members: Sequence<Member>;
  /** Who writes rows: the members, or a few former members on a server without any. */
  readonly authorIds: Sequence<string>;
  /** The first twentieth of the authors: who reviews and moderates. */
  readonly staffIds: Sequence<string>;
  readonly applications: Sequence<Application>;
  readonly joinCodes: readonly string[];
  /** The names moderation logs are written about. */
  readonly usernames: Sequence<string>;
  /** Members without a linked chat account (a link is keyed by its member). */
  readonly unlinked: Sequence<Member>;
  /** Who may ask to join (a join request is keyed by its user): anyone without a request yet. */
  readonly applicants: Sequence<string>;
}

/** A department's kind: its name, icon and the agency prefix of its callsigns. */
export interface DepartmentKind {
  readonly name: string;
  readonly icon: string;
  readonly agency: string;
}

/** The rows inside one department that its other rows point at. */
export interface DepartmentRefs extends ServerRefs {
  readonly department: Department;
  readonly kind: DepartmentKind;
  readonly ranks: Sequence<DepartmentRank>;
  /** Its members' ids. */
  readonly rosterIds: Sequence<string>;
  /** Server members not in it: who may be added, or ask to join (`applicants`, without a request yet). */
  readonly outsiders: Sequence<Member>;
}

/** The CAD rows other CAD rows point at. */
export interface CadRefs extends ServerRefs {
  readonly agencies: readonly string[];
  readonly units: Sequence<CadUnit>;
  readonly unitGroups: Sequence<CadUnitGroup>;
  readonly records: Sequence<CadRecord>;
  readonly calls: Sequence<CadCall>;
}

/**
 * One table of the world.
 * - `spec`: its key, indexes and orderings in the store;
 * - `schema`: the client's schema for the resource (what the SDK parses the row with), checked
 *   on every `insert` and `update`; for the mock's own bookkeeping rows (links, tokens), which
 *   the API never serves as they are, the mock's schema of them;
 * - `row`: one seeded row, given the draw, the rows it may point at, and its position (`index`,
 *   the table's size when a factory makes it).
 */
export interface WorldTable<Row extends object, Refs = ServerRefs> {
  readonly spec: CollectionSpec<Row>;
  readonly schema: z.ZodMiniType;
  readonly row: (d: Draw, refs: Refs, index: number) => Row;
  /**
   * The seeded rows of the table, when they are not `count` calls of `row` (a draw over the
   * parents first, a row per member…): kept so a seed gives the rows it always gave.
   */
  readonly seed?: (d: Draw, refs: Refs, count: number) => Iterable<Row>;
  /** The refs a row must point into: `create()` refuses, naming what is missing, while one is empty. */
  readonly needs?: readonly (keyof Refs & string)[];
  /**
   * The fields that point at other rows, and at what: a write to the store that gives one of them
   * is refused unless the row it names exists (see `../rows/references.ts`).
   */
  readonly references?: References<Row>;
}

/** How to compute each field of `T`. */
export type Sources<T> = { readonly [Name in keyof T]: () => T[Name] };

/**
 * An object whose fields are computed on first read, once. Refs are built this way so that a row
 * pays only for what it points at: a factory's log on a server of 100,000 members does not list
 * who lacks a linked account.
 */
export function lazily<T extends object>(sources: Sources<T>): T {
  const object = {} as T;
  for (const name of Object.keys(sources) as (keyof T)[]) {
    Object.defineProperty(object, name, {
      enumerable: true,
      configurable: true,
      get: () => {
        const value = sources[name]();
        Object.defineProperty(object, name, { value, enumerable: true });
        return value;
      },
    });
  }
  return object;
}

/** `base` with more (or other) lazily computed fields; `base`'s own stay lazy. */
export function extend<Base extends object, More extends object>(base: Base, more: Sources<More>): Omit<Base, keyof More> & More {
  const inherited = Object.fromEntries(Object.keys(base).map((name) => [name, () => base[name as keyof Base]]));
  return lazily({ ...inherited, ...more } as Sources<Omit<Base, keyof More> & More>);
}

/** The row type of a table declaration. */
export type RowOf<T> = T extends WorldTable<infer Row, never> ? Row : never;
/** The rows of each table of a group of declarations. */
export type RowsOf<Tables> = { -readonly [Name in keyof Tables]: RowOf<Tables[Name]>[] };

/** Newest first, by `field` then id, as moderation and activity views show rows. */
export const byTime = <Row>(field: keyof Row & string, indexes: (keyof Row & string)[] = []): CollectionSpec<Row> => ({
  key: 'id' as keyof Row & string,
  indexes,
  orderBy: [field, 'id' as keyof Row & string],
  sort: 'desc',
});

/** `count` rows of `table` drawn one after the other. */
function* drawnRows<Row extends object, Refs>(table: WorldTable<Row, Refs>, d: Draw, refs: Refs, count: number): Generator<Row> {
  for (let i = 0; i < count; i++) yield table.row(d, refs, i);
}

/** The seeded rows of `table`, a step per row: its own `seed`, or `count` rows drawn one after the other. */
export function* seedingRows<Row extends object, Refs>(table: WorldTable<Row, Refs>, d: Draw, refs: Refs, count: number): Steps<Row[]> {
  const rows: Row[] = [];
  for (const row of table.seed ? table.seed(d, refs, count) : drawnRows(table, d, refs, count)) {
    rows.push(row);
    yield;
  }
  return rows;
}
