/**
 * A call of the control API and its HTTP request, both ways, read from the operation's line:
 * `connectMock` turns the arguments of `faults.add(rule)` into `POST /__mock/faults` with the rule
 * as its body ({@link requestOf}); the HTTP plane turns that request back into the arguments of
 * the same call ({@link argumentsOf}). Each argument goes where its name says: a `{name}` of the
 * path, a field of the body, or the whole body (or query).
 * @module
 */
import type { ControlOperation } from './operations';
import { problemsOf, refuseProblems, STRING, type Problem, type Schema } from './schema';

/** How a query says `null` (`requests({ token: null })`: `?token=none`); the OpenAPI document lists it so. */
export const QUERY_NULL = 'none';

/** Where one argument of a call goes in its request, and what it must be. */
interface Slot {
  readonly name: string;
  /** May be left out (`'n?'` in the table). */
  readonly optional: boolean;
  readonly at: 'param' | 'field' | 'body' | 'query';
  readonly schema: Schema;
}

function slotOf(operation: ControlOperation, arg: string): Slot {
  const optional = arg.endsWith('?');
  const name = optional ? arg.slice(0, -1) : arg;
  if (operation.path.includes(`{${name}}`)) return { name, optional, at: 'param', schema: operation.params?.[name] ?? STRING };
  const field = operation.body?.properties?.[name];
  if (field) return { name, optional, at: 'field', schema: field };
  return operation.body
    ? { name, optional, at: 'body', schema: operation.body }
    : { name, optional, at: 'query', schema: operation.query! };
}

const slotsOf = (operation: ControlOperation) => operation.args.map((arg) => slotOf(operation, arg));

/** How a message names a call: `faults.add(rule)`. */
export const callName = (name: string, operation: ControlOperation) =>
  `${name}(${operation.args.map((arg) => arg.replace('?', '')).join(', ')})`;

/** The problems of a call's arguments, each named by its argument (`rule.status`); none when they fit. */
function argumentProblems(operation: ControlOperation, args: readonly unknown[]): Problem[] {
  return slotsOf(operation).flatMap((slot, index) =>
    args[index] === undefined && slot.optional ? [] : problemsOf(slot.schema, args[index], slot.name),
  );
}

/**
 * Throws `InvalidArgumentError` unless `args` fit the call `name` stands for, saying every
 * problem after the call (`faults.add(rule): rule.status must be …`): the one check of a call's
 * arguments, in-process (`mock.faults.add`) and before `connectMock` sends anything.
 */
export function checkCall(name: string, operation: ControlOperation, args: readonly unknown[]): void {
  refuseProblems(argumentProblems(operation, args), callName(name, operation));
}

/** The request of a call: its path (parameters encoded, with the query) and its body (`undefined`: none). */
export function requestOf(operation: ControlOperation, args: readonly unknown[]): { path: string; body: unknown } {
  let path = operation.path;
  const query = new URLSearchParams();
  let body: Record<string, unknown> | undefined;
  for (const [index, slot] of slotsOf(operation).entries()) {
    const value = args[index];
    if (value === undefined) continue;
    if (slot.at === 'param') path = path.replace(`{${slot.name}}`, encodeURIComponent(value as string));
    else if (slot.at === 'field') body = { ...body, [slot.name]: value };
    else if (slot.at === 'body') body = value as Record<string, unknown>;
    else {
      for (const [key, item] of Object.entries(value as object)) {
        if (item !== undefined) query.set(key, item === null ? QUERY_NULL : String(item));
      }
    }
  }
  const search = query.toString();
  return { path: search ? `${path}?${search}` : path, body };
}

/** A query's string as the value it stands for in `schema`: an integer, `null`, or the string itself. */
function queryValue(schema: Schema | undefined, text: string): unknown {
  const candidates = [...(/^(0|-?[1-9]\d*)$/.test(text) ? [Number(text)] : []), ...(text === QUERY_NULL ? [null] : [])];
  const fitting = candidates.filter((candidate) => schema && problemsOf(schema, candidate).length === 0);
  return fitting.length ? fitting[0] : text;
}

/** What the HTTP plane read of a request: path parameters (decoded), query, and JSON body (`{}` when empty). */
export interface ReadRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
}

/**
 * The arguments of the call a request stands for, or the problems of its parameters, query and
 * body, named as HTTP names them (`table`, `status`, `the request body`, `n`).
 */
export function argumentsOf(operation: ControlOperation, request: ReadRequest): { args: unknown[] } | { problems: Problem[] } {
  const query: Record<string, unknown> = {};
  for (const [key, text] of request.query) query[key] = queryValue(operation.query?.properties?.[key], text);
  const problems = [
    ...Object.entries(operation.params ?? {}).flatMap(([name, schema]) => problemsOf(schema, request.params[name], name)),
    ...(operation.query ? problemsOf(operation.query, query) : []),
    ...(operation.body ? problemsOf(operation.body, request.body) : []),
  ];
  if (problems.length) return { problems };
  const body = request.body as Record<string, unknown>;
  const args = slotsOf(operation).map((slot) =>
    slot.at === 'param' ? request.params[slot.name] : slot.at === 'field' ? body[slot.name] : slot.at === 'body' ? body : query,
  );
  return { args };
}
