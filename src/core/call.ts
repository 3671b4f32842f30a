/**
 * The one "call an endpoint" path every method and `/core` function goes through: arguments →
 * request description → coalescing and the cache → transport → body → schema → result (or typed
 * error). No step reaches back. Lists add their pages and watch on top (`list.ts`).
 * @module
 */
import type * as z from 'zod/mini';
import { APIPromise, type WithResponse } from './api-promise';
import { buildPath, checkRequestOptions, listQuery } from './arguments';
import type { Caller } from './coalesce';
import type { Engine } from './core';
import type { Endpoint } from './endpoint';
import { InvalidArgumentError, ResponseValidationError, type RequestTarget } from './error-classes';
import { describeIssue, OWN_WORDS } from './issues';
import type { OutgoingRequest, Received } from './request';
import { callSignal, send } from './transport';
import type { RequestOptions } from './types';
import { redactOwnText } from './redact-text';

const MAX_ISSUES_IN_MESSAGE = 3;

/** A method's arguments by role: path ids first, then the body or list params, then options. */
export interface Arguments {
  pathArgs: readonly unknown[];
  body: unknown;
  listParams: unknown;
  options: unknown;
  extra: readonly unknown[];
}

export function splitArgs(endpoint: Endpoint, args: readonly unknown[]): Arguments {
  const paramCount = endpoint.params.length;
  // Read by position, not shifted off a copy: every call runs this.
  let next = paramCount;
  const body = endpoint.body ? args[next++] : undefined;
  const listParams = endpoint.kind === 'page' ? args[next++] : undefined;
  const options = args[next++];
  return { pathArgs: args.slice(0, paramCount), body, listParams, options, extra: args.slice(next) };
}

/** A call's request, the caller's options (checked), and what releases its deadline's timer once it settles. */
export interface Described {
  request: OutgoingRequest;
  options: RequestOptions;
  release: (() => void) | undefined;
}

/**
 * `request`, a new object of its caller's (a call's, a list's other page, a watch's poll), as a
 * call of its own: the signal of its `options` and its deadline, set in place (a call runs this
 * once; a copy of the request here cost every call one).
 */
export function launch(engine: Engine, request: OutgoingRequest): Described {
  const { options } = request;
  const { signal, release } = callSignal(request, options.signal, options.deadline ?? engine.settings.deadline);
  if (signal !== options.signal) request.options = { ...options, signal };
  return { request, options, release };
}

/**
 * The request the arguments describe, every one of them checked (`InvalidArgumentError`, the
 * token redacted from what it quotes, before anything is sent).
 */
export function describeRequest(engine: Engine, endpoint: Endpoint, args: Arguments): Described {
  try {
    if (args.extra.length > 0) throw new InvalidArgumentError(`too many arguments for ${endpoint.method} ${endpoint.path}`);
    if (endpoint.auth && engine.shared.token === undefined) {
      throw new InvalidArgumentError('no API token: pass { token } to the client or set COMMUNITY_SERVER_TOKEN');
    }
    const path = buildPath(endpoint.parts, args.pathArgs);
    const query = listQuery(args.listParams);
    const body = endpoint.body ? checkBody(endpoint, args.body) : undefined;
    const options = checkRequestOptions(args.options);
    const { settings } = engine;
    const request: OutgoingRequest = {
      endpoint: endpoint.name,
      template: endpoint.path,
      method: endpoint.method,
      path,
      query,
      body,
      auth: endpoint.auth,
      accept: endpoint.kind === 'text' ? 'text/plain' : 'application/json',
      timeout: options.timeout ?? settings.timeout,
      maxRetries: options.maxRetries ?? endpoint.maxRetries ?? settings.maxRetries,
      probe: endpoint.probe,
      options,
    };
    return launch(engine, request);
  } catch (thrown) {
    // Bad arguments: nothing was sent. A refusal quotes what was passed, which may be the token.
    throw thrown instanceof InvalidArgumentError ? redactOwnText(thrown, engine.shared.token) : thrown;
  }
}

