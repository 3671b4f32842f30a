/**
 * One table of the mock's store: rows, a primary key, and the indexes and orderings that let a
 * list request cost O(page) rather than O(table). Everything derived is built lazily and thrown
 * away on any write, so tests may change rows freely and never see a stale index.
 * @module
 */

import type * as z from 'zod/mini';
import { checkOptions } from '../src/core/arguments';
import { InvalidArgumentError } from '../src/core/errors';
import { referenceProblem, type Lookups, type References } from './references';
import { describe, typeName } from './request-body';
import { describeProblem, jsonProblem, timeProblem } from './row-rules';

/**
 * The direction of an ordering, as the `sort` query parameter gives it.
 * @example
 * mock.store.main.logs.ordered('createdAt', 'asc'); // oldest first, as `logs.list({ sort: 'asc' })` pages them
 */
export type SortDirection = 'asc' | 'desc';

/**
 * How a table is keyed, filtered and ordered.
 * @example
 * mock.store.main.logs.spec.orderBy; // ['createdAt', 'id']: what `orderBy` accepts on logs.list
 */
export interface CollectionSpec<Row> {
  /** The field a `get` looks rows up by (`id` for most; `userId` for join requests). */
  readonly key: keyof Row & string;
  /** Fields a list may be filtered by, each served from an index. */
  readonly indexes?: readonly (keyof Row & string)[];
  /** Fields `orderBy` accepts; the first is the default. */
  readonly orderBy: readonly [keyof Row & string, ...(keyof Row & string)[]];
  /** Direction when `sort` is not given. */
  readonly sort: SortDirection;
  /** Other names `orderBy` accepts, e.g. `createdAt` for an audit log's `timestamp`. */
  readonly aliases?: Readonly<Record<string, keyof Row & string>>;
}

/**
 * A row a table refused: it breaks the resource's schema (what the SDK would reject when the mock
 * served it), holds a value that is not plain JSON (a cycle, a `BigInt`, `NaN`, a `Date`, a `Map`…),
 * a time in milliseconds where the table holds seconds, a reference to a row that does not exist
 * (see {@link WriteOptions} to allow one), lacks the table's key, or `create()` could not make one.
 * The message names the table, the field's path and the problem; nothing is written.
 * @example
 * expect(() => mock.store.main.logs.update(logId, { createdAt: 'yesterday' as never })).toThrow(InvalidRowError);
 * // main.logs.update: createdAt must be an integer, got string
 * expect(() => mock.store.main.logs.update(logId, { createdAt: Date.now() })).toThrow(/seconds, not milliseconds/);
 */
export class InvalidRowError extends Error {
  override readonly name = 'InvalidRowError';
}

/**
 * What a table knows beyond its spec: its name in `mock.store`, the schema its rows satisfy, and
 * how it makes a new row.
 */
export interface CollectionOptions<Row> {
  /** Its path in `mock.store` (`main.logs`), for error messages. */
  readonly name?: string;
  /** The client's schema of the resource; `insert` and `update` refuse a row it rejects. */
  readonly schema?: z.ZodMiniType;
  /** A new seeded row at position `index` (the table's size), for `create()`. */
  readonly make?: (index: number) => Row;
  /** The fields that point at other rows; a write giving one is refused unless its row exists. */
  readonly references?: References<Row>;
  /** Where each target of `references` is looked up, as the store is at the time of the write. */
  readonly lookups?: () => Lookups;
}

/**
 * How a write treats references (the second argument of `create`, `insert` and `update`).
 * @example
 * // A log by a moderator who has left the server: on purpose, so say so.
 * mock.store.main.logs.create({ createdBy: 'former-moderator' }, { dangling: ['createdBy'] });
 */
export interface WriteOptions<Row> {
  /**
   * Reference fields allowed to point at no row (`['memberId']`), or `true` for all of them.
   * Without it, a reference to a row that does not exist is an {@link InvalidRowError}.
   */
  readonly dangling?: true | readonly (keyof Row & string)[];
}

