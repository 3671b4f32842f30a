/**
 * A fleet process's connection to Redis, on either library (bench/fleet-worker.ts,
 * test/redis/cache-worker.ts), and how to close it so that what it sent without waiting still lands.
 */
import type { RedisClient } from 'community-server-sdk/redis';

/** Connects with `library` (`ioredis`, or `redis`: node-redis) to `url`. */
export async function connectRedis(
  library: 'ioredis' | 'redis',
  url: string,
): Promise<{ redis: RedisClient; close: () => Promise<unknown> }> {
  if (library === 'ioredis') {
    const { Redis } = await import('ioredis');
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    return { redis, close: () => redis.quit() };
  }
  const { createClient } = await import('redis');
  const redis = createClient({ url });
  redis.on('error', () => {}); // a lost connection is the store's to report
  await redis.connect();
  // Closed gracefully, so the last answer's record (sent without waiting) still reaches Redis.
  return { redis, close: () => redis.close() };
}
