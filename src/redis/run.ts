/**
 * What every store of `community-server-sdk/redis` needs of a Redis client: its shape (ioredis
 * or node-redis, neither imported), and one Lua script run atomically on the server by
 * `EVALSHA`, or `EVAL` once a Redis lacks it.
 * @module
 */
import { InvalidArgumentError } from '../core/errors';

/**
 * A connected Redis client: an ioredis `Redis` (or `Cluster`), or a node-redis v4, v5 or v6 client
 * (6.2 or later reconnects reliably after Redis restarts).
 * Only the shape is named (any `eval` and `evalsha`/`evalSha`): the libraries' own signatures
 * are many-overloaded, and neither is imported.
 * @example
 * import { createClient } from 'redis';
 * const redis: RedisClient = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).connect();
 */
export type RedisClient =
  | {
      /** ioredis: `EVALSHA sha numkeys key… arg…`. */
      evalsha: (...args: never[]) => unknown;
      /** ioredis: `EVAL script numkeys key… arg…`. */
      eval: (...args: never[]) => unknown;
    }
  | {
      /** node-redis: `evalSha(sha, { keys, arguments })`. */
      evalSha: (...args: never[]) => unknown;
      /** node-redis: `eval(script, { keys, arguments })`. */
      eval: (...args: never[]) => unknown;
    };

/** Runs the script with its keys and string arguments. */
export type Run = (keys: string[], args: string[]) => Promise<unknown>;

/** Throws `InvalidArgumentError` unless `redis` has the shape of an ioredis or node-redis client; `what` names the caller. */
export function checkRedisClient(redis: unknown, what: string): asserts redis is RedisClient {
  const shaped = (name: string) => typeof (redis as Record<string, unknown> | null)?.[name] === 'function';
  if (!(shaped('eval') && (shaped('evalsha') || shaped('evalSha')))) {
    throw new InvalidArgumentError(`${what} needs an ioredis or node-redis client (with eval and evalsha/evalSha)`);
  }
}

/**
 * Refuses at once while the client is not connected. Both libraries would queue the command and
 * send it on reconnecting: a call would then wait out the store's timeout, and an answer it
 * carries (a rate-limit window's reset, say) would reach Redis late and stale.
 */
function connected(state: string | boolean | undefined): void {
  if (state !== undefined && state !== true && state !== 'ready') throw new Error(`Redis is not connected (${String(state)})`);
}

/** A Redis that has not seen the script yet (new, restarted, flushed) answers `NOSCRIPT`: send it whole. */
async function orLoad(attempt: Promise<unknown>, load: () => Promise<unknown>): Promise<unknown> {
  try {
    return await attempt;
  } catch (error) {
    if (error instanceof Error && error.message.includes('NOSCRIPT')) return load();
    throw error;
  }
}

async function sha1(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Runs `script` on `redis`: `EVALSHA`, and `EVAL` once Redis lacks it. */
export function scriptRunner(redis: RedisClient, script: string): Run {
  const sha = sha1(script);
  if (typeof (redis as { evalSha?: unknown }).evalSha === 'function') {
    // node-redis: options objects.
    const client = redis as unknown as {
      isReady?: boolean;
      evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
      eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
    };
    return async (keys, args) => {
      connected(client.isReady);
      return orLoad(client.evalSha(await sha, { keys, arguments: args }), () => client.eval(script, { keys, arguments: args }));
    };
  }
  // ioredis: positional, with the number of keys first. Until its first connection is ready, an
  // ioredis client ('wait' when lazy, else 'connecting') is let queue: nothing is stale yet.
  const client = redis as unknown as {
    status?: string;
    evalsha(sha: string, keys: number, ...args: string[]): Promise<unknown>;
    eval(script: string, keys: number, ...args: string[]): Promise<unknown>;
  };
  let wasReady = false;
  return async (keys, args) => {
    const digest = await sha;
    wasReady ||= client.status === 'ready';
    if (wasReady) connected(client.status);
    return orLoad(client.evalsha(digest, keys.length, ...keys, ...args), () => client.eval(script, keys.length, ...keys, ...args));
  };
}
