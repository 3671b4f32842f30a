/**
 * Coalescing and the response cache, between a call (`request.ts`) and the wire (`transport.ts`).
 *
 * A GET is a flight: its cache lookup, then (on a miss) its request, its parsed and validated
 * result, and the entry it leaves in the store. Identical GETs (same method, path and query,
 * same per-attempt `timeout` and `maxRetries`, on this client, so one token) that arrive while a
 * flight is out join it rather than start their own: the flight runs once, without any caller's
 * signal, and is aborted when its last caller leaves. Each caller gets an answer of its own: the
 * first the result as parsed, the others a copy (one JSON text, parsed once per caller), and a
 * failure as an error of its own (own fields, and a stack from the caller's own call). A caller
 * whose signal aborts leaves with the `AbortError` any aborted call gets, from the transport's door.
 * Health probes are neither shared nor cached: each reports the state when it is asked.
 *
 * Entries are the JSON text `{ v, s, t, d }` (format, status, when stored, the result), keyed
 * `<scope>:<method>:<path and query>` (see `CacheStore`), `<scope>` the token's identity. A
 * flight reads the store's epoch before it sends, and stores its answer under that epoch only
 * (the store refuses it once an invalidation ran since), so an answer fetched before an
 * invalidation is never stored after it, by this client or any other on the store. An entry of
 * a store other than the client's own in-process one may have been written by a client with
 * another validation, or by anyone: it is checked as this client checks an answer, and one that
 * fails is a miss.
 * @module
 */
import type { WithResponse } from './api-promise';
import { checkOptions, checkTimeout, describe } from './arguments';
import { isCacheStore, memoryStore, type CacheStore } from './cache-store';
import { CommunityServerError, InvalidArgumentError } from './errors';
import type { Log } from './log';
import { STORE_RETRY_MS, STORE_TIMEOUT_MS } from './rate-limit-store';
import { describeThrown, redactError } from './redact';
import { withTimeout } from './sleep';
import type { OutgoingRequest } from './transport';
import type { CacheMode } from './types';

/**
 * The client's `cache` option: GET answers are reused for `ttlMs`.
 * @example
 * const client = new CommunityServerClient({ token: process.env.TOKEN, baseUrl: 'https://api.example.com', cache: { ttlMs: 5 * 60_000, maxEntries: 10_000 } });
 */
export interface CacheOptions {
  /** Milliseconds an answer is reused (1 to 2,147,483,647). */
  ttlMs: number;
  /**
   * Entries the in-process store holds (default 1,000); past it, the least recently used goes.
   * Not with `store`: a store of your own bounds itself (Redis: its `maxmemory` policy).
   */
  maxEntries?: number | undefined;
  /** Where entries live (default: in this process); `redisCacheStore` shares them across a fleet. */
  store?: CacheStore | undefined;
}

/**
 * What `client.cache.stats()` counts: every GET without `headers`, once, by where its answer
 * came from; a request sent is a miss as it goes, so a call that leaves before its answer still
 * counts the request it started.
 * @example
 * const { hits, misses, coalesced } = client.cache.stats();
 * console.log(`${hits} from the cache, ${coalesced} shared a request, ${misses} sent their own`);
 */
export interface CacheStats {
  /** Calls answered from the cache, with no request. */
  readonly hits: number;
  /** Calls that sent a request of their own (nothing fresh cached, no cache, `'reload'`, `'no-store'`, a health probe). */
  readonly misses: number;
  /** Calls that joined an identical request already in flight, and shared its answer. */
  readonly coalesced: number;
}

/**
 * `client.cache`: there with or without the `cache` option (coalescing is always on).
 * @example
 * await client.tokens.create({ name: 'ci' });
 * await client.cache.invalidate('tokens'); // tokens.list and tokens.current are fetched again
 * console.log(client.cache.stats());
 */
export interface ClientCache {
  /**
   * Drops this token's entries under `prefix`: `''` or none, every one; a group (`'members'`,
   * `'cad.calls'`), every method in it; a method (`'members.get'`), that one. Also in the store
   * (for a Redis store, every process's view); requests in flight then store nothing, in any
   * client on the store, and later calls do not join them. Rejects with `InvalidArgumentError`
   * for a name that is no method or group, and with `CommunityServerError` when the store fails.
   * @example
   * await client.members.get(id);            // cached
   * await client.cache.invalidate('members'); // members.get, members.list… fetched again
   */
  invalidate(prefix?: string): Promise<void>;
  /**
   * The counts so far (a copy).
   * @example
   * const before = client.cache.stats().hits;
   */
  stats(): CacheStats;
}

