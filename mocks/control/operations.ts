/**
 * The control API (`/__mock/*`) as one table: a line per operation, named as `connectMock`'s
 * method is (`faults.add`), with its HTTP method and path, what its arguments are and where
 * they go (a path parameter, a body field, the whole body or query), what it answers, and the
 * in-process call it stands for (`run`). Everything else is derived from it: the checks of the
 * in-process `mock.*` calls, the HTTP plane (`plane.ts`), the OpenAPI document (`openapi.ts`)
 * and `connectMock`'s methods and types (`remote.ts`). Adding an operation is adding a line.
 *
 * The table is data and small closures: `community-server-sdk/mock/remote` bundles it, so it
 * imports no zod, no msw, no faker, nothing of the mock but types.
 * @module
 */
import type { ActivityEvent, ActivityFailure, ActivityOptions } from '../activity/types';
import type { RateLimitOptions } from '../auth';
import type { HealthState } from '../context';
import type { FaultRule } from '../faults';
import type { MockApi } from '../index';
import type { MockRequest } from '../journal';
import { internalsOf } from './internals';
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
} from './arguments';
import { ANY_OBJECT, arrayOf, BOOLEAN, integer, nullable, object, STRING, type Schema } from './schema';
import type { MockSessionOptions, NewMockSession, RemoteRequestsFilter, SessionRegistry } from './types';

/** What an operation acts on: a mock, and at the root of a server, its sessions. */
export interface ControlScope {
  readonly mock: MockApi;
  /** The server's sessions; absent in a session's own control API (the `rootOnly` operations answer 403 there). */
  readonly sessions?: SessionRegistry | undefined;
  /** The origin the request was sent to (`http://localhost:4010`), which a session's `baseUrl` starts with. */
  readonly origin: string;
}

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
  /** The in-process call: does what the operation stands for and returns the call's result. */
  run(scope: ControlScope, ...args: Args): Result | Promise<Result>;
}

/** What an operation takes and answers beyond its route, each part optional; `created`: a 201. */
type Io = Partial<Pick<ControlOperation, 'args' | 'params' | 'body' | 'query' | 'answer' | 'rootOnly'>> & { created?: true };

