/**
 * The response cache of a client given the `cache` option: the {@link CacheLayer} coalescing
 * (`coalesce.ts`) runs its flights through. Loaded only then (a dynamic import, split into a
 * chunk of its own, started when the client is made): a client without the option never carries
 * its store, TTLs or fences, and its calls never wait for it.
 *
 * A flight's cache lookup comes first, then (on a miss) its request, its parsed and validated
 * result, and the entry it leaves in the store. Entries are the JSON text `{ v, s, t, d }`
 * (format, status, when stored, the result), keyed `<scope>:<method>:<path and query>` (see
 * `CacheStore`), `<scope>` the token's identity. A flight reads the store's epoch before it sends,
 * and stores its answer under that epoch only (the store refuses it once an invalidation ran
 * since), so an answer fetched before an invalidation is never stored after it, by this client or
 * any other on the store. An entry of a store other than the client's own in-process one may
 * have been written by a client with another validation, or by anyone: it is checked as this
 * client checks an answer, and one that fails is a miss.
 * @module
 */
import type { WithResponse } from './api-promise';
import type { CacheOptions } from './cache-options';
import type { CacheStore } from './cache-store';
import { memoryStore } from './memory-store';
import { entryText, readEntry, type Answer, type CacheLayer } from './coalesce';
import { CommunityServerError } from './error-base';
import type { Log } from './log';
import { STORE_RETRY_MS, STORE_TIMEOUT_MS } from './rate-limit-store';
import { describeThrown } from './describe';
import { redactError } from './redact';
import { withTimeout } from './sleep';

export interface CacheConfig {
  options: CacheOptions;
  /** The token's identity (`tokenIdentity`): what the store's keys name it by. */
  identity: Promise<string>;
  token: string | undefined;
  /** Where a failing store is reported, once. */
  log: Log;
  /** Whether a key or text shows the token: then it is never a key nor a value of the store. */
  showsToken: (text: string) => boolean;
}

const DEFAULT_MAX_ENTRIES = 1000;
/** The longest a failing store rests before the next call tries it again. */
const MAX_REST_MS = 8_000;

/**
 * What a hit's `withResponse()` shows: the stored status, `x-cache: hit`, and `age` (seconds
 * since it was stored, as HTTP caches say it); no body, and none of the service's headers (a
 * hit spent no request: it has no rate-limit headers of its own). Built when first read. A class,
 * not an object with a getter of its own: a hit makes one, and a class's is several times cheaper
 * to make; being one is also what marks a result as a hit.
 */
class HitResult implements WithResponse<unknown> {
  readonly data: unknown;
  readonly #answer: Answer;
  readonly #accept: string;
  #response: Response | undefined;

  constructor(data: unknown, answer: Answer, accept: string) {
    this.data = data;
    this.#answer = answer;
    this.#accept = accept;
  }

  get response(): Response {
    const { status, storedAt = 0 } = this.#answer;
    const age = String(Math.max(0, Math.floor((Date.now() - storedAt) / 1000)));
    return (this.#response ??= new Response(null, { status, headers: { 'content-type': this.#accept, 'x-cache': 'hit', age } }));
  }
}

export function createCacheLayer(config: CacheConfig): CacheLayer {
  const { options, token, log, showsToken } = config;
  const store: CacheStore = options.store ?? memoryStore(options.maxEntries ?? DEFAULT_MAX_ENTRIES);
  const { ttlMs } = options;
  /** Whether the entries are this client's own (its in-process store): checked when stored, not again when read. */
  const own = options.store === undefined;
  let scope: string | undefined;
  const scoped = config.identity.then((identity) => (scope = identity));
  /** While the store rests after failures (0.5 s, doubling to 8 s), calls answer from the service alone. */
  let restUntil = 0;
  let failures = 0;
  let warned = false;

  // Made once, not per store call: a hit asks the store on every call.
  const answered = <T>(value: T): T => {
    if (failures) log.info?.('the cache store answers again');
    failures = 0;
    return value;
  };
  const failed = (error: unknown): undefined => {
    restUntil = Date.now() + Math.min(STORE_RETRY_MS * 2 ** failures++, MAX_REST_MS);
    if (!warned) log.warn?.(`the cache store failed (${describeThrown(error)}); answering from the service until it answers again`);
    warned = true;
    return undefined;
  };

  /** A store call, bounded by `ms`: its answer at once when it gives one at once; a failure reads as nothing. */
  function ask<T>(run: (store: CacheStore) => T | Promise<T>, ms = STORE_TIMEOUT_MS): T | Promise<T | undefined> | undefined {
    if (Date.now() < restUntil) return undefined;
    try {
      const result = run(store);
      return typeof (result as Promise<T> | undefined)?.then == 'function'
        ? withTimeout(() => result as Promise<T>, ms).then(answered, failed)
        : answered(result as T);
    } catch (error) {
      return failed(error);
    }
  }

  return {
    peek(key, check) {
      // Asked here only of a store with no claims, once the scope is known; else the flight asks.
      const asked = scope !== undefined && !store.claim && ask((it) => it.get(`${scope}:${key}`));
      if (typeof asked == 'string') return readEntry(asked, own ? undefined : check) ?? false;
      return asked instanceof Promise ? asked : false;
    },

    async fly(key, request, mode, send, check, asked, signal, sent) {
      const claims = mode == 'default' && store.claim !== undefined;
      const scopeOf = scope ?? (await scoped);
      const full = `${scopeOf}:${key}`;
      if (mode == 'default') {
        const waitMs = request.timeout;
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
      const epoch = mode != 'no-store' ? await ask((it) => it.epoch(scopeOf)) : undefined;
      sent();
      let answer: Answer;
      try {
        answer = { ...(await send()), epoch };
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
    },

    hit: (data, answer, accept) => new HitResult(data, answer, accept),

    remember(name, path, data, epoch) {
      const key = `${name}:${path}`;
      const text = entryText({ status: 200, data });
      if (scope && !showsToken(key + text)) void ask((it) => it.set(`${scope}:${key}`, text, ttlMs, epoch));
    },

    async invalidate(level, prefix) {
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

    isHit: (result) => result instanceof HitResult,
  };
}