/**
 * The call's answer, through coalescing and the cache: `load` is called once per flight, with the
 * flight's signal, or with the caller's own, already aborted, to have the door reject it as any
 * aborted call. The body is read inside the send, so the call's observation ends after its schema
 * was checked. A hit from a store others write to goes through the same checks as a body.
 */
export function fetchData(
  engine: Engine,
  endpoint: Endpoint,
  { request, release }: Described,
  method?: Caller,
  /** A list's check of its envelope, after the schema's, whatever the validation mode (`list.ts`). */
  also?: Also,
): Promise<WithResponse<unknown>> {
  const check = (data: unknown, status: number) => {
    const target = { method: request.method, path: request.path, status };
    const checked = validate(engine, endpoint, data, target);
    return also ? also(checked, target) : checked;
  };
  const read = (received: Received) => ({
    data: check(parseBody(endpoint, request, received), received.response.status),
    response: received.response,
  });
  const load = (signal: AbortSignal | undefined) =>
    send(engine, signal === request.options.signal ? request : { ...request, options: { ...request.options, signal } }, read);
  const answer = engine.shared.cache.read(request, load, check, method);
  return release ? answer.finally(release) : answer;
}

/** Calls a request that answers one value (JSON or text): `endpoint` with a method's `args`; `method` is the one called. */
export function callOne(engine: Engine, endpoint: Endpoint, args: readonly unknown[], method?: Caller): APIPromise<unknown> {
  let described: Described;
  try {
    described = describeRequest(engine, endpoint, splitArgs(endpoint, args));
  } catch (error) {
    return new APIPromise(Promise.reject(error));
  }
  return new APIPromise(fetchData(engine, endpoint, described, method));
}

/** A check after the schema's, of what it gave (a list's envelope). */
export type Also = (body: unknown, target: RequestTarget & { status: number }) => unknown;

/** The body as text (a text endpoint) or parsed JSON; one that is not JSON fails as `ResponseValidationError`. */
function parseBody(endpoint: Endpoint, request: OutgoingRequest, { response, body: text }: Received): unknown {
  if (endpoint.kind === 'text' || !endpoint.schema) return text;
  try {
    return JSON.parse(text);
  } catch {
    const what = text === '' ? 'an empty body' : `a body that is not JSON (content-type ${response.headers.get('content-type') ?? 'none'})`;
    throw new ResponseValidationError(`${request.method} ${request.path} answered ${response.status} with ${what}`, {
      method: request.method,
      path: request.path,
      status: response.status,
      issues: [],
    });
  }
}

/** `body` checked against the endpoint's schema as the validation mode says. */
function validate(engine: Engine, endpoint: Endpoint, body: unknown, target: RequestTarget & { status: number }): unknown {
  const { validation, log } = engine.settings;
  if (validation === 'off' || !endpoint.schema) return body;
  const parsed = endpoint.schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const message = `${target.method} ${target.path}: the response does not match its schema: ${summarize(parsed.error.issues)}`;
  if (validation === 'error') throw new ResponseValidationError(message, { ...target, issues: parsed.error.issues });
  if (!engine.warned.has(endpoint)) {
    engine.warned.add(endpoint); // once per endpoint: a walk over 1,000 pages should not print 1,000 warnings
    log.warn?.(`${message} (validation: 'warn', returning the body unchecked)`);
  }
  return body;
}

function checkBody(endpoint: Endpoint, body: unknown): unknown {
  const parsed = (endpoint.body as z.ZodMiniType).safeParse(body, OWN_WORDS);
  if (!parsed.success) {
    throw new InvalidArgumentError(`invalid body for ${endpoint.method} ${endpoint.path}: ${summarize(parsed.error.issues)}`);
  }
  return parsed.data;
}

export function summarize(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, MAX_ISSUES_IN_MESSAGE).map((issue) => `${issue.path.join('.') || '(root)'}: ${describeIssue(issue)}`);
  const more = issues.length > MAX_ISSUES_IN_MESSAGE ? ` (+${issues.length - MAX_ISSUES_IN_MESSAGE} more)` : '';
  return shown.join('; ') + more;
}
