/**
 * The control API (`/__mock/*`) as one table: a line per operation, named as `connectMock`'s
 * method is (`faults.add`), with its HTTP method and path, its arguments by name and where they
 * go (a path parameter, a body field, the whole body or query) with their schemas, what it
 * answers, and the TypeScript signature of the call it stands for, which the compiler holds
 * against those schemas. Everything else is derived from it: the checks and types of the
 * in-process `mock.*` calls (`in-process.ts`), the HTTP plane (`doors/control/`), the OpenAPI
 * document, and `connectMock`'s methods, checks and types (`remote.ts`). What each operation does
 * is the engine's (`engine/operations.ts`) and, for sessions, the server's (`doors/sessions/`).
 * Adding an operation is a line here, its implementation there, its tests and its docs.
 *
 * The table is data: `community-server-sdk/mock/remote` bundles it, so it imports no zod, no
 * msw, no faker, nothing of the mock but types.
 * @module
 */
import type { ActivityEvent, ActivityFailure } from './activity';
import {
  ACTIVITY_OPTIONS,
  ADVANCE_MS,
  FAULT_RULE,
  HEALTH,
  RATE_LIMIT_OR_NONE,
  REQUESTS_FILTER,
  SESSION_OPTIONS,
  STEP_COUNT,
  TOKEN_ROLES,
  type ActivityOptions,
  type FaultRule,
  type HealthState,
  type RateLimitOptions,
  type RemoteRequestsFilter,
} from './arguments';
import type { MockRequest } from './journal';
import { ANY_OBJECT, arrayOf, BOOLEAN, integer, nullable, object, STRING, type Schema } from './schema';
import type { MockSessionInfo, MockSessionOptions, NewMockSession } from './sessions';

declare const signature: unique symbol;

/** One operation of the control API. `Args` and `Result` type the call it stands for, in-process and remote alike. */
export interface ControlOperation<Args extends unknown[] = never[], Result = unknown> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** From the origin (a session's: from its base URL), with `{name}` parameters: `/__mock/store/{table}`. */
  readonly path: string;
  /** One sentence for the OpenAPI document. */
  readonly summary: string;
  /** The status of success: 204 answers no body; 201 created something; 200 answers what was asked. */
  readonly status: 200 | 201 | 204;
  /**
   * The call's arguments by name, in order (`'n?'`: may be left out). Each goes where its name
   * says: a `{name}` of the path, a field of the body, or else the whole body (or query).
   */
  readonly args: readonly string[];
  /** What each path parameter must be. */
  readonly params?: Readonly<Record<string, Schema>> | undefined;
  /** What the JSON body must be; an empty body reads as `{}`. Absent: the operation reads none. */
  readonly body?: Schema | undefined;
  /** What the query must be (integers and `null`, written `none`, are read from its strings). */
  readonly query?: Schema | undefined;
  /** What a 200/201 answers. */
  readonly answer?: Schema | undefined;
  /** The field of the answer the call returns: the only one of an answer of one field (`data`, `id`, `now`); else none, the whole answer. */
  readonly result?: string | undefined;
  /** Only the root's admin token may call it: a session's control API answers 403. */
  readonly rootOnly?: boolean | undefined;
  /** Types only, never set: the call the operation stands for. */
  readonly [signature]?: (...args: Args) => Result;
}

/** What an operation takes and answers beyond its route, each part optional; `created`: a 201. */
type Io = Partial<Pick<ControlOperation, 'args' | 'params' | 'body' | 'query' | 'answer' | 'rootOnly'>> & { created?: true };
type Route = `${ControlOperation['method']} /__mock${string}`;

/** The type the request carries the argument `Name` as: a `{Name}` of the path, a field of the body, the whole body, or the query. */
type Wire<R extends Route, Given extends Io, Name extends string> = R extends `${string}{${Name}}${string}`
  ? string
  : Given extends { body: Schema<infer Body> }
    ? Name extends keyof Body
      ? Body[Name]
      : Body
    : Given extends { query: Schema<infer Query> }
      ? Query
      : never;

/** Whether each argument `Args` declares fits what its name carries on the wire (`'n?'`: `undefined` aside). */
type ArgumentsFit<R extends Route, Given extends Io, Args extends unknown[]> = Given extends { args: infer Names extends readonly string[] }
  ? Required<Args>['length'] extends Names['length']
    ? {
        [Index in keyof Names]: Index extends keyof Args
          ? Names[Index] extends `${infer Name}?`
            ? [Exclude<Args[Index], undefined>] extends [Wire<R, Given, Name>]
              ? true
              : false
            : [Args[Index]] extends [Wire<R, Given, Names[Index] & string>]
              ? true
              : false
          : false;
      }[number]
    : false
  : Args extends []
    ? true
    : false;

