/**
 * One process of a fleet sharing a cache in Redis (test/redis/cache.test.ts): a client on
 * `redisCacheStore` that, told "go" on stdin, asks the HTTP mock for one member and prints
 * `{ member, stats }` as JSON. Argument, as JSON: `{ baseUrl, token, redisUrl, library, prefix, memberId }`.
 */
import { CommunityServerClient } from 'community-server-sdk';
import { redisCacheStore } from 'community-server-sdk/redis';
import { connectRedis } from '../../bench/connect-redis';

const { baseUrl, token, redisUrl, library, prefix, memberId } = JSON.parse(process.argv[2] ?? '{}') as {
  baseUrl: string;
  token: string;
  redisUrl: string;
  library: 'ioredis' | 'redis';
  prefix: string;
  memberId: string;
};

const { redis, close } = await connectRedis(library, redisUrl);
const client = new CommunityServerClient({ token, baseUrl, cache: { ttlMs: 60_000, store: redisCacheStore(redis, { prefix }) } });
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const member = await client.members.get(memberId);
process.stdout.write(`${JSON.stringify({ member, stats: client.cache.stats() })}\n`);
await close().catch(() => {});
