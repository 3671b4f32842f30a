/**
 * The one "call an endpoint" function every method goes through: arguments → request
 * description → transport → body → schema → result (or typed error). No step reaches back.
 * @module
 */
import * as z from 'zod/mini';
import { APIPromise, type WithResponse } from './api-promise';
import { buildPath, checkRequestOptions, listQuery } from './arguments';
import type { Cache, Caller } from './cache';
import type { Endpoint } from './endpoint';
import type { ListParams } from './types';
import { InvalidArgumentError, ResponseValidationError, type RequestTarget } from './errors';
import { describeIssue, OWN_WORDS } from './issues';
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
  /** Coalescing and the cache: every call's answer goes through it. */
  cache: Cache;
  validation: ValidationMode;
  /** The API token, if any: needed by every endpoint but the health probes, and redacted from what a call refuses. */
  token: string | undefined;
  /** Where `validation: 'warn'` reports. */
  log: Log;
  /** A hash naming the token and service (never the token): what a watch's fleet keys its list by. */
  identity: () => Promise<string>;
  /** The dotted name of `endpoint`, a neighbour of the method `name` in its table (`members.list` → its `get`: `members.get`). */
  siblingName(name: string, endpoint: Endpoint): string;
}

/** Calls `endpoint`, the client method `name` (`members.get`), with a method's arguments; `method` is the one called. */
export type Call = (endpoint: Endpoint, name: string, args: readonly unknown[], method?: Caller) => APIPromise<unknown>;

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

  const call: Call = (endpoint, name, args, method) => {
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
    if (endpoint.kind !== 'page') return new APIPromise(fetchData(endpoint, request, method));
    return listPromise(endpoint, request, parts.listParams ?? {}, parts.pathArgs, method);
  };

  // The body is read inside the send, so the call's trace ends after its schema was checked. The
  // cache calls `load` once per flight, with the flight's signal; or with the caller's own,
  // already aborted, to have the door reject it as any aborted call. A hit from a store others
  // write to goes through the same checks as a body.
  const fetchData = (endpoint: Endpoint, request: OutgoingRequest, method?: Caller): Promise<WithResponse<unknown>> =>
    config.cache.read(
      request,
      (signal) =>
        config.send(signal === request.options.signal ? request : { ...request, options: { ...request.options, signal } }, (received) => ({
          data: readBody(endpoint, request, received),
          response: received.response,
        })),
      (data, status) => checkParsed(endpoint, data, { method: request.method, path: request.path, status }),
      method,
    );

  /** Each item of a page the service answered, with the cache's epoch for it: what a watch may keep as its `get`'s answer. */
  const itemEpochs = new WeakMap<object, string>();

  /** Pages the cache answered: too old, perhaps, for a watch to start from. */
  const cachedPages = new WeakSet<object>();

  /**
   * A list request, described once: its next pages and its watch's polls re-send the same
   * request with other page and order parameters. A watch's polls skip the cache's entries
   * (they look for what is new) but leave theirs, unless the list asked for `'no-store'`.
   */
  function listPromise(
    endpoint: Endpoint,
    request: OutgoingRequest,
    params: ListParams,
    pathArgs: readonly unknown[],
    method?: Caller,
  ): PagePromise<unknown> {
    const again = (overrides: ListParams, signal?: AbortSignal, cache = request.options.cache) => {
      const merged = { ...params, ...overrides };
      const callerSignal = request.options.signal;
      const both = signal && callerSignal ? AbortSignal.any([signal, callerSignal]) : (signal ?? callerSignal);
      const options = { ...request.options, signal: both, cache };
      return listPromise(endpoint, { ...request, query: listQuery(merged), options }, merged, pathArgs);
    };
    const fetchPage = (page: number) => again({ page });
    const { itemGet } = endpoint;
    const source: WatchSource<unknown> = {
      list: `${request.method} ${request.path}`,
      keys: endpoint.watch ?? { id: 'id' },
      params,
      fetchPage: (overrides, signal) => again(overrides, signal, request.options.cache === 'no-store' ? 'no-store' : 'reload'),
      log: config.log,
      identity: config.identity,
      fresh: (page) => !cachedPages.has(page),
      // The item stands for its `get`'s answer: the cache keeps it there.
      yielded: itemGet && ((item) => rememberItem(request.endpoint, itemGet, endpoint, pathArgs, source.keys.id, item)),
    };
    const pages = fetchData(endpoint, request, method).then((result) => {
      const page = new Page(result.data as PageEnvelope<unknown>, fetchPage);
      if (config.cache.isHit(result)) cachedPages.add(page);
      const epoch = itemGet && config.cache.epochOf(result);
      if (epoch) for (const item of page.data) if (typeof item == 'object' && item) itemEpochs.set(item, epoch);
      return { data: page, response: result.response };
    });
    return new PagePromise(pages, fetchPage, source);
  }

  /**
   * Stores a list's item as the answer of its `get`: the get's path takes the list's path
   * parameters by name, and the item's id as its last. Left out: an item whose id cannot make a
   * path, and one not fetched by this client under a known epoch (a fleet's item, fetched by
   * another process at a time no invalidation here can be ordered against).
   */
  function rememberItem(
    listName: string,
    itemGet: Endpoint,
    list: Endpoint,
    listArgs: readonly unknown[],
    idKey: string,
    item: unknown,
  ): void {
    const epoch = typeof item == 'object' && item ? itemEpochs.get(item) : undefined;
    if (epoch === undefined) return;
    const named = new Map<string, unknown>();
    list.parts.filter((part) => typeof part !== 'string').forEach((part, index) => named.set(part.name, listArgs[index]));
    const params = itemGet.parts.filter((part) => typeof part !== 'string');
    const last = params[params.length - 1];
    try {
      const id = (item as Record<string, unknown> | null)?.[idKey];
      const path = buildPath(
        itemGet.parts,
        params.map((part) => (part === last ? id : named.get(part.name))),
      );
      config.cache.remember(config.siblingName(listName, itemGet), path, item, epoch);
    } catch {
      // an id that is no path segment: nothing to keep
    }
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
    return checkParsed(endpoint, body, target);
  }

  /** A parsed body as the validation mode gives it; a page's envelope checked whatever the mode. */
  function checkParsed(endpoint: Endpoint, body: unknown, target: RequestTarget & { status: number }): unknown {
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
    probe: endpoint.probe,
    options: checkRequestOptions(args.options),
  };
}

function checkBody(endpoint: Endpoint, body: unknown): unknown {
  const parsed = (endpoint.body as z.ZodMiniType).safeParse(body, OWN_WORDS);
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
