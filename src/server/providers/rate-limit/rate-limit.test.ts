import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitStoreConfig } from '#server/config.js';
import { keysUnder, TEST_REDIS_URL, useTestRedis, withRedis } from '#server/test/redis.js';
import { openRateLimits, secondsUntilReset, type RateLimiter, type RateLimits } from './index.js';
import { memoryCounters } from './memory.js';
import type { Counted, NoRoom } from './types.js';

/** A logger whose lines the test reads. */
function capturedLog() {
  const lines: Array<{ level: number; msg: string; err?: { message: string } }> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines, errors: () => lines.filter((l) => l.level >= 50) };
}

const silent = pino({ level: 'silent' });
const T0 = new Date('2026-11-24T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const RULE = { limit: 3, windowMs: 60_000 };

/** What every store must do the same way: the limiter's rules, on the app's clock. */
function behavesAsALimiter(open: () => Promise<RateLimits>) {
  let limits: RateLimits;
  let limiter: RateLimiter;
  beforeAll(async () => {
    limits = await open();
    limiter = limits.limiter('t');
  });
  afterAll(async () => {
    await limits?.close();
  });

  it('lets `limit` hits through in a window that starts at the first, then refuses until it ends', async () => {
    const hits = [];
    for (let i = 0; i < 5; i += 1) hits.push(await limiter.hit('k:basic', RULE, at(i * 1000)));
    expect(hits.map((h) => [h.allowed, h.count])).toEqual([
      [true, 1],
      [true, 2],
      [true, 3],
      [false, 4],
      [false, 5],
    ]);
    expect(new Set(hits.map((h) => h.resetAt))).toEqual(new Set([T0.getTime() + 60_000]));
    // Retry-After counts from the refused hit to the end of the window that began at the first.
    expect(secondsUntilReset(hits[4]!, at(4000))).toBe(56);
    expect((await limiter.hit('k:basic', RULE, at(59_999))).allowed).toBe(false);
    const fresh = await limiter.hit('k:basic', RULE, at(60_000));
    expect(fresh).toMatchObject({ allowed: true, count: 1, resetAt: T0.getTime() + 120_000 });
  });

  it('counts each key apart', async () => {
    for (let i = 0; i < 3; i += 1) await limiter.hit('k:one', RULE, T0);
    expect((await limiter.hit('k:one', RULE, T0)).allowed).toBe(false);
    expect(await limiter.hit('k:two', RULE, T0)).toMatchObject({ allowed: true, count: 1 });
  });

  it('lets exactly `limit` of many concurrent hits through', async () => {
    const hits = await Promise.all(
      Array.from({ length: 40 }, () => limiter.hit('k:burst', { limit: 7, windowMs: 60_000 }, T0)),
    );
    expect(hits.filter((h) => h.allowed)).toHaveLength(7);
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });

  it('takes a hit back within its window only, never below zero', async () => {
    const first = await limiter.hit('k:back', RULE, T0);
    await limiter.hit('k:back', RULE, T0);
    const third = await limiter.hit('k:back', RULE, T0);
    await limiter.giveBack('k:back', third);
    expect(await limiter.hit('k:back', RULE, T0)).toMatchObject({ allowed: true, count: 3 });
    // A hit of an ended window gives nothing back in the next one.
    const next = await limiter.hit('k:back', RULE, at(60_000));
    await limiter.giveBack('k:back', first);
    expect((await limiter.hit('k:back', RULE, at(60_000))).count).toBe(next.count + 1);
    const lone = await limiter.hit('k:zero', RULE, T0);
    await limiter.giveBack('k:zero', lone);
    await limiter.giveBack('k:zero', lone);
    expect((await limiter.hit('k:zero', RULE, T0)).count).toBe(1);
  });

  it('counts the same key apart under another limiter name', async () => {
    for (let i = 0; i < 3; i += 1) await limiter.hit('k:named', RULE, T0);
    expect((await limiter.hit('k:named', RULE, T0)).allowed).toBe(false);
    expect(await limits.limiter('other').hit('k:named', RULE, T0)).toMatchObject({ allowed: true, count: 1 });
  });

  it('follows a rule whose limit changes between hits (a live setting)', async () => {
    await limiter.hit('k:live', { limit: 5, windowMs: 60_000 }, T0);
    await limiter.hit('k:live', { limit: 5, windowMs: 60_000 }, T0);
    expect((await limiter.hit('k:live', { limit: 2, windowMs: 60_000 }, T0)).allowed).toBe(false);
    expect((await limiter.hit('k:live', { limit: 10, windowMs: 60_000 }, T0)).allowed).toBe(true);
  });
}

describe('in memory', () => {
  behavesAsALimiter(() => openRateLimits({ kind: 'memory' }, silent));

  const counted = async (outcome: Promise<Counted | NoRoom>) => {
    const value = await outcome;
    if ('full' in value) throw new Error('no room');
    return value.count;
  };

  it('forgets ended windows, and when full refuses new keys rather than drop a running window', async () => {
    const store = memoryCounters(10);
    for (let i = 0; i < 10; i += 1) await store.increment(`old-${i}`, 1_000 + i, 0);
    // Full: a new key gets no counter and is told when the earliest window ends; the running ones go on.
    expect(await store.increment('new', 1_000, 10)).toEqual({ full: true, retryAt: 1_000 });
    expect(await store.increment('another', 1_000, 999)).toEqual({ full: true, retryAt: 1_000 });
    expect(await counted(store.increment('old-0', 1_000, 20))).toBe(2);
    expect(await counted(store.increment('old-9', 1_000, 20))).toBe(2);
    // Once the earliest window has ended, its room goes to the next new key.
    expect(await counted(store.increment('new', 1_000, 1_000))).toBe(1);
    expect(await counted(store.increment('old-9', 1_000, 1_000))).toBe(3);
    // Once a minute the ended windows go.
    expect(await counted(store.increment('new', 1_000, 70_000))).toBe(1);
    expect(await counted(store.increment('fresh', 1_000, 70_000))).toBe(1);
  });

  it("refuses a full limiter's new keys, keeps its known ones, and leaves the other limiters room", async () => {
    const limits = await openRateLimits({ kind: 'memory' }, silent, { memoryCapacity: 3 });
    try {
      const api = limits.limiter('api');
      for (let i = 0; i < 3; i += 1) await api.hit('k:exhausted', RULE, T0);
      await api.hit('k:b', RULE, T0);
      await api.hit('k:c', RULE, T0);
      const flood = await Promise.all(
        Array.from({ length: 50 }, (_, i) => api.hit(`k:random-${i}`, RULE, at(1_000))),
      );
      expect(flood.every((h) => !h.allowed && h.resetAt === T0.getTime() + 60_000)).toBe(true);
      expect(secondsUntilReset(flood[0]!, at(1_000))).toBe(59);
      // The exhausted key stays exhausted; the flood took nothing from another limiter.
      expect((await api.hit('k:exhausted', RULE, at(2_000))).allowed).toBe(false);
      expect(await limits.limiter('chat').hit('k:random-0', RULE, at(2_000))).toMatchObject({
        allowed: true,
        count: 1,
      });
    } finally {
      await limits.close();
    }
  });
});

describe.runIf(withRedis)('in Redis (the PostgreSQL run, with the local Redis)', () => {
  const redis = useTestRedis('limiter');
  const { prefix } = redis;
  const config: RateLimitStoreConfig = { kind: 'redis', url: TEST_REDIS_URL, keyPrefix: prefix };

  behavesAsALimiter(async () => {
    const limits = await openRateLimits(config, silent);
    expect(limits.kind).toBe('redis');
    return limits;
  });

  it('counts once for every instance on the same Redis and prefix, apart for another prefix', async () => {
    const log = capturedLog();
    const [a, b] = await Promise.all([openRateLimits(config, log.log), openRateLimits(config, log.log)]);
    const elsewhere = await openRateLimits({ ...config, keyPrefix: `${prefix}other:` }, log.log);
    try {
      const now = new Date();
      const hits = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).limiter('t').hit('k:shared', RULE, now)),
      );
      expect(hits.filter((h) => h.allowed)).toHaveLength(3);
      expect((await elsewhere.limiter('t').hit('k:shared', RULE, now)).allowed).toBe(true);
      // The counter is one key under the prefix and the limiter's name, kept no longer than its window.
      const keys = await keysUnder(redis.client, `${prefix}rate:t:k:shared`);
      expect(keys).toEqual([`${prefix}rate:t:k:shared`]);
      const ttl = await redis.client.pttl(keys[0]!);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await redis.client.hget(keys[0]!, 'count')).toBe('10');
      expect(log.errors()).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close(), elsewhere.close()]);
    }
  });

  it('counts in memory while Redis is unreachable, logs it once, and counts shared again once it is back', async () => {
    // A loopback relay in front of the real Redis, so the test can cut the connection and restore it.
    const relay = await startRelay(new URL(TEST_REDIS_URL));
    const log = capturedLog();
    const limits = await openRateLimits(
      { kind: 'redis', url: `redis://127.0.0.1:${relay.port}`, keyPrefix: prefix },
      log.log,
    );
    const limiter = limits.limiter('t');
    try {
      const now = new Date();
      expect((await limiter.hit('k:outage', RULE, now)).count).toBe(1);
      await relay.cut();
      // Every hit is still answered, and the limit still holds in this instance.
      const during = [];
      for (let i = 0; i < 5; i += 1) during.push(await limiter.hit('k:outage', RULE, now));
      expect(during.map((h) => h.allowed)).toEqual([true, true, true, false, false]);
      expect(log.errors()).toHaveLength(1);
      expect(log.errors()[0]?.msg).toMatch(/Redis is unreachable, counting in this instance only/);

      await relay.restore();
      await expect
        .poll(() => log.lines.some((l) => /Redis is reachable again/.test(l.msg)), { timeout: 10_000 })
        .toBe(true);
      // Back on Redis: the count there goes on from the hit made before the cut.
      expect(await limiter.hit('k:outage', RULE, now)).toMatchObject({ allowed: true, count: 2 });
      expect(await redis.client.hget(`${prefix}rate:t:k:outage`, 'count')).toBe('2');
    } finally {
      await limits.close();
      await relay.close();
    }
  });
});

