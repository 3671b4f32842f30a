/**
 * The HTTP plumbing of the control API, written once for every operation of the table
 * (`contract/operations.ts`): the admin token, routing by the mock's one router (404, 405 with
 * `Allow`, HEAD beside GET), the path parameters, query and JSON body checked in full before
 * anything runs, the operation's run (`engine/operations.ts`, and the server's sessions'), and
 * every outcome rendered in the spec's error shape. What reaches here never reaches the mock's
 * request pipeline, so control requests are neither journaled nor rate limited.
 * @module
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { InvalidArgumentError } from '../../../src/core/errors';
import { redact } from '../../../src/core/redact';
import { argumentsOf } from '../../contract/calls';
import { controlApi, entryAt, operationsOf, type ControlApi, type ControlOperation } from '../../contract/operations';
import type { Problem } from '../../contract/schema';
import type { Authorization } from '../../engine/auth';
import type { MockEngine } from '../../engine/engine';
import { inSlices, type EngineApi, type Runs } from '../../engine/operations';
import { errorAnswer, internalError, invalidBody, json, MockHttpError, type MockAnswer } from '../../engine/replies';
import { createRouter } from '../../engine/routing';
import { controlApiDocument, describeApi } from './openapi';

/** Where the control API lives, from the origin (a session's: from its base URL): this path and everything under it. */
export const CONTROL_PREFIX = '/__mock';

/** One request to the control API, as the HTTP server read it. */
export interface ControlRequest {
  readonly method: string;
  /** The path from the mock's base: the origin's, or a session's base URL. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The `Authorization` header, read once by the server. */
  readonly authorization: Authorization;
  readonly body: Uint8Array | undefined;
  /** The origin the request was sent to, as its `Host` names it. */
  readonly origin: string;
}

/** Whether `path` is the control API's rather than the mock's. */
export const isControlPath = (path: string) => path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);

/** Shorter than any real token: an admin token a person can guess protects nothing. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

/** A fresh admin token from the platform's secure random source (never the mock's seeded stream). */
export const newAdminToken = () => `mock_admin_${randomBytes(24).toString('base64url')}`;

/** Why `token` cannot be an admin token, or `undefined` when it can; the message never repeats it. */
export function adminTokenProblem(token: unknown, apiTokens: readonly string[]): string | undefined {
  if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token)) return 'the admin token must be a string of visible ASCII characters';
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) return `the admin token must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters long`;
  if (apiTokens.includes(token)) return 'the admin token must not be one of the mock’s API tokens';
  return undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

const unauthorized = (code: string, message: string) =>
  new MockHttpError(401, code, message, undefined, { 'www-authenticate': 'Bearer realm="community-server-mock control"' });

/** A control route: the operation's name (`faults.add`; `openapi` for the document) and line. */
interface Line {
  readonly name: string;
  readonly operation: ControlOperation;
  /** The names of the path's parameters, in path order. */
  readonly params: readonly string[];
}

/** Every route, compiled once for every mock and session by the mock's one router. */
const route = createRouter(
  [...operationsOf(controlApi), { name: 'openapi', operation: describeApi as ControlOperation }].map(({ name, operation }) => ({
    method: operation.method,
    path: operation.path,
    value: { name, operation, params: [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!) } satisfies Line,
  })),
  {
    notFound: (path) => `no route of the control API has the path ${path}`,
    listMethods: (methods) => methods.join(' or '),
    trailingSlash: false,
  },
);

/** What the operations of one control plane do: the engine's, and at a server's root its sessions' (absent in a session's own). */
export type ControlRuns = Runs<EngineApi> & { readonly sessions?: Runs<ControlApi['sessions']> | undefined };

/** A parameter's value as sent: percent-decoded, or a 400 when its escapes do not decode. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new MockHttpError(400, 'invalid_path', 'the path has a malformed percent-encoding');
  }
}

/** The JSON of a body; an empty one reads as `{}`, so an operation whose fields are all optional needs none. */
function parseJson(body: Uint8Array | undefined): unknown {
  const text = body ? new TextDecoder().decode(body) : '';
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw refused([{ path: '', message: 'the request body must be JSON' }]);
  }
}

/** A 400 naming each problem: the message says them all, `details.issues` lists them. */
const refused = (problems: readonly Problem[]) => invalidBody(problems.map((problem) => problem.message).join('; '), { issues: problems });

/** Characters of a body's path a message shows: a 1 MiB body can nest a value 500 000 levels deep. */
const SHOWN_PATH_CHARS = 80;

/**
 * Where `body` holds `secret` inside a string, key or value (`secret`, `main.name`…), or
 * `undefined`. The admin token must never reach the mock's data: as a token row's secret it
 * would open the API, and in any other row the API would serve it to every API token. Walked
 * without recursion, so no nesting a 1 MiB body can hold overflows the stack.
 */