/** Sends the call (through the transport's door) with `signal` as its own. */
export type Load = (signal: AbortSignal | undefined) => Promise<WithResponse<unknown>>;

/**
 * A cached result as the client's own validation gives it (a hit from a store others write to);
 * throws when it would not be one: the call then sends its request.
 */
export type Check = (data: unknown, status: number) => unknown;

export interface CacheConfig {
  options: CacheOptions | undefined;
  /** The token's identity (`tokenIdentity`): what the store's keys name it by. */
  identity: Promise<string>;
  token: string | undefined;
  /** The client's per-attempt timeout: how long a call waits for another process's answer. */
  timeout: number;
  /** Where a failing store is reported, once. */
  log: Log;
  /** What a dotted name (`members`, `members.get`) names: a group, a method, or nothing. */
  kindOf(name: string): 'group' | 'method' | undefined;
}

export interface Cache {
  /**
   * The call's answer: from the cache, from a flight in progress, or from `load`. `method`, the
   * client's method called (when it is on the stack), is where a joined caller's copied error
   * starts its stack.
   */
  read(request: OutgoingRequest, load: Load, check: Check, method?: Caller): Promise<WithResponse<unknown>>;
  /**
   * Stores `data` as the answer of the GET `name` at `path` (a watch's item, as its `get`
   * answers it), under the epoch of the request that fetched it (`epochOf`).
   */
  remember(name: string, path: string, data: unknown, epoch: string): void;
  /** Whether `result` came from the cache. */
  isHit(result: object): boolean;
  /** The store's epoch read before `result`'s request was sent, if its answer may be stored. */
  epochOf(result: object): string | undefined;
  /** Whether the client has a cache (else only coalescing). */
  readonly enabled: boolean;
  readonly control: ClientCache;
}

/** A function on the stack of a call: a stack captured from inside it starts at its caller. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any function at all
export type Caller = (...args: any[]) => unknown;

const DEFAULT_MAX_ENTRIES = 1000;
/** The longest a failing store rests before the next call tries it again. */
const MAX_REST_MS = 8_000;
const ENTRY_FORMAT = 1;

/** What a flight ends with: the result as parsed (for its first caller), and its entry's text once made. */
interface Answer {
  data: unknown;
  /** The service's; for a hit, none: each caller's is built when read (`hitResult`). */
  response?: Response | undefined;
  status: number;
  /** For a hit, when it was stored. */
  storedAt?: number | undefined;
  text?: string | undefined;
  /** The store's epoch, read before the request was sent (none: the answer is not to be stored). */
  epoch?: string | undefined;
}

interface Flight {
  answer: Promise<Answer>;
  /**
   * Aborts the request when its last caller leaves. None when the caller that started it has no
   * signal: it never leaves, so neither is the request ever left without a caller.
   */
  readonly controller: AbortController | undefined;
  /** Callers waiting on it: at 0, the flight is aborted. */
  callers: number;
  /** Whether the flight's own result, or error, went to a caller: the next get a copy. */
  handed?: boolean;
}

/** Checks the `cache` option, throwing `InvalidArgumentError` at construction. */
export function checkCacheOptions(options: unknown): asserts options is CacheOptions | undefined {
  checkOptions(options, ['ttlMs', 'maxEntries', 'store'], 'cache');
  if (options === undefined) return;
  const { ttlMs, maxEntries, store } = options;
  if (ttlMs === undefined) throw new InvalidArgumentError('cache needs ttlMs, the milliseconds an answer is reused');
  checkTimeout('cache.ttlMs', ttlMs);
  if (maxEntries !== undefined && !(Number.isSafeInteger(maxEntries) && (maxEntries as number) >= 1)) {
    throw new InvalidArgumentError(`cache.maxEntries must be a whole number ≥ 1, got ${describe(maxEntries)}`);
  }
  if (store !== undefined && !isCacheStore(store)) {
    throw new InvalidArgumentError(`cache.store must be a CacheStore (get, set, invalidate and epoch methods), got ${describe(store)}`);
  }
  if (store && maxEntries) {
    throw new InvalidArgumentError('cache.maxEntries bounds the in-process store; a store of your own bounds itself');
  }
}