describe('with REDIS_URL pointing at nothing', () => {
  it('starts and serves every hit from memory, with the outage logged as an error', async () => {
    const closed = await closedPort();
    const log = capturedLog();
    const limits = await openRateLimits(
      { kind: 'redis', url: `redis://:secret-word@127.0.0.1:${closed}`, keyPrefix: 'nowhere:' },
      log.log,
    );
    const limiter = limits.limiter('t');
    try {
      const hits = [];
      for (let i = 0; i < 4; i += 1) hits.push(await limiter.hit('k', RULE, T0));
      expect(hits.map((h) => h.allowed)).toEqual([true, true, true, false]);
      expect(log.errors().length).toBeGreaterThanOrEqual(1);
      expect(log.errors()[0]?.msg).toMatch(/Redis is unreachable/);
      // The password in REDIS_URL is never written.
      expect(JSON.stringify(log.lines)).not.toContain('secret-word');
    } finally {
      await limits.close();
    }
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP relay on a fixed loopback port that can drop every connection and refuse new ones, then come back. */
async function startRelay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  const cut = async () => {
    const closing = server ? new Promise((resolve) => server!.close(resolve)) : Promise.resolve();
    for (const s of sockets) s.destroy();
    await closing;
    server = null;
  };
  await listen();
  return { port, cut, restore: listen, close: cut };
}
