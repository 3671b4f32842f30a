/**
 * What a suite against a real `redis-server` sets up (test/redis/rate-limit-store.test.ts, cache.test.ts, fleet.test.ts):
 * one throwaway server for the file (skipped with the reason where the binary is missing, failing
 * in CI), connections of either library that reconnect every 50 ms, a way to the server that can
 * be cut off for a while (a process paused, or a network partition), and a list of what to close
 * after each test, last first.
 */
import { connect as connectTcp, createServer, type Server, type Socket } from 'node:net';
import type { RedisClient } from 'community-server-sdk/redis';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, type TestContext } from 'vitest';
import { redisMissing, startRedis, type RedisServer } from './server';

export type Library = 'ioredis' | 'redis';

/** Registers the file's hooks; call it once, at the top of a test file. */
export function useRedis() {
  const missing = redisMissing();
  if (missing && process.env.CI) throw new Error(`redis-server is required in CI: ${missing}`);
  let server: RedisServer | undefined;
  const closing: { close(): unknown }[] = [];
  beforeAll(async () => {
    if (!missing) server = await startRedis();
  }, 20_000);
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    // Last opened, first closed: a watch leaves before its connection goes.
    for (const item of closing.splice(0).reverse()) await item.close();
  });
  return {
    /** Closed after the current test. */
    closing,
    /** The file's server; skips the test, with the reason, where there is none. */
    skipWithoutRedis: (context: TestContext): RedisServer => {
      if (!server) context.skip(`redis-server not available here: ${missing}`);
      return server;
    },
    /**
     * An ioredis connection to a server that accepts connections and never answers (a hung
     * Redis); both closed after the test.
     */
    hungRedis: async (): Promise<Redis> => {
      const sockets: Socket[] = [];
      const silent: Server = createServer((socket) => void sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      closing.push({
        close: () => {
          for (const socket of sockets) socket.destroy();
          return new Promise((resolve) => silent.close(resolve));
        },
      });
      const { port } = silent.address() as { port: number };
      const ioredis = new Redis(port, '127.0.0.1', { connectTimeout: 60_000 });
      ioredis.on('error', () => {});
      closing.push({ close: () => ioredis.disconnect() });
      return ioredis;
    },
    /**
     * A way to the server at `url` that `pause()` holds up both ways, as a network partition or
     * a frozen process would: what is sent meanwhile waits, and arrives on `resume()`. Closed
     * after the test.
     */
    pausable: async (url: string): Promise<{ url: string; pause(): void; resume(): void }> => {
      const { port, hostname } = new URL(url);
      const sockets: Socket[] = [];
      /** What arrived while paused, to send on: each with the socket it goes to. */
      const held: [Socket, Buffer][] = [];
      let paused = false;
      const proxy: Server = createServer((socket) => {
        const upstream = connectTcp(Number(port), hostname);
        for (const [from, to] of [
          [socket, upstream],
          [upstream, socket],
        ] as const) {
          sockets.push(from);
          from.on('data', (chunk: Buffer) => (paused ? held.push([to, chunk]) : to.write(chunk)));
          from.on('error', () => to.destroy());
          from.on('close', () => to.destroy());
        }
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      closing.push({
        close: () => {
          for (const socket of sockets) socket.destroy();
          return new Promise((resolve) => proxy.close(resolve));
        },
      });
      return {
        url: `redis://127.0.0.1:${(proxy.address() as { port: number }).port}`,
        pause: () => void (paused = true),
        resume: () => {
          paused = false;
          for (const [to, chunk] of held.splice(0)) if (!to.destroyed) to.write(chunk);
        },
      };
    },
    /**
     * A client connection of either library, closed after the test. Both reconnect every 50 ms
     * (their defaults back off to seconds), so a test sees the rejoin within its run.
     */
    connect: async (library: Library, url: string): Promise<RedisClient> => {
      if (library === 'ioredis') {
        const redis = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
        redis.on('error', () => {});
        closing.push({ close: () => redis.disconnect() });
        return redis;
      }
      const redis = createClient({ url, socket: { reconnectStrategy: () => 50 } });
      redis.on('error', () => {}); // node-redis ends the process on an unheard 'error'
      closing.push({ close: () => (redis.isOpen ? redis.destroy() : undefined) });
      await redis.connect();
      return redis;
    },
  };
}
