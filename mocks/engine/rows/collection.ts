/**
 * One table of the mock's store: rows, a primary key, and the indexes and orderings that let a
 * list request cost O(page) rather than O(table). Indexes and orderings are built on first read
 * and then kept in step with every write, each write costing O(log n) in the table's size: a
 * world of 100k rows, or an activity running for hours, takes writes as fast as a small one.
 * @module
 */

import type * as z from 'zod/mini';
import { buildPath, checkOptions } from '../../../src/core/arguments';
import { InvalidArgumentError } from '../../../src/core/errors';
import { OWN_WORDS } from '../../../src/core/issues';
import { referenceProblem, type Lookups, type References } from './references';
import { typeName } from '../../contract/schema';
import { issueInWords } from './request-body';
import { asSent, describeProblem, jsonProblem, sizeProblem, timeProblem } from './rules';
import type { Sequence } from './sequence';
import { SortedList } from './sorted';

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
  /** Fields no two rows may share a value of (a token's `secret`); each must be one of `indexes`. */
  readonly unique?: readonly (keyof Row & string)[];
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
 * (see {@link WriteOptions} to allow one), a key no client can address (`''`, `'..'`), a value of
 * a unique field that another row holds, or lacks the table's key or a required field (`undefined`
 * included: JSON leaves it out), or `create()` could not make one.
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
  /**
   * Values no row may hold in a unique field (see {@link CollectionSpec.unique}), beside those
   * other rows hold: a live set, read at each write (the control API's admin token, never a
   * token's secret).
   */
  readonly reserved?: { readonly [Field in keyof Row & string]?: { has(value: unknown): boolean } };
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

/** An ordering of rows kept in step with the table, and the array it last read as (until a write). */
interface Kept<Row> {
  readonly sorted: SortedList<Row>;
  list: readonly Row[] | undefined;
}

/** The rows of one value of an indexed field, and where the value is in its index's `values`. */
interface Bucket<Row> extends Kept<Row> {
  position: number;
}

/** An index of one field: each value's rows in the default order, and the values, to draw one from. */
interface Index<Row> {
  readonly buckets: Map<unknown, Bucket<Row>>;
  readonly values: unknown[];
}

const kept = <Row>(compare: (a: Row, b: Row) => number, sorted: readonly Row[] = []): Kept<Row> => ({
  sorted: new SortedList(compare, sorted),
  list: undefined,
});

/** The rows of `ordering` as an array, read once per write. */
const listOf = <Row>(ordering: Kept<Row>): readonly Row[] => (ordering.list ??= ordering.sorted.slice(0));

/**
 * One page of a table: rows `start` to `end` (excluded) of an ordering, of the whole table or of
 * the rows whose indexed `where.field` equals `where.value`.
 * @example
 * const page: PageRange<Log> = { start: 0, end: 10, orderBy: 'createdAt', sort: 'desc', where: { field: 'createdBy', value: staffId } };
 */
export interface PageRange<Row> {
  /** The position of the page's first row, from 0. */
  readonly start: number;
  /** The position after its last row. */
  readonly end: number;
  /** Default: the table's first `orderBy`. */
  readonly orderBy?: keyof Row & string;
  /** Default: the table's `sort`. */
  readonly sort?: SortDirection;
  /** Only the rows whose indexed `field` equals `value`. */
  readonly where?: { readonly field: keyof Row & string; readonly value: unknown };
}

/**
 * One table of the mock's store. Reads are served from indexes and orderings built on first use;
 * every write keeps them in step in O(log n), so the next request sees it. Write rows through
 * `insert`, `update` and `delete`: a row changed in place (`get(id)!.name = …`) is served as
 * changed, but keeps its place in orderings and indexes until it is written again.
 * @example
 * const members = mock.store.main.members;
 * members.insert({ id: 'm-new', serverId: mock.store.main.info.id, roles: [], createdAt: WORLD_END });
 * await client.members.get('m-new'); // found
 * members.update('m-new', { roles: [mock.store.main.roles.all()[0]!.id] }); // a role of the server, or InvalidRowError
 * members.delete('m-new'); // members.get('m-new') is 404 again
 */
