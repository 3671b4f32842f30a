/**
 * Coalescing, between a call (`call.ts`) and the wire (`transport.ts`): always on, with or
 * without the `cache` option.
 *
 * A GET is a flight: its request and its parsed and validated result. Identical GETs (same
 * method, path and query, same per-attempt `timeout` and `maxRetries`, on this client, so one
 * token) that arrive while a flight is out join it rather than start their own: the flight runs
 * once, without any caller's signal, and is aborted when its last caller leaves. Each caller gets
 * an answer of its own: the first the result as parsed, the others a copy (one JSON text, parsed
 * once per caller), and a failure as an error of its own (own fields, and a stack from the
 * caller's own call). A caller whose signal aborts (or whose deadline passes) leaves with the
 * error any such call gets, from the transport's door. Health probes are neither shared nor cached:
 * each reports the state when it is asked.
 *
 * With the `cache` option, a {@link CacheLayer} (`cache.ts`, loaded then) answers from its store
 * before a flight starts, and runs each flight's lookup, fence and store around its request.
 * @module
 */
import type { WithResponse } from './api-promise';
import type { CacheStats, ClientCache } from './cache-options';
import { InvalidArgumentError } from './error-base';
import { describe } from './describe';
import type { OutgoingRequest } from './request';
import type { CacheMode } from './types';

/** Sends the call (through the transport's door) with `signal` as its own. */
export type Load = (signal: AbortSignal | undefined) => Promise<WithResponse<unknown>>;

/**
 * A cached result as the client's own validation gives it (a hit from a store others write to);
 * throws when it would not be one: the call then sends its request.
 */
export type Check = (data: unknown, status: number) => unknown;

/** A function on the stack of a call: a stack captured from inside it starts at its caller. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any function at all
export type Caller = (...args: any[]) => unknown;

/** What a flight ends with: the result as parsed (for its first caller), and its entry's text once made. */
export interface Answer {
  data: unknown;
  /** The service's; for a hit, none: each caller's is built when read (`CacheLayer.hit`). */
  response?: Response | undefined;
  status: number;
  /** For a hit, when it was stored. */
  storedAt?: number | undefined;
  text?: string | undefined;
  /** The store's epoch, read before the request was sent (none: the answer is not to be stored). */
  epoch?: string | undefined;
}

/**
 * The cache of a client given the `cache` option (`cache.ts`): what coalescing asks of it. `key`
 * is the request's (`<method>:<path and query>`).
 */