const { captureStackTrace } = Error as { captureStackTrace?: (target: object, from?: Caller) => void };

/**
 * Where a caller's call is, as a stack (V8's, taken now, formatted only when read): from `from`'s
 * caller on. `undefined` where the platform makes none.
 */
function callSite(from: Caller): { stack?: string } | undefined {
  if (!captureStackTrace) return undefined;
  const site: { stack?: string } = {};
  captureStackTrace(site, from);
  return site;
}

/**
 * `error` again, as an object of its own: same class and fields, each field's value cloned (what
 * cannot be, a function say, is shared), and a stack of its own that leads to `site`, the
 * caller's own call (the copy is made when the answer comes: its own stack would start here).
 */
function ownCopy(error: unknown, site: { stack?: string } | undefined): unknown {
  if (!(error instanceof Error)) return error; // what the door lets out is always an Error
  const fields = Object.getOwnPropertyDescriptors(error);
  for (const field of Object.values(fields)) {
    try {
      if ('value' in field) field.value = structuredClone(field.value as unknown);
    } catch {
      // shared as it is
    }
  }
  const copy = Object.create(Object.getPrototypeOf(error) as object, fields) as Error;
  const frames = site?.stack;
  if (frames !== undefined) {
    // Defined, not assigned: from Node 24, an error's `stack` is an accessor that reads a slot
    // only errors have, so a copied one reads `undefined` and ignores a write. A site may have
    // no frames (`Error.stackTraceLimit = 0`): then the stack is the header alone.
    const at = frames.indexOf('\n');
    const stack = String(copy) + (at < 0 ? '' : frames.slice(at));
    Object.defineProperty(copy, 'stack', { value: stack, writable: true, configurable: true });
  }
  return copy;
}

/**
 * The answer an entry holds, or `undefined` for text that is not one (another format, damaged):
 * a miss. With `check`, its result as `check` gives it, and a result `check` refuses is a miss too.
 */
function readEntry(text: unknown, check?: Check): Answer | undefined {
  try {
    const entry = JSON.parse(text as string) as { v?: unknown; s?: unknown; t?: unknown; d?: unknown };
    const { v, s, t, d } = entry;
    // A status an answer has (a 2xx, whole: `new Response` throws on some others), a time, a result.
    if (v === ENTRY_FORMAT && Number.isInteger(s) && (s as number) > 199 && (s as number) < 300 && typeof t == 'number' && 'd' in entry) {
      // A checked result's copies, for joined callers, are made from it, not from the text.
      const status = s as number;
      return check ? { data: check(d, status), status, storedAt: t } : { data: d, status, storedAt: t, text: text as string };
    }
  } catch {
    // not an entry, or not one this client answers with
  }
  return undefined;
}

const entryText = ({ status, data }: Answer) => JSON.stringify({ v: ENTRY_FORMAT, s: status, t: Date.now(), d: data });

/**
 * What a hit's `withResponse()` shows: the stored status, `x-cache: hit`, and `age` (seconds
 * since it was stored, as HTTP caches say it); no body, and none of the service's headers (a
 * hit spent no request: it has no rate-limit headers of its own). Built when first read.
 */
function hitResult(data: unknown, { status, storedAt = 0 }: Answer, accept: string): WithResponse<unknown> {
  let response: Response | undefined;
  return {
    data,
    get response() {
      const age = String(Math.max(0, Math.floor((Date.now() - storedAt) / 1000)));
      return (response ??= new Response(null, { status, headers: { 'content-type': accept, 'x-cache': 'hit', age } }));
    },
  };
}