/** The call an operation stands for, in its type alone: its arguments, by name and type, and its result. */
type Call<Args extends unknown[], Result> = Pick<ControlOperation<Args, Result>, typeof signature>;

/** A line's call: `call<[rule: FaultRule], string>()`. */
const call = <Args extends unknown[], Result>(): Call<Args, Result> => ({});

/**
 * One line of the table: `route` is `METHOD /path`; `signature` the call's (`call<Args, Result>()`),
 * each of its arguments held against the schema its name points at (a mismatch asks for a fifth
 * argument that says so, and does not compile).
 */
function operation<const R extends Route, const Given extends Io, Args extends unknown[], Result>(
  route: R,
  summary: string,
  { created, ...io }: Given,
  _signature: Call<Args, Result>,
  ..._fits: ArgumentsFit<R, Given, Args> extends true ? [] : [mismatch: 'an argument does not fit the schema its name points at']
): ControlOperation<Args, Result> {
  const [method, path] = route.split(' ') as [ControlOperation['method'], string];
  const fields = Object.keys(io.answer?.properties ?? {});
  const status = io.answer ? (created ? 201 : 200) : 204;
  return { method, path, summary, status, args: [], ...io, result: fields.length === 1 ? fields[0] : undefined };
}

/** An answer's object: these fields at least (a newer mock may add some). */
const answer = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties, required: Object.keys(properties) });
const data = (item: Schema) => answer({ data: arrayOf(item) });
const TIME = integer(0);
const MS_SINCE_EPOCH: Schema = { type: 'number' };

const JOURNAL = data(
  answer({
    method: STRING,
    path: STRING,
    query: ANY_OBJECT,
    endpoint: nullable(STRING),
    token: { enum: TOKEN_ROLES },
    body: {},
    status: TIME,
    at: MS_SINCE_EPOCH,
  }),
);
const EVENTS = data(answer({ kind: STRING, row: ANY_OBJECT }));
const ACTIVITY_STATE = answer({ running: BOOLEAN, failure: nullable(answer({ name: STRING, message: STRING, at: MS_SINCE_EPOCH })) });
const TOKENS = answer({ main: STRING, noCad: STRING, readOnly: STRING, expired: STRING, revoked: STRING });
const NEW_SESSION = answer({ id: STRING, baseUrl: STRING, adminToken: STRING, tokens: TOKENS });
const SESSIONS = data(answer({ id: STRING, baseUrl: STRING, createdAt: TIME, lastUsedAt: TIME }));
const TABLE_PATH: Schema = {
  type: 'string',
  pattern: '^[\\w-]+(\\.[\\w-]+)*$',
  description: 'a dotted path like main.logs or main.cad.calls',
};
/** A session id, as the server makes them. */
const SESSION_ID: Schema = { type: 'string', pattern: '^[\\w-]{1,64}$', description: 'a session id' };

