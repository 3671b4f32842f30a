/**
 * The one "call an endpoint" function every method goes through: arguments → request
 * description → transport → body → schema → result (or typed error). No step reaches back.
 * @module
 */
import * as z from 'zod/mini';
import { APIPromise, type WithResponse } from './api-promise';
import { buildPath, checkRequestOptions, listQuery } from './arguments';
import type { Endpoint } from './endpoint';
import type { ListParams } from './types';
import { InvalidArgumentError, ResponseValidationError, type RequestTarget } from './errors';
import { describeIssue } from './issues';
import { Page, PagePromise } from './pagination';
import type { Log } from './log';
import type { OutgoingRequest, Received, Send } from './transport';
import type { WatchSource } from './watch/watch';
import { redactError } from './redact';
import { looseObject, type PageEnvelope } from '../schemas/common';

/**
 * What to do with a 2xx body that fails its schema: throw `ResponseValidationError` (`'error'`),
 * warn once per endpoint and return the body as it came (`'warn'`), or skip schemas (`'off'`).
 * @example
 * const lenient = new CommunityServerClient({ validation: 'warn' });
 */
export type ValidationMode = 'error' | 'warn' | 'off';

export interface CallerConfig {
  send: Send;
  validation: ValidationMode;
  /** The API token, if any: needed by every endpoint but the health probes, and redacted from what a call refuses. */
  token: string | undefined;
  /** Where `validation: 'warn'` reports. */
  log: Log;
}

/** Calls `endpoint`, the client method `name` (`members.get`), with a method's arguments. */
export type Call = (endpoint: Endpoint, name: string, args: readonly unknown[]) => APIPromise<unknown>;

const MAX_ISSUES_IN_MESSAGE = 3;

const count = z.int().check(z.gte(0));
/**
 * What the pager itself relies on, checked in every validation mode: under `'warn'` or `'off'`
 * a string `data` would be walked character by character and a string `page` would become a
 * request for page "11". The items stay the endpoint schema's business.
 */
const UsableEnvelope = looseObject({
  data: z.array(z.unknown()),
  page: z.int().check(z.gte(1)),
  pageSize: count,
  total: count,
  totalPages: count,
});

export function createCaller(config: CallerConfig): Call {
  const warnedEndpoints = new Set<Endpoint>();

  const call: Call = (endpoint, name, args) => {
    const parts = splitArgs(endpoint, args);
    let request: OutgoingRequest;
    try {
      request = describeRequest(endpoint, name, parts, config.token !== undefined);
    } catch (thrown) {
      // Bad arguments: nothing was sent. A refusal quotes what was passed, which may be the token.
      const error = thrown instanceof InvalidArgumentError ? redactError(thrown, config.token) : (thrown as Error);
      const rejected = Promise.reject(error);
      if (endpoint.kind !== 'page') return new APIPromise(rejected);
      // Any other page of a list that cannot be asked for fails the same way.
      const failed: PagePromise<unknown> = new PagePromise(rejected, () => failed, error);
      return failed;
    }
    if (endpoint.kind !== 'page') return new APIPromise(fetchData(endpoint, request));
    return listPromise(endpoint, request, parts.listParams ?? {});
  };

  // The body is read inside the send, so the call's trace ends after its schema was checked.
  const fetchData = (endpoint: Endpoint, request: OutgoingRequest): Promise<WithResponse<unknown>> =>
    config.send(request, (received) => ({ data: readBody(endpoint, request, received), response: received.response }));

  /**
   * A list request, described once: its next pages and its watch's polls re-send the same
   * request with other page and order parameters.
   */
  function listPromise(endpoint: Endpoint, request: OutgoingRequest, params: ListParams): PagePromise<unknown> {
    const again = (overrides: ListParams, signal?: AbortSignal) => {
      const merged = { ...params, ...overrides };
      const callerSignal = request.options.signal;
      const both = signal && callerSignal ? AbortSignal.any([signal, callerSignal]) : (signal ?? callerSignal);
      const options = both ? { ...request.options, signal: both } : request.options;
      return listPromise(endpoint, { ...request, query: listQuery(merged), options }, merged);
    };
    const fetchPage = (page: number) => again({ page });
    const source: WatchSource<unknown> = {
      list: `${request.method} ${request.path}`,
      keys: endpoint.watch ?? { id: 'id' },
      params,
      fetchPage: again,
      log: config.log,
    };
    const pages = fetchData(endpoint, request).then(({ data, response }) => ({
      data: new Page(data as PageEnvelope<unknown>, fetchPage),
      response,
    }));
    return new PagePromise(pages, fetchPage, source);
  }

  function readBody(endpoint: Endpoint, request: OutgoingRequest, { response, body: text }: Received): unknown {
    if (endpoint.kind === 'text' || !endpoint.schema) return text;
    const target = { method: request.method, path: request.path, status: response.status };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      const what =
        text === '' ? 'an empty body' : `a body that is not JSON (content-type ${response.headers.get('content-type') ?? 'none'})`;
      throw new ResponseValidationError(`${request.method} ${request.path} answered ${response.status} with ${what}`, {
        ...target,
        issues: [],
      });
    }
    const checked = validate(endpoint, body, target);
    if (endpoint.kind === 'page') {
      const usable = UsableEnvelope.safeParse(checked);
      if (!usable.success) {
        const message = `${target.method} ${target.path}: the list envelope cannot be paged: ${summarize(usable.error.issues)}`;
        throw new ResponseValidationError(message, { ...target, issues: usable.error.issues });
      }
    }
    return checked;
  }

  /** `body` checked against the endpoint's schema as the validation mode says. */
  function validate(endpoint: Endpoint, body: unknown, target: RequestTarget & { status: number }): unknown {
    if (config.validation === 'off' || !endpoint.schema) return body;
    const parsed = endpoint.schema.safeParse(body);
    if (parsed.success) return parsed.data;
    const message = `${target.method} ${target.path}: the response does not match its schema: ${summarize(parsed.error.issues)}`;
    if (config.validation === 'error') throw new ResponseValidationError(message, { ...target, issues: parsed.error.issues });
    if (!warnedEndpoints.has(endpoint)) {
      warnedEndpoints.add(endpoint); // once per endpoint: a walk over 1,000 pages should not print 1,000 warnings
      config.log.warn?.(`${message} (validation: 'warn', returning the body unchecked)`);
    }
    return body;
  }

  return call;
}

