/**
 * References between the mock's rows: which fields of a table point at which kind of row, and
 * the check that a row written into `mock.store` points at rows that exist (a log's `createdBy`
 * is a member of its server, a note's `callId` a call of its CAD). A world snapshot is checked
 * the same way, for the links that make a row part of its owner only (see {@link OWNERSHIP}).
 * @module
 */
import type { RowProblem } from './rules';

/** What a reference field points at. */
export type Target =
  /** The server the row belongs to (`serverId`). */
  | 'server'
  /** A member of the server. */
  | 'member'
  /** A role of the server. */
  | 'role'
  /** An application of the server. */
  | 'application'
  /** The department the row sits in (`departmentId`). */
  | 'department'
  /** A rank of that department. */
  | 'rank'
  /** A member of that department (its roster). */
  | 'roster'
  /** A call of the server's CAD. */
  | 'call'
  /** A record of the server's CAD. */
  | 'record'
  /** A unit of the server's CAD. */
  | 'unit';

/**
 * The targets that make a row part of its owner: a note without its call cannot be listed, a
 * response without its application cannot be reached. A snapshot of a real server is checked for
 * these only, since its history (logs, LOAs, shifts) rightly names members who have left.
 */
export const OWNERSHIP: ReadonlySet<Target> = new Set<Target>(['server', 'department', 'application', 'rank', 'call', 'record']);

/**
 * A table's reference fields and what each points at: a target, or `[target]` for a list of ids
 * (a member's `roles`), given as an array or, as older rows carry open fields, a JSON string of one.
 */
export type References<Row> = { readonly [Field in keyof Row & string]?: Target | readonly [Target] };

/** The target of a reference field, whether it holds one id or a list. */
const targetOf = (reference: Target | readonly [Target]): Target => (typeof reference === 'string' ? reference : reference[0]);

/** The ids of a list field's `value`, with their index: an array's elements, or those of a JSON string of an array. */
function listed(value: unknown): [number, unknown][] {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      list = [value]; // not the older encoding: one id, which will not be found
    }
  }
  return (Array.isArray(list) ? list : [list]).map((id, index) => [index, id]);
}

/** Where the rows of one target are looked up: whether one exists, and where, in words, for the refusal. */
export interface Lookup {
  readonly has: (id: unknown) => boolean;
  /** Where it was looked for: `main.roles`, `world.cad.calls`. */
  readonly where: string;
}

/** Where each target a scope's rows may point at is looked up. */
export type Lookups = { readonly [Name in Target]?: Lookup };

/** What a refusal calls each target. */
const NOUNS: Readonly<Record<Target, string>> = {
  server: 'server',
  member: 'member',
  role: 'role',
  application: 'application',
  department: 'department',
  rank: 'rank',
  roster: 'department member',
  call: 'call',
  record: 'record',
  unit: 'unit',
};

/** The lookup of "the one row that owns these": true for `id` alone, described by `where`. */
export const onlyId = (id: unknown, where: string): Lookup => ({
  has: (candidate) => candidate === id,
  where: `${where} (whose id is ${JSON.stringify(id)})`,
});

/** The lookup of the rows of `rows` by `key`: a collection's `get`, or a list of rows. */
export const byKey = (get: (id: unknown) => unknown, where: string): Lookup => ({ has: (id) => get(id) !== undefined, where });

/**
 * The first reference of `fields` that points at no row: `roles[1]: no role "r1" in main.roles`.
 * Only the fields present in `fields` are checked (absent, `undefined` and `null` point nowhere
 * on purpose), and none of `dangling`. `path` is where `fields` sits.
 */
export function referenceProblem<Row>(
  fields: object,
  references: References<Row>,
  lookups: Lookups,
  dangling: ReadonlySet<string> = new Set(),
  path: readonly PropertyKey[] = [],
): RowProblem | undefined {
  for (const [field, reference] of Object.entries(references) as [string, Target | readonly [Target]][]) {
    const value = (fields as Record<string, unknown>)[field];
    const target = targetOf(reference);
    const lookup = lookups[target];
    if (value === undefined || value === null || dangling.has(field) || !lookup) continue;
    const ids: [PropertyKey[], unknown][] =
      typeof reference === 'string' ? [[[...path, field], value]] : listed(value).map(([index, id]) => [[...path, field, index], id]);
    for (const [at, id] of ids) {
      if (!lookup.has(id)) return { path: at, message: `no ${NOUNS[target]} ${JSON.stringify(id)} in ${lookup.where}` };
    }
  }
  return undefined;
}