/** One line of the table: `route` is `METHOD /path`; `run`'s parameters and return type are the call's. */
function operation<Args extends unknown[], Result>(
  route: `${ControlOperation['method']} /__mock${string}`,
  summary: string,
  { created, ...io }: Io,
  run: (scope: ControlScope, ...args: Args) => Result | Promise<Result>,
): ControlOperation<Args, Result> {
  const [method, path] = route.split(' ') as [ControlOperation['method'], string];
  const fields = Object.keys(io.answer?.properties ?? {});
  const status = io.answer ? (created ? 201 : 200) : 204;
  return { method, path, summary, status, args: [], ...io, result: fields.length === 1 ? fields[0] : undefined, run };
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

const sameOrAbsent = <Value>(wanted: Value | undefined, value: Value) => wanted === undefined || wanted === value;

/** Every operation of the control API, by `connectMock`'s method name. */
export const controlApi = {
  reset: operation('POST /__mock/reset', 'Back to the seeded state, as mock.reset(); activity stops.', {}, ({ mock }) =>
    internalsOf(mock).resetInSlices(),
  ),
  requests: operation(
    'GET /__mock/requests',
    'The journal, oldest first, as mock.requests, narrowed by the query.',
    { args: ['filter?'], query: REQUESTS_FILTER, answer: JOURNAL },
    ({ mock }, { endpoint, status, token }: RemoteRequestsFilter = {}): MockRequest[] =>
      mock.requests.filter(
        (row) => sameOrAbsent(endpoint, row.endpoint) && sameOrAbsent(status, row.status) && sameOrAbsent(token, row.token),
      ),
  ),
  clearRequests: operation('DELETE /__mock/requests', 'Empties the journal alone.', {}, ({ mock }) => internalsOf(mock).clearRequests()),
  store: {
    create: operation(
      'POST /__mock/store/{table}',
      'Creates a row in the table at a dotted path, as table.create(partial).',
      { args: ['table', 'partial?'], params: { table: TABLE_PATH }, body: ANY_OBJECT, answer: ANY_OBJECT, created: true },
      ({ mock }, table: string, partial: Record<string, unknown> = {}): object => internalsOf(mock).createRow(table, partial),
    ),
  },
  activity: {
    step: operation(
      'POST /__mock/activity/step',
      'n seeded events now (default 1), as mock.activity.step(n).',
      { args: ['n?'], body: object({ n: STEP_COUNT }), answer: EVENTS },
      ({ mock }, n: number = 1): Promise<ActivityEvent[]> => internalsOf(mock).stepInSlices(n),
    ),
    start: operation(
      'POST /__mock/activity/start',
      'One seeded event every intervalMs, as mock.activity.start(options).',
      { args: ['options'], body: ACTIVITY_OPTIONS },
      ({ mock }, options: ActivityOptions) => mock.activity.start(options),
    ),
    stop: operation('POST /__mock/activity/stop', 'Stops the timed activity, as mock.activity.stop().', {}, ({ mock }) =>
      mock.activity.stop(),
    ),
    status: operation(
      'GET /__mock/activity',
      'Whether the timed activity runs, and why it stopped (mock.activity.running, .failure).',
      { answer: ACTIVITY_STATE },
      ({ mock }): { running: boolean; failure: ActivityFailure | null } => ({
        running: mock.activity.running,
        failure: mock.activity.failure,
      }),
    ),
  },
  faults: {
    add: operation(
      'POST /__mock/faults',
      'Adds a fault rule, as mock.faults.add(rule).',
      { args: ['rule'], body: FAULT_RULE, answer: answer({ id: STRING }), created: true },
      ({ mock }, rule: FaultRule) => mock.faults.add(rule),
    ),
    clear: operation('DELETE /__mock/faults', 'Removes every fault rule, as mock.faults.clear().', {}, ({ mock }) => mock.faults.clear()),
  },
  clock: {
    advance: operation(
      'POST /__mock/clock/advance',
      'Moves the mock’s clock forward, as mock.clock.advance(ms).',
      { args: ['ms'], body: object({ ms: ADVANCE_MS }, ['ms']), answer: answer({ now: TIME }) },
      ({ mock }, ms: number) => mock.clock.advance(ms),
    ),
  },
  setHealth: operation(
    'PUT /__mock/health',
    'Turns dependencies off and on, as mock.setHealth(health).',
    { args: ['health'], body: HEALTH },
    ({ mock }, health: Partial<HealthState>) => mock.setHealth(health),
  ),
  setRateLimit: operation(
    'PUT /__mock/rate-limit',
    'Changes the rate limit, as mock.setRateLimit(rateLimit); null: none.',
    { args: ['rateLimit'], body: RATE_LIMIT_OR_NONE },
    ({ mock }, rateLimit: RateLimitOptions | null) => mock.setRateLimit(rateLimit),
  ),
  sessions: {
    create: operation(
      'POST /__mock/sessions',
      'Opens a session: a whole mock of its own under its baseUrl, on this port.',
      { args: ['options?'], body: SESSION_OPTIONS, answer: NEW_SESSION, created: true, rootOnly: true },
      ({ sessions, origin }, options: MockSessionOptions = {}): Promise<NewMockSession> => sessions!.create(options, origin),
    ),
    list: operation(
      'GET /__mock/sessions',
      'The open sessions, oldest first.',
      { answer: SESSIONS, rootOnly: true },
      ({ sessions, origin }) => sessions!.list(origin),
    ),
    close: operation(
      'DELETE /__mock/sessions/{id}',
      'Closes a session.',
      { args: ['id'], params: { id: SESSION_ID }, rootOnly: true },
      ({ sessions }, id: string) => sessions!.close(id),
    ),
  },
};

/** The table's shape, nested by method name. */
export type ControlApi = typeof controlApi;

/** A table of operations, possibly nested (`activity.step`). */
interface OperationTable {
  readonly [name: string]: ControlOperation<never[]> | OperationTable;
}

const isOperation = (entry: object): entry is ControlOperation => typeof (entry as ControlOperation).run === 'function';

/** Every operation with its dotted name, in the table's order: the one walk of the table every side shares. */
export function operationsOf(table: object = controlApi, prefix = ''): { name: string; operation: ControlOperation }[] {
  return Object.entries(table as OperationTable).flatMap(([key, entry]) =>
    isOperation(entry) ? [{ name: prefix + key, operation: entry }] : operationsOf(entry, `${prefix}${key}.`),
  );
}