export class Collection<Row extends object> {
  #byKey = new Map<unknown, Row>();
  /** Orderings read so far, by `field direction`. */
  #orderings = new Map<string, Kept<Row>>();
  /** Indexes read so far, by field. */
  #indexes = new Map<string, Index<Row>>();
  readonly #defaultOrder: (a: Row, b: Row) => number;

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
    for (const row of rows) this.#byKey.set(row[spec.key], row);
    this.#defaultOrder = compareBy<Row>(spec.orderBy[0], spec.key, spec.sort);
    this.#options = options;
  }

  /** How many rows the table holds. */
  get size(): number {
    return this.#byKey.size;
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
    return this.#byKey.get(key);
  }

  /**
   * Rows whose indexed `field` equals `value`, in the default order.
   * @example
   * const shiftsOfOne = mock.store.main.shifts.where('memberId', memberId);
   */
  where(field: keyof Row & string, value: unknown): readonly Row[] {
    const bucket = this.#bucket(field, value);
    return bucket ? listOf(bucket) : [];
  }

  /**
   * The values an indexed `field` holds, each once, read by position in O(1) (a live view: it
   * follows the table's writes). For drawing one at random.
   * @example
   * const staff = mock.store.main.logs.values('createdBy'); // everyone who has written a log
   * staff.at(0);
   */
  values<Field extends keyof Row & string>(field: Field): Sequence<Row[Field]> {
    this.#indexOf(field); // a field that is not indexed throws now, not at the first read
    const values = () => this.#indexOf(field).values as Row[Field][];
    return {
      get length() {
        return values().length;
      },
      at: (index) => values()[index],
    };
  }

  /**
   * The rows in the given order, read by position in O(log n) without copying the table (a live
   * view: it follows the table's writes). For drawing a row at random from a big table.
   * @example
   * const members = mock.store.main.members.sequence();
   * const newest = members.at(0);
   */
  sequence(orderBy: keyof Row & string = this.spec.orderBy[0], sort: SortDirection = this.spec.sort): Sequence<Row> {
    const sorted = () => this.#ordering(orderBy, sort).sorted;
    return {
      get length() {
        return sorted().size;
      },
      at: (index) => sorted().at(index),
    };
  }

  /**
   * The rows of `rows` (all of them by default) in the given order. The whole table's is read
   * once per write; a page of it is cheaper through {@link Collection.page}.
   * @example
   * const newestFirst = mock.store.main.logs.ordered('createdAt', 'desc');
   */
  ordered(orderBy: keyof Row & string = this.spec.orderBy[0], sort: SortDirection = this.spec.sort, rows?: readonly Row[]): readonly Row[] {
    if (!rows) return listOf(this.#ordering(orderBy, sort));
    const isDefault = orderBy === this.spec.orderBy[0] && sort === this.spec.sort;
    return isDefault ? rows : [...rows].sort(compareBy<Row>(orderBy, this.spec.key, sort)); // an index bucket is small; sort it per request
  }

  /**
   * One page of rows and how many there are in all (see {@link PageRange}): what a list request
   * answers, in O(log n + page) however the table changes. A filtered page in another order than
   * the default sorts the rows that match, per call.
   * @example
   * const { rows: [newest], total } = mock.store.main.logs.page({ start: 0, end: 1, sort: 'desc' });
   */
  page(range: PageRange<Row>): { rows: Row[]; total: number } {
    const { start, end, orderBy = this.spec.orderBy[0], sort = this.spec.sort, where } = range;
    const isDefault = orderBy === this.spec.orderBy[0] && sort === this.spec.sort;
    if (where && !isDefault) {
      const rows = this.ordered(orderBy, sort, this.where(where.field, where.value));
      return { rows: rows.slice(start, end), total: rows.length };
    }
    const ordering = where ? this.#bucket(where.field, where.value) : this.#ordering(orderBy, sort);
    return ordering ? { rows: ordering.sorted.slice(start, end), total: ordering.sorted.size } : { rows: [], total: 0 };
  }

  /**
   * Adds a row; a row with the same key is replaced. Its references must point at rows that
   * exist, unless `options.dangling` names them. A field that holds `undefined` is left out,
   * as JSON sends it (and refused if the resource requires it). Returns the row as kept.
   * @example
   * mock.store.main.roles.insert({ id: 'role-qa', serverId: mock.store.main.info.id, name: 'QA' });
   */
  insert(row: Row, options?: WriteOptions<Row>): Row {
    return this.#insert(row, this.#dangling(options, 'insert'), 'insert');
  }

  /**
   * Changes fields of the row with key `key`; returns the new row, or `undefined` if none. The
   * references the patch gives must point at rows that exist (the row's others are not looked
   * at), unless `options.dangling` names them. A field the patch sets to `undefined` is removed,
   * or refused (naming it) if the resource requires it.
   * @example
   * mock.store.main.members.update(memberId, { roles: [] }); // the next members.get(memberId) shows it
   * mock.store.main.members.update(memberId, { roles: ['gone'] }, { dangling: ['roles'] }); // a role deleted since
   * mock.store.main.logs.update(logId, { description: undefined }); // the log has no description now
   */
  update(key: unknown, patch: Partial<Row>, options?: WriteOptions<Row>): Row | undefined {
    const dangling = this.#dangling(options, 'update');
    this.#checkObject(patch, 'update', 'the patch');
    this.#checkValues(patch, 'update');
    this.#checkReferences(patch, dangling, 'update');
    const existing = this.get(key);
    if (!existing) return undefined;
    const updated = asSent({ ...existing, ...patch });
    this.#check(updated, 'update');
    // A new key that another row holds would leave two rows under one key, one of them unreachable.
    if (updated[this.spec.key] !== key) this.#checkFree(updated[this.spec.key], 'update');
    this.#checkUnique(updated, existing, 'update');
    this.#unlist(key, existing);
    this.#list(updated);
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
    this.#unlist(key, existing);
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
    return this.#insert(row, this.#dangling(FACTORY_FILLED, 'create'), 'create');
  }

  /** `insert` and `create`'s write, refused in the name of `operation`. */
  #insert(row: Row, dangling: ReadonlySet<string>, operation: string): Row {
    this.#checkObject(row, operation, 'a row');
    this.#checkValues(row, operation);
    const stored = asSent(row);
    this.#check(stored, operation);
    this.#checkReferences(stored, dangling, operation);
    const key = stored[this.spec.key];
    const existing = this.get(key);
    this.#checkUnique(stored, existing, operation);
    if (existing) this.#unlist(key, existing);
    this.#list(stored);
    return stored;
  }

  /** The ordering by `orderBy` in direction `sort`, built on first use. */
  #ordering(orderBy: keyof Row & string, sort: SortDirection): Kept<Row> {
    const name = `${orderBy} ${sort}`;
    let ordering = this.#orderings.get(name);
    if (!ordering) {
      const compare = compareBy<Row>(orderBy, this.spec.key, sort);
      ordering = kept(compare, [...this.#byKey.values()].sort(compare));
      this.#orderings.set(name, ordering);
    }
    return ordering;
  }

  /** The index of `field` (one of `spec.indexes`), built on first use from the default order. */
  #indexOf(field: keyof Row & string): Index<Row> {
    let index = this.#indexes.get(field);
    if (index) return index;
    if (!this.spec.indexes?.includes(field)) throw new Error(`${field} is not an indexed field`);
    const rows = new Map<unknown, Row[]>();
    for (const row of listOf(this.#ordering(this.spec.orderBy[0], this.spec.sort))) {
      const bucket = rows.get(row[field]);
      if (bucket) bucket.push(row);
      else rows.set(row[field], [row]);
    }
    const values = [...rows.keys()];
    const buckets = new Map(values.map((value, position) => [value, { ...kept(this.#defaultOrder, rows.get(value)), position }]));
    index = { buckets, values };
    this.#indexes.set(field, index);
    return index;
  }

  #bucket(field: keyof Row & string, value: unknown): Bucket<Row> | undefined {
    return this.#indexOf(field).buckets.get(value);
  }

  /** Adds `row` to the table and to every ordering and index read so far. */
  #list(row: Row): void {
    this.#byKey.set(row[this.spec.key], row);
    for (const ordering of this.#orderings.values()) {
      ordering.sorted.insert(row);
      ordering.list = undefined;
    }
    for (const [field, { buckets, values }] of this.#indexes) {
      const value = row[field as keyof Row];
      let bucket = buckets.get(value);
      if (!bucket) {
        bucket = { ...kept(this.#defaultOrder), position: values.length };
        buckets.set(value, bucket);
        values.push(value);
      }
      bucket.sorted.insert(row);
      bucket.list = undefined;
    }
  }

  /**
   * Takes `row`, held under `key`, out of the table and of every ordering and index. One that
   * cannot find it where its fields place it (the row was changed in place) is dropped, to be
   * built again on its next read.
   */
  #unlist(key: unknown, row: Row): void {
    this.#byKey.delete(key);
    for (const [name, ordering] of this.#orderings) {
      if (ordering.sorted.remove(row)) ordering.list = undefined;
      else this.#orderings.delete(name);
    }
    for (const [field, { buckets, values }] of this.#indexes) {
      const value = row[field as keyof Row];
      const bucket = buckets.get(value);
      if (!bucket?.sorted.remove(row)) this.#indexes.delete(field);
      else if (bucket.sorted.size > 0) bucket.list = undefined;
      else {
        // The value is gone: the last value takes its place in `values`.
        buckets.delete(value);
        const last = values.pop();
        if (bucket.position < values.length) {
          values[bucket.position] = last;
          buckets.get(last)!.position = bucket.position;
        }
      }
    }
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

  /**
   * Throws if a unique field of `row` holds a value that a row other than `replaced` (the one
   * `row` takes the place of) holds, or a reserved one. The value is never shown: it may be a secret.
   */
  #checkUnique(row: Row, replaced: Row | undefined, operation: string): void {
    for (const field of this.spec.unique ?? []) {
      const value = row[field];
      if (value === undefined || value === null) continue;
      if (this.#options.reserved?.[field]?.has(value)) this.#refuse(operation, `${field}: this value is reserved (not shown)`);
      const holder = this.where(field, value).find((other) => other !== replaced);
      if (holder) {
        const { key } = this.spec;
        this.#refuse(
          operation,
          `${field}: the row whose ${key} is ${JSON.stringify(holder[key])} holds this value (not shown); it is unique`,
        );
      }
    }
  }

  /** Throws unless `row` has a key a client can address, satisfies the table's schema, and is no bigger than a page can hold. */
  #check(row: Row, operation: string): void {
    const key = row[this.spec.key];
    if (key === undefined || key === null) this.#refuse(operation, `${this.spec.key} is required (the table's key)`);
    const size = sizeProblem(row);
    if (size) this.#refuse(operation, describeProblem(size));
    const schema = this.#options.schema;
    const parsed = schema?.safeParse(row, OWN_WORDS);
    if (parsed && !parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join('.');
      const problem = issueInWords(issue, row, schema!, []);
      // A refinement's own text may not name the field; the refusal always does.
      this.#refuse(operation, problem.startsWith(field) ? problem : `${field}: ${problem}`);
    }
    this.#checkAddressable(key, operation);
  }

  /**
   * Throws unless a client can send `key` in a request path, as the SDK checks it (`''`, `'.'`,
   * `'..'` and blank ids never reach a row; a number must be an int32): a row under any other
   * key would be listed, and no `get` could reach it.
   */
  #checkAddressable(key: unknown, operation: string): void {
    try {
      buildPath([{ name: this.spec.key, kind: typeof key === 'number' ? 'int32' : 'string' }], [key]);
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) throw error;
      this.#refuse(operation, `${error.message}: no client can address such a row (its key goes in request paths)`);
    }
  }

  #refuse(operation: string, problem: string): never {
    throw new InvalidRowError(`${this.#options.name ?? 'table'}.${operation}: ${problem}`);
  }
}
