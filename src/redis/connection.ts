/**
 * The one door to the caller's Redis client, ioredis or node-redis, neither imported: Lua
 * scripts (`EVALSHA`, `EVAL` when Redis lacks the script), refused at once while disconnected;
 * and, for a fleet's blocking reads, a connection of its own made by the client's `duplicate()`.
 * @module
 */
import { InvalidArgumentError } from '../core/errors';

/**
 * A connected Redis client: an ioredis 5 `Redis` (or `Cluster`), or a node-redis client, 6.2 or
 * later (earlier ones can stop reconnecting after Redis restarts: the peer range is `^6.2.0`).
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

/** A Lua script and its SHA-1 (taken on first use). */
export interface Script {
  readonly text: string;
  sha(): Promise<string>;
}

export function script(text: string): Script {
  let sha: Promise<string> | undefined;
  return { text, sha: () => (sha ??= sha1(text)) };
}

/** Runs a script with its keys and string arguments. */
export type Run = (script: Script, keys: string[], args: string[]) => Promise<unknown>;

/** Whether `redis` has the methods named, as functions. */
export const hasMethods = (redis: unknown, ...names: string[]) =>
  names.every((name) => typeof (redis as Record<string, unknown> | null)?.[name] === 'function');

/** Whether `redis` looks like an ioredis or node-redis client (with eval and evalsha/evalSha). */
export const isRedisClient = (redis: unknown): redis is RedisClient =>
  hasMethods(redis, 'eval') && (hasMethods(redis, 'evalsha') || hasMethods(redis, 'evalSha'));

/** Throws `InvalidArgumentError` unless `redis` looks like an ioredis or node-redis client; `what` names the caller. */
export function checkRedisClient(redis: unknown, what: string): asserts redis is RedisClient {
  if (!isRedisClient(redis)) {
    throw new InvalidArgumentError(`${what} needs an ioredis or node-redis client (with eval and evalsha/evalSha)`);
  }
}

const isNodeRedis = (redis: RedisClient) => hasMethods(redis, 'evalSha');

/**
 * Refuses at once while the client is not connected. Both libraries would queue the command and
 * send it on reconnecting: a spend would then wait out the store's timeout, and a record would
 * reach Redis late, its `resetInMs` stale, and open a window that is not the service's.
 */
function connected(state: string | boolean | undefined): void {
  if (state !== undefined && state !== true && state !== 'ready') throw new Error(`Redis is not connected (${String(state)})`);
}

export function runner(redis: RedisClient): Run {
  if (isNodeRedis(redis)) {
    // node-redis: options objects.
    const client = redis as unknown as {
      isReady?: boolean;
      evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
      eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
    };
    return async (script, keys, args) => {
      connected(client.isReady);
      return orLoad(client.evalSha(await script.sha(), { keys, arguments: args }), () =>
        client.eval(script.text, { keys, arguments: args }),
      );
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
  return async (script, keys, args) => {
    wasReady ||= client.status === 'ready';
    if (wasReady) connected(client.status);
    return orLoad(client.evalsha(await script.sha(), keys.length, ...keys, ...args), () =>
      client.eval(script.text, keys.length, ...keys, ...args),
    );
  };
}

/** Runs the one script `text` on `redis`, with its keys and string arguments. */
export function scriptRunner(redis: RedisClient, text: string): (keys: string[], args: string[]) => Promise<unknown> {
  const run = runner(redis);
  const lua = script(text);
  return (keys, args) => run(lua, keys, args);
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

/** A connection for commands that block it (`XREAD BLOCK`), so that they hold up nothing else. */
export interface BlockingConnection {
  /** Sends one command (its words as strings); the connection is made on first use. */
  send(words: string[]): Promise<unknown>;
  /** Closes it: a command in flight rejects. The next `send` makes a new one. */
  close(): void;
}

/** A {@link BlockingConnection} from the caller's client, by its `duplicate()` (same server, same options). */
export function blockingConnection(redis: RedisClient): BlockingConnection {
  let current: { send(words: string[]): Promise<unknown>; close(): void } | undefined;
  const open = () => {
    if (isNodeRedis(redis)) {
      const copy = (redis as unknown as { duplicate(): NodeRedisCopy }).duplicate();
      copy.on('error', () => {}); // node-redis ends the process on an unheard 'error'; a failure is the send's to report
      const ready = copy.connect();
      ready.catch(() => undefined);
      return {
        send: async (words: string[]) => {
          await ready;
          return copy.sendCommand(words);
        },
        close: () => void Promise.resolve((copy.destroy ?? copy.disconnect).call(copy)).catch(() => undefined),
      };
    }
    const copy = (redis as unknown as { duplicate(): IoredisCopy }).duplicate();
    copy.on('error', () => {});
    return { send: (words: string[]) => copy.call(...(words as [string, ...string[]])), close: () => copy.disconnect() };
  };
  return {
    send: (words) => (current ??= open()).send(words),
    close: () => {
      current?.close();
      current = undefined;
    },
  };
}

interface NodeRedisCopy {
  on(event: 'error', listener: () => void): unknown;
  connect(): Promise<unknown>;
  sendCommand(words: string[]): Promise<unknown>;
  destroy?: () => unknown;
  disconnect: () => unknown;
}

interface IoredisCopy {
  on(event: 'error', listener: () => void): unknown;
  call(command: string, ...args: string[]): Promise<unknown>;
  disconnect(): void;
}
