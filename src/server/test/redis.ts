import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';

/**
 * The Redis the production-like (PostgreSQL) test run uses: the local one unless TEST_REDIS_URL names another.
 * Each test file counts under a random key prefix of its own and deletes its keys afterwards.
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Tests that need Redis run with the PostgreSQL suite, where a missing Redis fails them. */
export const withRedis = Boolean(process.env.TEST_DATABASE_URL);

function testRedisPrefix(label: string): string {
  return `flujo-test-${label}-${randomBytes(6).toString('hex')}:`;
}

/** A client of the test's own, once Redis has answered a PING; a Redis that does not answer fails the test. */
async function connectTestRedis(): Promise<Redis> {
  const client = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await client.connect();
    if ((await client.ping()) !== 'PONG') throw new Error('no PONG');
  } catch (err) {
    client.disconnect();
    throw new Error(
      `these tests need Redis at ${TEST_REDIS_URL} (the PostgreSQL run uses it; set TEST_REDIS_URL for another): ${(err as Error).message}`,
      { cause: err },
    );
  }
  return client;
}

/** Every key under `prefix`. */
export async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

async function deleteKeysUnder(client: Redis, prefix: string): Promise<void> {
  const keys = await keysUnder(client, prefix);
  if (keys.length > 0) await client.del(...keys);
}

export interface TestRedis {
  /** The file's key prefix (`testRedisPrefix`): what it configures its limiters with. */
  prefix: string;
  /** The file's own client (`connectTestRedis`), there once the tests run. */
  client: Redis;
}

/**
 * Redis for a test file: connected before its tests, and after them every key under the file's prefix is
 * deleted and the client disconnects.
 */
export function useTestRedis(label: string): TestRedis {
  const redis = { prefix: testRedisPrefix(label) } as TestRedis;
  beforeAll(async () => {
    redis.client = await connectTestRedis();
  });
  afterAll(async () => {
    if (!redis.client) return;
    await deleteKeysUnder(redis.client, redis.prefix);
    redis.client.disconnect();
  });
  return redis;
}