const WRITE_OPTIONS = ['dangling'];

/** Every reference left unchecked: what `create` inserts after checking the caller's fields itself. */
const FACTORY_FILLED = { dangling: true } as const;

/** One ordering of rows: by a field, ties broken by the key, so every page is stable. */
function compareBy<Row>(field: keyof Row, key: keyof Row, direction: SortDirection) {
  const sign = direction === 'asc' ? 1 : -1;
  const cmp = (a: unknown, b: unknown) => {
    if (a === b) return 0;
    if (a === undefined || a === null) return 1; // missing values last, whatever the direction
    if (b === undefined || b === null) return -1;
    return (a < b ? -1 : 1) * sign;
  };
  return (a: Row, b: Row) => cmp(a[field], b[field]) || cmp(a[key], b[key]);
}

/**
 * One table of the mock's store. Reads are served from lazily built indexes and orderings;
 * every write drops them, so a test may change rows freely and the next request sees it.
 * @example
 * const members = mock.store.main.members;
 * members.insert({ id: 'm-new', serverId: mock.store.main.info.id, roles: [], createdAt: WORLD_END });
 * await client.members.get('m-new'); // found
 * members.update('m-new', { roles: [mock.store.main.roles.all()[0]!.id] }); // a role of the server, or InvalidRowError
 * members.delete('m-new'); // members.get('m-new') is 404 again
 */
export class Collection<Row extends object> {
  #rows: Row[];
  #byKey: Map<unknown, Row> | undefined;
  #indexes = new Map<string, Map<unknown, Row[]>>();
  #orderings = new Map<string, Row[]>();

  readonly #options: CollectionOptions<Row>;

  /** @internal the store builds its tables. */
  constructor(
    /** How the table is keyed, indexed and ordered. */
    readonly spec: CollectionSpec<Row>,
    rows: Iterable<Row> = [],
    options: CollectionOptions<Row> = {},
  ) {
    // One row per key, as if each were inserted in turn (a later one replaces an earlier one):
    // a snapshot of a live server may read a row on two pages, and two rows under one key would
    // make one of them unreachable by get, update and delete while lists still count it.
    this.#byKey = new Map();
    for (const row of rows) this.#byKey.set(row[spec.key], row);
    this.#rows = [...this.#byKey.values()];
    this.#options = options;
  }

  /** How many rows the table holds. */
  get size(): number {
    return this.#rows.length;
  }

  /**
   * Every row, in the table's default order (a fresh array: changing it changes nothing).
   * @example
   * const everyone = mock.store.main.members.all();
   */
  all(): Row[] {
    return [...this.ordered()];
  }

  /**
   * The row whose key is `key`.
   * @example
   * expect((await client.members.get(id)).roles).toEqual(mock.store.main.members.get(id)!.roles);
   */
  get(key: unknown): Row | undefined {
    this.#byKey ??= new Map(this.#rows.map((row) => [row[this.spec.key], row]));
    return this.#byKey.get(key);
  }

  /**
   * Rows whose indexed `field` equals `value`, in the default order.
   * @example
   * const shiftsOfOne = mock.store.main.shifts.where('memberId', memberId);
   */
  where(field: keyof Row & string, value: unknown): readonly Row[] {
    let index = this.#indexes.get(field);
    if (!index) {
      if (!this.spec.indexes?.includes(field)) throw new Error(`${field} is not an indexed field`);
      index = new Map();
      for (const row of this.ordered()) {
        const bucket = index.get(row[field]);
        if (bucket) bucket.push(row);
        else index.set(row[field], [row]);
      }
      this.#indexes.set(field, index);
    }
    return index.get(value) ?? [];
  }