export function createCache(config: CacheConfig): Cache {
  const { options, token, log } = config;
  const store = options && (options.store ?? memoryStore(options.maxEntries ?? DEFAULT_MAX_ENTRIES));
  const ttlMs = options?.ttlMs ?? 0;
  const flights = new Map<string, Flight>();
  // The token as a path (percent-encoded) or JSON text (escaped) would show it.
  const shown = token ? [token, encodeURIComponent(token), JSON.stringify(token).slice(1, -1)] : [];
  /** Whether `text` shows the token: then it is never a key nor a value of the store. */
  const showsToken = (text: string) => shown.some((form) => text.includes(form));
  const stats = { hits: 0, misses: 0, coalesced: 0 };
  const hits = new WeakSet<object>();
  /** The epoch each result's request was sent under (`epochOf`). */
  const epochs = new WeakMap<object, string>();
  /** Whether the entries are this client's own (its in-process store): checked when stored, not again when read. */
  const own = options?.store === undefined;
  let scope: string | undefined;
  const scoped = config.identity.then((identity) => (scope = identity));
  /** While the store rests after failures (0.5 s, doubling to 8 s), calls answer from the service alone. */
  let restUntil = 0;
  let failures = 0;
  let warned = false;

  /** A store call, bounded by `ms`: its answer at once when it gives one at once; a failure reads as nothing. */
  function ask<T>(run: (store: CacheStore) => T | Promise<T>, ms = STORE_TIMEOUT_MS): T | Promise<T | undefined> | undefined {
    const answered = (value: T) => {
      if (failures) log.info?.('the cache store answers again');
      failures = 0;
      return value;
    };
    const failed = (error: unknown) => {
      restUntil = Date.now() + Math.min(STORE_RETRY_MS * 2 ** failures++, MAX_REST_MS);
      if (!warned) log.warn?.(`the cache store failed (${describeThrown(error)}); answering from the service until it answers again`);
      warned = true;
      return undefined;
    };
    if (!store || Date.now() < restUntil) return undefined;
    try {
      const result = run(store);
      return typeof (result as Promise<T> | undefined)?.then == 'function'
        ? withTimeout(() => result as Promise<T>, ms).then(answered, failed)
        : answered(result as T);
    } catch (error) {
      return failed(error);
    }
  }

  /** A hit's result for one caller. */
  function hit(data: unknown, answer: Answer, accept: string): WithResponse<unknown> {
    const result = hitResult(data, answer, accept);
    hits.add(result);
    return result;
  }

  async function fly(
    flight: Flight,
    flightKey: string,
    key: string,
    request: OutgoingRequest,
    mode: CacheMode,
    load: Load,
    check: Check,
    /** The store's answer when `read` asked it already (a promise, from a store that answers later), else `false`. */
    asked: string | undefined | Promise<string | undefined> | false,
  ): Promise<Answer> {
    const signal = flight.controller?.signal;
    const claims = mode == 'default' && store?.claim !== undefined;
    try {
      const scopeOf = store ? (scope ?? (await scoped)) : '';
      const full = `${scopeOf}:${key}`;
      if (mode == 'default' && store) {
        const waitMs = request.options.timeout ?? config.timeout;
        const lookup =
          asked !== false
            ? asked
            : claims
              ? ask((it) => it.claim!(full, waitMs, signal), waitMs + STORE_TIMEOUT_MS)
              : ask((it) => it.get(full));
        const found = readEntry(await lookup, own ? undefined : check);
        if (found) return found;
      }
      // The fence, read before the request goes: once an invalidation runs, anywhere, the store
      // refuses an answer sent under an older epoch.
      const epoch = store && mode != 'no-store' ? await ask((it) => it.epoch(scopeOf)) : undefined;
      if (!signal?.aborted) stats.misses++; // the request sent, counted once, whoever takes its answer
      let answer: Answer;
      try {
        const { data, response } = await load(signal);
        answer = { data, response, status: response.status, epoch };
      } catch (error) {
        if (claims) void ask((it) => it.release?.(full));
        throw error;
      }
      // Kept unless the call asked not to, the store gave no epoch, or it shows the token (a
      // service that echoes it); a claim not ended by a `set` is given up.
      const text = epoch !== undefined ? (answer.text = entryText(answer)) : '';
      if (text && !showsToken(text)) void ask((it) => it.set(full, text, ttlMs, epoch!));
      else if (claims) void ask((it) => it.release?.(full));
      return answer;
    } finally {
      // Gone from the map as it settles: a call that comes later starts afresh, or hits.
      if (flights.get(flightKey) === flight) flights.delete(flightKey);
    }
  }

  function join(
    flight: Flight,
    flightKey: string,
    request: OutgoingRequest,
    load: Load,
    /** For a call that joined a flight already out: where it was called from. */
    joined?: { stack?: string },
  ): Promise<WithResponse<unknown>> {
    const { signal } = request.options;
    flight.callers++;
    return new Promise((resolve, reject) => {
      let waiting = true;
      /** Leaves the flight; with no caller left, the request goes, and a call that comes later starts its own. */
      const leave = () => {
        waiting = false;
        signal?.removeEventListener('abort', abort);
        if (--flight.callers) return;
        flight.controller?.abort();
        if (flights.get(flightKey) === flight) flights.delete(flightKey);
      };
      // The caller's own abort: the transport's AbortError, as for any aborted call (nothing is sent).
      const abort = () => {
        leave();
        resolve(load(signal));
      };
      signal?.addEventListener('abort', abort, { once: true });
      flight.answer.then(
        (answer) => {
          if (!waiting) return;
          const isHit = answer.response === undefined;
          if (isHit) stats.hits++;
          else if (joined) stats.coalesced++;
          // With more than one caller, the text is made before the result is handed to anyone.
          if (flight.callers > 1 || flight.handed) answer.text ??= entryText(answer);
          const data = flight.handed ? readEntry(answer.text)!.data : answer.data;
          flight.handed = true;
          leave();
          const result = isHit ? hit(data, answer, request.accept) : { data, response: answer.response! };
          if (answer.epoch !== undefined) epochs.set(result, answer.epoch);
          resolve(result);
        },
        (error: unknown) => {
          if (!waiting) return;
          if (joined) stats.coalesced++;
          // A joined caller's is always a copy, with a stack from its own call, even when the
          // caller that started the flight left first.
          const own = flight.handed || joined ? ownCopy(error, joined) : error;
          flight.handed = true;
          leave();
          reject(own);
        },
      );
    });
  }

  function read(request: OutgoingRequest, load: Load, check: Check, method?: Caller): Promise<WithResponse<unknown>> {
    const { options } = request;
    const key = `${request.endpoint}:${request.path}${request.query}`;
    // Not shared: writes, calls with headers (see `RequestOptions.headers`), calls already aborted
    // (the door answers them, sending nothing), and a path that holds the token (a careless id).
    if (request.method != 'GET' || options.headers || options.signal?.aborted || showsToken(key)) {
      return load(options.signal);
    }
    // A health probe reports the state now: its own request, never shared, never stored.
    if (request.probe) {
      stats.misses++;
      return load(options.signal);
    }
    const mode = options.cache ?? 'default';
    const flightKey = `${key} ${options.timeout} ${options.maxRetries}`;
    const current = mode == 'default' ? flights.get(flightKey) : undefined;
    if (current) return join(current, flightKey, request, load, callSite(method ?? read));
    // A store that answers at once (the in-process one) answers a hit here, with no flight; a
    // later answer (a promise) is the flight's to await.
    const asked = mode == 'default' && scope !== undefined && !store?.claim && ask((it) => it.get(`${scope}:${key}`));
    const entry = typeof asked == 'string' ? readEntry(asked, own ? undefined : check) : undefined;
    if (entry) {
      stats.hits++;
      return Promise.resolve(hit(entry.data, entry, request.accept));
    }
    const flight: Flight = { answer: undefined!, controller: options.signal && new AbortController(), callers: 0 };
    flight.answer = fly(flight, flightKey, key, request, mode, load, check, typeof asked == 'string' ? undefined : asked);
    flights.set(flightKey, flight);
    return join(flight, flightKey, request, load);
  }

  const control: ClientCache = {
    async invalidate(prefix = '') {
      const kind = typeof prefix == 'string' ? (prefix ? config.kindOf(prefix) : 'group') : undefined;
      if (!kind) {
        throw new InvalidArgumentError(
          `cache.invalidate: ${describe(prefix)} names no group or method of the client (e.g. 'members', 'members.get')`,
        );
      }
      const level = prefix && prefix + (kind == 'method' ? ':' : '.');
      for (const key of flights.keys()) if (key.startsWith(level)) flights.delete(key);
      if (!store) return;
      try {
        const key = `${await scoped}:${level}`;
        await withTimeout(() => store.invalidate(key), STORE_TIMEOUT_MS);
      } catch (error) {
        const what = prefix ? `the entries of ${prefix}` : 'every entry';
        throw redactError(
          new CommunityServerError(`the cache store failed to invalidate ${what} (${describeThrown(error)})`, { cause: error }),
          token,
        );
      }
    },
    stats: () => ({ ...stats }),
  };

  return {
    read,
    remember(name, path, data, epoch) {
      const key = `${name}:${path}`;
      const text = entryText({ status: 200, data });
      if (scope && !showsToken(key + text)) void ask((it) => it.set(`${scope}:${key}`, text, ttlMs, epoch));
    },
    isHit: (result) => hits.has(result),
    epochOf: (result) => epochs.get(result),
    enabled: !!store,
    control,
  };
}