function pathHolding(body: unknown, secret: string): string | undefined {
  interface Node {
    readonly value: unknown;
    readonly key: string;
    readonly parent: Node | undefined;
  }
  const pathOf = (node: Node): string => {
    const keys: string[] = [];
    for (let at: Node | undefined = node; at?.parent; at = at.parent) keys.push(at.key);
    // A key may be the secret itself: it is replaced before the path is cut, so no cut leaves a head of it.
    const path = redact(keys.reverse().join('.'), secret);
    return path.length > SHOWN_PATH_CHARS ? `${path.slice(0, SHOWN_PATH_CHARS)}…` : path;
  };
  const pending: Node[] = [{ value: body, key: '', parent: undefined }];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.key.includes(secret) || (typeof node.value === 'string' && node.value.includes(secret))) return pathOf(node);
    if (typeof node.value === 'object' && node.value !== null) {
      for (const [key, value] of Object.entries(node.value)) pending.push({ value, key, parent: node });
    }
  }
  return undefined;
}

/** What went wrong inside a run, as an answer: a refused row is the caller's doing (400), the rest a bug of the mock. */
function failure(error: unknown): MockHttpError {
  if (error instanceof MockHttpError) return error;
  // By name: the store's class may come from the other build (CommonJS bundles entries apart).
  if (error instanceof Error && error.name === 'InvalidRowError') return new MockHttpError(400, 'invalid_row', error.message);
  // The mock's own checks beyond the schemas (an endpoint no request has, the clock's end): they act before changing anything.
  if (error instanceof InvalidArgumentError) return invalidBody(error.message);
  return internalError(error);
}

/** The control API of one mock, as the HTTP server uses it. */
export interface ControlPlane {
  /** The answer to a request of `/__mock/*`: JSON in the spec's object shape (or a 204), never a throw. */
  answer(request: ControlRequest): Promise<MockAnswer>;
  /** Whether an `Authorization` header presents the admin token, read as the API reads a token. */
  presentsAdminToken(authorization: Authorization): boolean;
}

/**
 * The control API of `engine`, opened by `adminToken` alone; `runsAt(origin)` says what its
 * operations do for a request sent to `origin` (a session's `baseUrl` starts with it).
 */
export function createControlPlane(engine: MockEngine, adminToken: string, runsAt: (origin: string) => ControlRuns): ControlPlane {
  // Compared in time independent of where the strings differ: both hashed to the same length first.
  const adminDigest = digest(adminToken);

  const presentsAdminToken = ({ secret }: Authorization): boolean => secret !== undefined && timingSafeEqual(digest(secret), adminDigest);

  function authorize(authorization: Authorization): void {
    const { header } = authorization;
    if (header === null || header.trim() === '') {
      throw unauthorized(
        'admin_token_required',
        'the control API needs Authorization: Bearer <admin token> (printed by the bin as "admin")',
      );
    }
    if (!presentsAdminToken(authorization)) {
      throw unauthorized(
        'invalid_admin_token',
        'that is not the admin token of this mock: API tokens never open the control API, and a session’s admin token opens only its own, under its baseUrl',
      );
    }
  }

  async function answer(request: ControlRequest): Promise<MockAnswer> {
    authorize(request.authorization);
    const found = route(request.method, request.path);
    if ('refusal' in found) throw found.refusal;
    const { name, operation } = found.value;
    // None for the sessions' operations in a session's own control API.
    const run = (name === 'openapi' ? controlApiDocument : entryAt(runsAt(request.origin), name)) as
      ((...args: unknown[]) => unknown) | undefined;
    if (!run) {
      throw new MockHttpError(
        403,
        'root_admin_token_required',
        'sessions are opened, listed and closed with the server’s root admin token, at its own /__mock/sessions; a session’s admin token drives only its session',
      );
    }
    // Everything is read and checked before the run, so a bad request changes nothing.
    const params = Object.fromEntries(found.value.params.map((param, index) => [param, decoded(found.params[index]!)]));
    const body = operation.body ? parseJson(request.body) : undefined;
    const read = argumentsOf(operation, { params, query: request.query, body });
    if ('problems' in read) throw refused(read.problems);
    // Any server's of this mock: its data is served to every API token, whichever server wrote it.
    const holding = [...engine.reservedSecrets].map((secret) => pathHolding(body, secret)).find((path) => path !== undefined);
    if (holding !== undefined) {
      const message = `${holding || 'the request body'} must not hold the admin token: it is never an API token, nor data the API serves`;
      throw refused([{ path: holding, message }]);
    }
    const result = await inSlices(run(...read.args));
    if (operation.status === 204) return { status: 204, headers: {}, body: null };
    return json(operation.status, operation.result === undefined ? result : { [operation.result]: result });
  }

  return {
    async answer(request) {
      try {
        return await answer(request);
      } catch (error) {
        return errorAnswer(failure(error), 'object');
      }
    },
    presentsAdminToken,
  };
}