  /**
   * The rows of `rows` (all of them by default) in the given order, cached for the whole table.
   * @example
   * const newestFirst = mock.store.main.logs.ordered('createdAt', 'desc');
   */
  ordered(orderBy: keyof Row & string = this.spec.orderBy[0], sort: SortDirection = this.spec.sort, rows?: readonly Row[]): readonly Row[] {
    const compare = compareBy<Row>(orderBy, this.spec.key, sort);
    if (rows) {
      const isDefault = orderBy === this.spec.orderBy[0] && sort === this.spec.sort;
      return isDefault ? rows : [...rows].sort(compare); // an index bucket is small; sort it per request
    }
    const name = `${orderBy} ${sort}`;
    let ordering = this.#orderings.get(name);
    if (!ordering) {
      ordering = [...this.#rows].sort(compare);
      this.#orderings.set(name, ordering);
    }
    return ordering;
  }

  /**
   * Adds a row; a row with the same key is replaced. Its references must point at rows that
   * exist, unless `options.dangling` names them.
   * @example
   * mock.store.main.roles.insert({ id: 'role-qa', serverId: mock.store.main.info.id, name: 'QA' });
   */
  insert(row: Row, options?: WriteOptions<Row>): Row {
    const dangling = this.#dangling(options, 'insert');
    this.#checkObject(row, 'insert', 'a row');
    this.#checkValues(row, 'insert');
    this.#check(row, 'insert');
    this.#checkReferences(row, dangling, 'insert');
    const existing = this.get(row[this.spec.key]);
    this.#rows = existing ? this.#rows.map((r) => (r === existing ? row : r)) : [...this.#rows, row];
    this.#changed();
    return row;
  }

  /**
   * Changes fields of the row with key `key`; returns the new row, or `undefined` if none. The
   * references the patch gives must point at rows that exist (the row's others are not looked
   * at), unless `options.dangling` names them.
   * @example
   * mock.store.main.members.update(memberId, { roles: [] }); // the next members.get(memberId) shows it
   * mock.store.main.members.update(memberId, { roles: ['gone'] }, { dangling: ['roles'] }); // a role deleted since
   */
  update(key: unknown, patch: Partial<Row>, options?: WriteOptions<Row>): Row | undefined {
    const dangling = this.#dangling(options, 'update');
    this.#checkObject(patch, 'update', 'the patch');
    this.#checkValues(patch, 'update');
    this.#checkReferences(patch, dangling, 'update');
    const existing = this.get(key);
    if (!existing) return undefined;
    const updated = { ...existing, ...patch };
    this.#check(updated, 'update');
    // A new key that another row holds would leave two rows under one key, one of them unreachable.
    if (updated[this.spec.key] !== existing[this.spec.key]) this.#checkFree(updated[this.spec.key], 'update');
    this.#rows = this.#rows.map((r) => (r === existing ? updated : r));
    this.#changed();
    return updated;
  }

  /**
   * Removes the row with key `key`; returns whether there was one.
   * @example
   * mock.store.main.members.delete(memberId); // members.get(memberId) now rejects with NotFoundError
   */
  delete(key: unknown): boolean {
    const existing = this.get(key);
    if (!existing) return false;
    this.#rows = this.#rows.filter((r) => r !== existing);
    this.#changed();
    return true;
  }

  /**
   * Makes a row, inserts it and returns it: the fields of `partial` as given, every other one
   * seeded and valid by the client's schema, its references pointing at rows that exist (a log's
   * `createdBy` is a member, a note's `callId` a call). Each table draws from its own seeded
   * stream, so creating rows never changes the seeded world, and the same seed gives the same rows
   * in the same order; `mock.reset()` restarts every stream. The references `partial` gives must
   * point at rows that exist, unless `options.dangling` names them; the ones the factory fills are
   * not looked at (a seeded row may name a former member on purpose).
   * @example
   * const role = mock.store.main.roles.all()[0]!;
   * const member = mock.store.main.members.create({ roles: [role.id] });
   * const log = mock.store.main.logs.create({ createdBy: member.id });
   * expect((await client.logs.get(log.id)).createdBy).toBe(member.id);
   * mock.store.main.logs.create({ createdBy: 'left-long-ago' }); // InvalidRowError: main.logs.create: createdBy: no member "left-long-ago" in main.members
   */
  create(partial: Partial<Row> = {}, options?: WriteOptions<Row>): Row {
    const dangling = this.#dangling(options, 'create');
    this.#checkObject(partial, 'create', 'the partial row');
    this.#checkValues(partial, 'create');
    this.#checkReferences(partial, dangling, 'create');
    const make = this.#options.make ?? this.#refuse('create', 'this table has no factory');
    const row = { ...make(this.size), ...partial };
    this.#checkFree(row[this.spec.key], 'create');
    return this.insert(row, FACTORY_FILLED);
  }

  /** The reference fields `options` allows to dangle; throws `InvalidArgumentError` on options that are not write options. */
  #dangling(options: WriteOptions<Row> | undefined, operation: string): ReadonlySet<string> {
    const what = `${this.#options.name ?? 'table'}.${operation}`;
    const given: unknown = options;
    checkOptions(given, WRITE_OPTIONS, what);
    const dangling = given?.dangling;
    const fields = Object.keys(this.#options.references ?? {});
    if (dangling === undefined) return new Set();
    if (dangling === true) return new Set(fields);
    if (!Array.isArray(dangling)) throw new InvalidArgumentError(`${what}: dangling must be true or a list of reference fields`);
    for (const field of dangling as unknown[]) {
      if (typeof field !== 'string' || !fields.includes(field)) {
        const known = fields.length ? fields.join(', ') : 'none';
        throw new InvalidArgumentError(`${what}: dangling: ${JSON.stringify(field)} is not a reference field of this table (${known})`);
      }
    }
    return new Set(dangling);
  }

  /** Throws unless `value` is a plain object: a string would spread as fields "0", "1", …, and null would vanish. */
  #checkObject(value: unknown, operation: string, what: string): void {
    if (typeName(value) !== 'object') this.#refuse(operation, `${what} must be an object of fields, got ${typeName(value)}`);
  }

