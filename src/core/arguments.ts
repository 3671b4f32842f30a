/**
 * Checks of everything a caller passes, so a bad argument fails with a clear
 * `InvalidArgumentError` before any request is sent, and ids can never leave their path segment.
 * @module
 */
import type { ListParams, PathPart, RequestOptions } from './types';
import { describe } from './describe';
import { InvalidArgumentError } from './error-base';

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
/** The longest timer JavaScript can set; longer timeouts would fire at once. */
const MAX_TIMEOUT_MS = INT32_MAX;

export { describe } from './describe';

/**
 * What a value is, never what it says: for a value where an object of options or parameters
 * goes, which is where a token passed by mistake lands (`new CommunityServerClient(process.env.TOKEN)`,
 * `tokens.current(token)`).
 */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object of another kind' : `a ${typeof value}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The one check of an options object: a plain object whose every key is `known`, else an
 * `InvalidArgumentError` naming the unknown key and listing the known ones. `what` names the
 * options (`client`, `watch`, `request`, `mock`…). `undefined` passes: every option is optional.
 */
export function checkOptions(value: unknown, known: readonly string[], what: string): asserts value is Record<string, unknown> | undefined {
  if (value === undefined) return;
  if (!isPlainObject(value)) throw new InvalidArgumentError(`${what} options must be an object, got ${kindOf(value)}`);
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw new InvalidArgumentError(`unknown ${what} option ${describe(key)} (known: ${known.join(', ')})`);
  }
}

/** The path with every parameter checked and percent-encoded as exactly one segment. */
export function buildPath(parts: readonly PathPart[], args: readonly unknown[]): string {
  let path = '';
  let index = 0;
  for (const part of parts) path += typeof part === 'string' ? part : encodeSegment(part, args[index++]);
  return path;
}

function encodeSegment(param: Exclude<PathPart, string>, value: unknown): string {
  if (param.kind === 'int32') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) {
      throw new InvalidArgumentError(`${param.name} must be an int32 integer, got ${describe(value)}`);
    }
    return String(value);
  }
  if (typeof value !== 'string') {
    throw new InvalidArgumentError(`${param.name} must be a string, got ${describe(value)}`);
  }
  if (value.trim() === '') throw new InvalidArgumentError(`${param.name} must not be empty`);
  // URLs resolve "." and ".." (even encoded as %2E) away, which would address another endpoint.
  if (value === '.' || value === '..') throw new InvalidArgumentError(`${param.name} cannot be "${value}"`);
  if (!value.isWellFormed()) throw new InvalidArgumentError(`${param.name} contains an unpaired UTF-16 surrogate`);
  return encodeURIComponent(value);
}

const listParamKinds: Record<keyof ListParams, 'count' | 'text'> = {
  page: 'count',
  pageSize: 'count',
  limit: 'count',
  orderBy: 'text',
  sort: 'text',
};

/** The list parameters as a query string (with its `?`), in the caller's key order. */
export function listQuery(params: unknown): string {
  if (params === undefined) return '';
  if (!isPlainObject(params)) {
    throw new InvalidArgumentError(`list params must be an object like { page, pageSize }, got ${kindOf(params)}`);
  }
  let query = '';
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const kind = listParamKinds[key as keyof ListParams];
    if (kind === undefined) {
      const hint = key in requestOptionKinds ? '; request options go in the last argument' : '';
      throw new InvalidArgumentError(`unknown list parameter "${key}" (known: ${Object.keys(listParamKinds).join(', ')})${hint}`);
    }
    if (kind === 'count' && !(typeof value === 'number' && Number.isSafeInteger(value) && value >= 1)) {
      throw new InvalidArgumentError(`${key} must be a whole number ≥ 1, got ${describe(value)}`);
    }
    if (kind === 'text' && !(typeof value === 'string' && value !== '')) {
      throw new InvalidArgumentError(`${key} must be a non-empty string, got ${describe(value)}`);
    }
    query += `${query ? '&' : '?'}${key}=${encodeURIComponent(value as string | number)}`;
  }
  return query;
}

/** Every request option, and only those: the compiler fails when this and {@link RequestOptions} part. */
const requestOptionKinds: Record<keyof RequestOptions, true> = {
  signal: true,
  timeout: true,
  deadline: true,
  maxRetries: true,
  headers: true,
  cache: true,
};
const REQUEST_OPTIONS = /* @__PURE__ */ Object.keys(requestOptionKinds);

/** Per-call options, checked. */
export function checkRequestOptions(options: unknown): RequestOptions {
  checkOptions(options, REQUEST_OPTIONS, 'request');
  if (options === undefined) return {};
  const { signal, timeout, deadline, maxRetries, headers, cache } = options;
  if (signal !== undefined && !isAbortSignal(signal)) throw new InvalidArgumentError('signal must be an AbortSignal');
  checkTimeout('timeout', timeout);
  checkTimeout('deadline', deadline);
  checkRetries('maxRetries', maxRetries);
  if (headers !== undefined) checkHeaders(headers);
  if (cache !== undefined && cache !== 'default' && cache !== 'reload' && cache !== 'no-store') {
    throw new InvalidArgumentError(`cache must be 'default', 'reload' or 'no-store', got ${describe(cache)}`);
  }
  return options;
}

/** RFC 9110 token characters: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII, spaces and tabs: a value every fetch sends as given (no CR/LF, NUL, or bytes a platform re-encodes). */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Headers a request could actually carry. Fetch would refuse the rest only once sending, where
 * the failure reads as "unreachable". Values are never shown: one may be a credential.
 */
function checkHeaders(headers: unknown): void {
  if (!isPlainObject(headers) || !Object.values(headers).every((value) => typeof value === 'string')) {
    throw new InvalidArgumentError('headers must be an object of string values');
  }
  for (const [name, value] of Object.entries(headers) as [string, string][]) {
    if (!HEADER_NAME.test(name)) throw new InvalidArgumentError(`header name ${describe(name)} is not a valid HTTP header name`);
    if (!HEADER_VALUE.test(value)) {
      throw new InvalidArgumentError(`header "${name}" has a value that cannot be sent (a line break, control or non-ASCII character)`);
    }
  }
}

export function checkTimeout(name: string, value: unknown): void {
  if (value !== undefined && !(typeof value === 'number' && value > 0 && value <= MAX_TIMEOUT_MS)) {
    throw new InvalidArgumentError(`${name} must be a number of milliseconds in 1..${MAX_TIMEOUT_MS}, got ${describe(value)}`);
  }
}

export function checkRetries(name: string, value: unknown): void {
  if (value !== undefined && !(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) {
    throw new InvalidArgumentError(`${name} must be a whole number ≥ 0, got ${describe(value)}`);
  }
}

export function isAbortSignal(value: unknown): value is AbortSignal {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function'
  );
}