/** A method's arguments by role: path ids first, then the body or list params, then options. */
interface Arguments {
  pathArgs: readonly unknown[];
  body: unknown;
  listParams: unknown;
  options: unknown;
  extra: readonly unknown[];
}

function splitArgs(endpoint: Endpoint, args: readonly unknown[]): Arguments {
  const paramCount = endpoint.parts.filter((part) => typeof part !== 'string').length;
  const rest = args.slice(paramCount);
  const body = endpoint.body ? rest.shift() : undefined;
  const listParams = endpoint.kind === 'page' ? rest.shift() : undefined;
  const options = rest.shift();
  return { pathArgs: args.slice(0, paramCount), body, listParams, options, extra: rest };
}

/** The request the arguments describe, every one of them checked (`InvalidArgumentError` if not). */
function describeRequest(endpoint: Endpoint, name: string, args: Arguments, hasToken: boolean): OutgoingRequest {
  if (args.extra.length > 0) throw new InvalidArgumentError(`too many arguments for ${endpoint.method} ${endpoint.path}`);
  if (endpoint.auth && !hasToken) {
    throw new InvalidArgumentError('no API token: pass { token } to the client or set COMMUNITY_SERVER_TOKEN');
  }
  return {
    endpoint: name,
    template: endpoint.path,
    method: endpoint.method,
    path: buildPath(endpoint.parts, args.pathArgs),
    query: listQuery(args.listParams),
    body: endpoint.body ? checkBody(endpoint, args.body) : undefined,
    auth: endpoint.auth,
    accept: endpoint.kind === 'text' ? 'text/plain' : 'application/json',
    maxRetries: endpoint.maxRetries,
    options: checkRequestOptions(args.options),
  };
}

function checkBody(endpoint: Endpoint, body: unknown): unknown {
  const parsed = (endpoint.body as z.ZodMiniType).safeParse(body);
  if (!parsed.success) {
    throw new InvalidArgumentError(`invalid body for ${endpoint.method} ${endpoint.path}: ${summarize(parsed.error.issues)}`);
  }
  return parsed.data;
}

function summarize(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, MAX_ISSUES_IN_MESSAGE).map((issue) => `${issue.path.join('.') || '(root)'}: ${describeIssue(issue)}`);
  const more = issues.length > MAX_ISSUES_IN_MESSAGE ? ` (+${issues.length - MAX_ISSUES_IN_MESSAGE} more)` : '';
  return shown.join('; ') + more;
}