  /**
   * Throws unless every field of `fields` is plain JSON and its times are seconds: what the mock
   * could not serve, or would serve wrong for good (a cycle turns every later page into a 500).
   */
  #checkValues(fields: object, operation: string): void {
    const problem = jsonProblem(fields) ?? timeProblem(fields);
    if (problem) this.#refuse(operation, describeProblem(problem));
  }

  /** Throws unless each reference of `fields` (but those allowed to dangle) points at a row that exists. */
  #checkReferences(fields: object, dangling: ReadonlySet<string>, operation: string): void {
    const { references, lookups } = this.#options;
    if (!references || !lookups) return;
    const problem = referenceProblem(fields, references, lookups(), dangling);
    if (problem) this.#refuse(operation, describeProblem(problem));
  }

  /** Throws if a row holds `key` already: `create` and a key-changing `update` never replace one. */
  #checkFree(key: unknown, operation: string): void {
    if (this.get(key)) this.#refuse(operation, `${this.spec.key} ${JSON.stringify(key)} is already taken`);
  }

  /** Throws unless `row` has a key and satisfies the table's schema. */
  #check(row: Row, operation: string): void {
    const key = row[this.spec.key];
    if (key === undefined || key === null) this.#refuse(operation, `${this.spec.key} is required (the table's key)`);
    const schema = this.#options.schema;
    const parsed = schema?.safeParse(row);
    if (!parsed || parsed.success) return;
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    const problem = describe(issue, row, schema!, []);
    // A refinement's own text may not name the field; the refusal always does.
    this.#refuse(operation, problem.startsWith(field) ? problem : `${field}: ${problem}`);
  }

  #refuse(operation: string, problem: string): never {
    throw new InvalidRowError(`${this.#options.name ?? 'table'}.${operation}: ${problem}`);
  }

  #changed(): void {
    this.#byKey = undefined;
    this.#indexes.clear();
    this.#orderings.clear();
  }
}