/** Every operation of the control API, by `connectMock`'s method name. */
export const controlApi = {
  /**
   * Back to the seeded state: data, tokens, counters, health, the journal, faults, the clock's
   * advance and the rate limit of the options; stops the activity and restarts its stream.
   * `mock.reset()` does it at once; over HTTP (`remote.reset()`) a big world is copied in slices,
   * and the server answers other requests meanwhile.
   * @example
   * afterEach(() => mock.reset()); // each test starts from the same world
   * beforeEach(() => remote.reset()); // the same, on a mock another process serves
   */
  reset: operation('POST /__mock/reset', 'Back to the seeded state, as mock.reset(); activity stops.', {}, call<[], void>()),
  /**
   * The journal (`mock.requests`), oldest first, narrowed by `filter`.
   * @example
   * expect(await remote.requests({ token: 'readOnly' })).toHaveLength(3);
   */
  requests: operation(
    'GET /__mock/requests',
    'The journal, oldest first, as mock.requests, narrowed by the query.',
    { args: ['filter?'], query: REQUESTS_FILTER, answer: JOURNAL },
    call<[filter?: RemoteRequestsFilter], MockRequest[]>(),
  ),
  /**
   * Empties the journal alone.
   * @example
   * await remote.clearRequests();
   */
  clearRequests: operation('DELETE /__mock/requests', 'Empties the journal alone.', {}, call<[], void>()),
  store: {
    /** Creates a row in the table at a dotted path (`main.logs`), as `table.create(partial)`: `remote.store(table).create(partial)`. */
    create: operation(
      'POST /__mock/store/{table}',
      'Creates a row in the table at a dotted path, as table.create(partial).',
      { args: ['table', 'partial?'], params: { table: TABLE_PATH }, body: ANY_OBJECT, answer: ANY_OBJECT, created: true },
      call<[table: string, partial?: Record<string, unknown>], object>(),
    ),
  },
  activity: {
    /**
     * Adds the next `n` events of the stream (an integer from 0 to 10000; default 1) and returns
     * them, oldest first, each `{ kind, row, … }`. Fewer only when the world allows nothing at all
     * (never in practice: a member can always join). `step(2)` then `step(3)` makes the same
     * events as `step(5)`.
     * @example
     * const [event] = mock.activity.step(); // e.g. { kind: 'members', row: { id, … } }
     * const events = await remote.activity.step(10);
     */
    step: operation(
      'POST /__mock/activity/step',
      'n seeded events now (default 1), as mock.activity.step(n).',
      { args: ['n?'], body: object({ n: STEP_COUNT }), answer: EVENTS },
      call<[n?: number], ActivityEvent[]>(),
    ),
    /**
     * Makes one event every `intervalMs` until `stop()` or a reset; starting again changes the
     * pace. The timer never keeps a process alive.
     * @example
     * mock.activity.start({ intervalMs: 500 }); // a live server for a dashboard or a watch() demo
     * await remote.activity.start({ intervalMs: 500 });
     */
    start: operation(
      'POST /__mock/activity/start',
      'One seeded event every intervalMs, as mock.activity.start(options).',
      { args: ['options'], body: ACTIVITY_OPTIONS },
      call<[options: ActivityOptions], void>(),
    ),
    /**
     * Stops the timer; nothing is left scheduled. Stopping when stopped does nothing.
     * @example
     * afterEach(() => mock.activity.stop());
     * await remote.activity.stop();
     */
    stop: operation('POST /__mock/activity/stop', 'Stops the timed activity, as mock.activity.stop().', {}, call<[], void>()),
    /**
     * Whether the timed activity runs, and why it stopped if an event could not be made
     * (`failure`: `{ name, message, at }`, or `null`), as `mock.activity.running` and `.failure`.
     * @example
     * const { running, failure } = await remote.activity.status();
     */
    status: operation(
      'GET /__mock/activity',
      'Whether the timed activity runs, and why it stopped (mock.activity.running, .failure).',
      { answer: ACTIVITY_STATE },
      call<[], { running: boolean; failure: ActivityFailure | null }>(),
    ),
  },
  faults: {
    /**
     * Adds `rule` and returns its id. A bad rule (unknown endpoint or field, a status outside
     * 400–599, `status` with `network`, nothing to do) throws `InvalidArgumentError` naming the
     * field, and adds nothing.
     * @example
     * const id = mock.faults.add({ endpoint: 'tokens.create', status: 500 });
     * await remote.faults.add({ endpoint: 'members.list', status: 503, times: 1 });
     */
    add: operation(
      'POST /__mock/faults',
      'Adds a fault rule, as mock.faults.add(rule).',
      {
        args: ['rule'],
        body: FAULT_RULE,
        answer: answer({ id: STRING }),
        created: true,
      },
      call<[rule: FaultRule], string>(),
    ),
    /**
     * Removes every rule.
     * @example
     * afterEach(() => mock.faults.clear());
     * await remote.faults.clear();
     */
    clear: operation('DELETE /__mock/faults', 'Removes every fault rule, as mock.faults.clear().', {}, call<[], void>()),
  },
  clock: {
    /**
     * Moves the clock forward by `ms` (an integer ≥ 0, as far as the year 5037: a year short of
     * the clock's end, 5038, which is short of the latest time a row holds, the year 5138, by the
     * longest time the mock writes past now, a token's hundred-year lifetime) and returns the new
     * now; anything else throws
     * `InvalidArgumentError` and moves nothing. The clock never goes back but by `reset()`.
     * @example
     * mock.clock.advance(25 * 3_600_000); // a day and an hour later: a one-day token has expired
     * await expect(client.members.list()).rejects.toBeInstanceOf(AuthenticationError);
     * const now = await remote.clock.advance(3_600_000);
     */
    advance: operation(
      'POST /__mock/clock/advance',
      'Moves the mock’s clock forward, as mock.clock.advance(ms).',
      {
        args: ['ms'],
        body: object({ ms: ADVANCE_MS }, ['ms']),
        answer: answer({ now: TIME }),
      },
      call<[ms: number], number>(),
    ),
  },
  /**
   * Turns dependencies off and on: `false` makes `/health` and `/readyz` answer 503. An unknown
   * switch or a value that is not a boolean throws `InvalidArgumentError` and changes nothing.
   * @example
   * mock.setHealth({ database: false });
   * await expect(client.health.check()).rejects.toBeInstanceOf(ServiceUnavailableError);
   * await remote.setHealth({ database: false }); // the same, over HTTP
   */
  setHealth: operation(
    'PUT /__mock/health',
    'Turns dependencies off and on, as mock.setHealth(health).',
    { args: ['health'], body: HEALTH },
    call<[health: Partial<HealthState>], void>(),
  ),
  /**
   * Changes the rate limit while the mock runs: `{ limit, windowMs }` (both integers ≥ 1, as the
   * `rateLimit` option), or `null` to turn it off. Every token starts a fresh window.
   * A reset returns to the `rateLimit` option. A bad value throws `InvalidArgumentError` and
   * changes nothing.
   * @example
   * mock.setRateLimit({ limit: 2, windowMs: 1_000 }); // from now on, 2 requests per second per token
   * mock.setRateLimit(null);                           // unlimited again
   * await remote.setRateLimit({ limit: 2, windowMs: 1_000 });
   */
  setRateLimit: operation(
    'PUT /__mock/rate-limit',
    'Changes the rate limit, as mock.setRateLimit(rateLimit); null: none.',
    { args: ['rateLimit'], body: RATE_LIMIT_OR_NONE },
    call<[rateLimit: RateLimitOptions | null], void>(),
  ),
  sessions: {
    /** Opens a session: `remote.sessions.create(options)`. */
    create: operation(
      'POST /__mock/sessions',
      'Opens a session: a whole mock of its own under its baseUrl, on this port.',
      { args: ['options?'], body: SESSION_OPTIONS, answer: NEW_SESSION, created: true, rootOnly: true },
      call<[options?: MockSessionOptions], NewMockSession>(),
    ),
    /** The open sessions, oldest first: `remote.sessions.list()`. */
    list: operation(
      'GET /__mock/sessions',
      'The open sessions, oldest first.',
      {
        answer: SESSIONS,
        rootOnly: true,
      },
      call<[], MockSessionInfo[]>(),
    ),
    /** Closes a session: `session.close()`. */
    close: operation(
      'DELETE /__mock/sessions/{id}',
      'Closes a session.',
      {
        args: ['id'],
        params: { id: SESSION_ID },
        rootOnly: true,
      },
      call<[id: string], void>(),
    ),
  },
};