export interface CacheLayer {
  /**
   * Before a `'default'` GET starts a flight: a hit the store answers at once, or what the flight
   * should await of it (a promise), or `false` when the flight is to ask itself.
   */
  peek(key: string, check: Check): Answer | Promise<string | undefined> | false;
  /** A flight's work: its lookup (`asked`, `peek`'s promise, or its own), the fence, the request (`send`), the store. */
  fly(
    key: string,
    request: OutgoingRequest,
    mode: CacheMode,
    send: () => Promise<Answer>,
    check: Check,
    asked: Promise<string | undefined> | false,
    signal: AbortSignal | undefined,
    sent: () => void,
  ): Promise<Answer>;
  /** A hit's result for one caller. */
  hit(data: unknown, answer: Answer, accept: string): WithResponse<unknown>;
  remember(name: string, path: string, data: unknown, epoch: string): void;
  /** Drops the store's entries under `level` (a key prefix ending at `:` or `.`). */
  invalidate(level: string, prefix: string): Promise<void>;
  isHit(result: object): boolean;
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
  /** `client.cache`. */
  readonly control: ClientCache;
  /** The layer of the `cache` option, once loaded (see {@link CacheLayer}); a promise while it loads. */
  layer: CacheLayer | Promise<CacheLayer> | undefined;
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

const ENTRY_FORMAT = 1;

/** A flight's answer from the transport's result: its data and response, and the status an entry keeps. */
const asAnswer = ({ data, response }: WithResponse<unknown>): Answer => ({ data, response, status: response.status });

/** An answer as the JSON text `{ v, s, t, d }` (format, status, when stored, the result): a store's entry, and a joined caller's copy. */
export const entryText = ({ status, data }: Answer) => JSON.stringify({ v: ENTRY_FORMAT, s: status, t: Date.now(), d: data });

/**
 * The answer an entry holds, or `undefined` for text that is not one (another format, damaged):
 * a miss. With `check`, its result as `check` gives it, and a result `check` refuses is a miss too.
 */
export function readEntry(text: unknown, check?: Check): Answer | undefined {
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

/** What a dotted name (`members`, `members.get`) names for `invalidate`: a group, a method, or nothing. */
export type KindOf = (name: string) => 'group' | 'method' | undefined;

/**
 * Coalescing (and, once its layer loads, the cache) of one client and those `withOptions` derives
 * from it. `showsToken` tells a key or text that shows the token: never shared, never stored.
 */
export function createCoalescer(showsToken: (text: string) => boolean, kindOf: KindOf | undefined): Cache {
  const flights = new Map<string, Flight>();
  const stats = { hits: 0, misses: 0, coalesced: 0 };
  /** The epoch each result's request was sent under (`epochOf`). */
  const epochs = new WeakMap<object, string>();
  const control: ClientCache = { invalidate, stats: (): CacheStats => ({ ...stats }) };
  const cache: Cache = { read, remember, isHit, epochOf: (result) => epochs.get(result), control, layer: undefined };
  /** The layer, if loaded; `undefined` without the option or while it loads. */
  const layer = () =>
    typeof (cache.layer as Promise<CacheLayer> | undefined)?.then == 'function' ? undefined : (cache.layer as CacheLayer);

  /** Gone from the map: a call that comes later starts afresh, or hits. */
  const forget = (flight: Flight, flightKey: string) => {
    if (flights.get(flightKey) === flight) flights.delete(flightKey);
  };

  /** Runs the flight: through the cache's layer when loaded, else its request alone; gone from the map as it settles. */
  function fly(
    flight: Flight,
    flightKey: string,
    key: string,
    request: OutgoingRequest,
    mode: CacheMode,
    load: Load,
    check: Check,
    asked: Promise<string | undefined> | false,
  ): Promise<Answer> {
    const signal = flight.controller?.signal;
    const send = () => load(signal).then(asAnswer);
    const sent = () => void (signal?.aborted || stats.misses++); // the request sent, counted once, whoever takes its answer
    const cached = layer();
    const answer = cached ? cached.fly(key, request, mode, send, check, asked, signal, sent) : (sent(), send());
    // Registered first, so it runs before any caller's.
    const land = () => forget(flight, flightKey);
    answer.then(land, land);
    return answer;
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
    let waiting = true;
    let early: (result: Promise<WithResponse<unknown>>) => void;
    /** Leaves the flight; with no caller left, the request goes, and a call that comes later starts its own. */
    const leave = () => {
      waiting = false;
      signal?.removeEventListener('abort', abort);
      if (--flight.callers) return;
      flight.controller?.abort();
      forget(flight, flightKey);
    };
    // The caller's own abort: the transport's error, as for any aborted call (nothing is sent).
    const abort = () => {
      leave();
      early(load(signal));
    };
    const settled = flight.answer.then(
      (answer) => {
        if (!waiting) return undefined!;
        const isHit = answer.response === undefined;
        if (isHit) stats.hits++;
        else if (joined) stats.coalesced++;
        // With more than one caller, the text is made before the result is handed to anyone.
        if (flight.callers > 1 || flight.handed) answer.text ??= entryText(answer);
        const data = flight.handed ? readEntry(answer.text)!.data : answer.data;
        flight.handed = true;
        leave();
        const result = isHit ? layer()!.hit(data, answer, request.accept) : { data, response: answer.response! };
        if (answer.epoch !== undefined) epochs.set(result, answer.epoch);
        return result;
      },
      (error: unknown) => {
        if (!waiting) return undefined!;
        if (joined) stats.coalesced++;
        // A joined caller's is always a copy, with a stack from its own call, even when the
        // caller that started the flight left first.
        const own = flight.handed || joined ? ownCopy(error, joined) : error;
        flight.handed = true;
        leave();
        throw own;
      },
    );
    // A caller without a signal never leaves early: the flight's answer is its own, with no promise more.
    if (!signal) return settled;
    signal.addEventListener('abort', abort, { once: true });
    return new Promise((resolve, reject) => {
      early = resolve;
      settled.then(resolve, reject);
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
    // The layer still loading (the first calls of a client given `cache`): they wait for it.
    const loading = cache.layer && !layer() ? (cache.layer as Promise<CacheLayer>) : undefined;
    if (loading) return loading.then(() => read(request, load, check, method));
    const mode = options.cache ?? 'default';
    const flightKey = `${key} ${request.timeout} ${request.maxRetries}`;
    const current = mode == 'default' ? flights.get(flightKey) : undefined;
    if (current) return join(current, flightKey, request, load, callSite(method ?? read));
    // A store that answers at once (the in-process one) answers a hit here, with no flight; a
    // later answer (a promise) is the flight's to await.
    const asked = mode == 'default' ? (layer()?.peek(key, check) ?? false) : false;
    if (asked && !(asked instanceof Promise)) {
      stats.hits++;
      return Promise.resolve(layer()!.hit(asked.data, asked, request.accept));
    }
    const flight: Flight = { answer: undefined!, controller: options.signal && new AbortController(), callers: 0 };
    flight.answer = fly(flight, flightKey, key, request, mode, load, check, asked);
    flights.set(flightKey, flight);
    return join(flight, flightKey, request, load);
  }

  function remember(name: string, path: string, data: unknown, epoch: string): void {
    layer()?.remember(name, path, data, epoch);
  }

  function isHit(result: object): boolean {
    return layer()?.isHit(result) ?? false;
  }

  async function invalidate(prefix = ''): Promise<void> {
    // Without the client's table (a core of `/core`), any dotted name: it drops that group and that method.
    const kind =
      typeof prefix == 'string' ? (prefix ? (kindOf ? kindOf(prefix) : /^\w+(\.\w+)*$/.test(prefix) && 'name') : 'group') : undefined;
    if (!kind) {
      throw new InvalidArgumentError(
        `cache.invalidate: ${describe(prefix)} names no group or method of the client (e.g. 'members', 'members.get')`,
      );
    }
    const levels = prefix ? (kind == 'name' ? [`${prefix}.`, `${prefix}:`] : [prefix + (kind == 'method' ? ':' : '.')]) : [''];
    for (const key of flights.keys()) if (levels.some((level) => key.startsWith(level))) flights.delete(key);
    const cached = await cache.layer;
    for (const level of levels) await cached?.invalidate(level, prefix);
  }

  return cache;
}