/** The table's shape, nested by method name. */
export type ControlApi = typeof controlApi;

/** A table of operations, possibly nested (`activity.step`). */
interface OperationTable {
  readonly [name: string]: ControlOperation<never[]> | OperationTable;
}

const isOperation = (entry: object): entry is ControlOperation => typeof (entry as ControlOperation).path === 'string';

/** Every operation with its dotted name, in the table's order: the one walk of the table every side shares. */
export function operationsOf(table: object = controlApi, prefix = ''): { name: string; operation: ControlOperation }[] {
  return Object.entries(table as OperationTable).flatMap(([key, entry]) =>
    isOperation(entry) ? [{ name: prefix + key, operation: entry }] : operationsOf(entry, `${prefix}${key}.`),
  );
}

/** What a table of the control API's shape (or the client's) holds at a dotted name (`faults.add`); `undefined` for none. */
export const entryAt = (table: object, name: string): unknown =>
  name.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], table);

/**
 * An object of the table's shape whose every operation is what `make` makes of it (`make`'s
 * `undefined`: left out): how `connectMock`'s methods and the in-process calls are derived.
 */
export function deriveCalls(make: (name: string, operation: ControlOperation) => unknown): Record<string, unknown> {
  const calls: Record<string, unknown> = {};
  for (const { name, operation } of operationsOf()) {
    const call = make(name, operation);
    if (call === undefined) continue;
    const keys = name.split('.');
    const parent = keys.slice(0, -1).reduce((node, key) => (node[key] ??= {}) as Record<string, unknown>, calls);
    parent[keys.at(-1)!] = call;
  }
  return calls;
}
