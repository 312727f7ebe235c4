import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createAccount } from '#server/modules/auth/service.js';
import { TestClient, uniqueEmail } from '#server/test/client.js';
import { useTestApp, type TestApp } from '#server/test/harness.js';
import { TEST_REDIS_URL, useTestRedis, withRedis } from '#server/test/redis.js';
import { withConfig } from '#server/test/test-data.js';

/**
 * A flood of made-up API keys from many addresses, against an instance whose in-memory limiters hold few
 * counters: the limits that matter (a real key's exhausted minute, the sign-ups of an address) survive it.
 */
const CAPACITY = 16;

function floodSuite(t: TestApp) {
  const get = (key: string, ip = '203.0.113.10'): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      remoteAddress: ip,
      headers: { authorization: `Bearer ${key}` },
    });
  const signUpFrom = (ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: ip,
      headers: { origin: t.origin, 'content-type': 'application/json' },
      payload: JSON.stringify({
        email: uniqueEmail('flood'),
        password: 'correct-horse-battery',
        fullName: 'Newcomer',
      }),
    });
  const madeUpKey = () => `flj_${randomBytes(24).toString('base64url')}`;

  it('keeps a real key exhausted and an address out of sign-ups through a flood of random keys', async () => {
    await withConfig(t, 'api_requests_per_minute', 3, async () => {
      const email = uniqueEmail('keyholder');
      await createAccount(t.deps, { email, password: 'correct-horse-battery', fullName: 'Key Holder' });
      const owner = new TestClient(t);
      await owner.post('/api/auth/signin', { email, password: 'correct-horse-battery' });
      const key = (await owner.post('/api/account/api-keys', { name: 'real' })).json<{ key: string }>().key;
      const before = [];
      for (let i = 0; i < 4; i += 1) before.push((await get(key)).statusCode);
      expect(before).toEqual([200, 200, 200, 429]);
      const signups = [];
      for (let i = 0; i < 6; i += 1) signups.push((await signUpFrom('198.51.100.20')).statusCode);
      expect(signups).toEqual([201, 201, 201, 201, 201, 429]);

      // Ten times the limiter's room in made-up keys, each from an address of its own.
      const flood = await Promise.all(
        Array.from({ length: CAPACITY * 10 }, (_, i) =>
          get(madeUpKey(), `10.${(i >> 8) & 255}.${i & 255}.7`),
        ),
      );
      // Never served: an unknown key is 401, or 429 once there is no room for its address's counter.
      expect(flood.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);

      const after = await get(key);
      expect(after.statusCode).toBe(429);
      expect(after.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect((await signUpFrom('198.51.100.20')).statusCode).toBe(429);

      // Once the minute is over the key is served again.
      t.clock.advance(61_000);
      try {
        expect((await get(key)).statusCode).toBe(200);
      } finally {
        t.clock.reset();
      }
    });
  });

  it('counts unknown keys by address: one address cannot try more keys a minute than the limit', async () => {
    await withConfig(t, 'api_requests_per_minute', 3, async () => {
      const ip = '203.0.113.77';
      const statuses = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await get(madeUpKey(), ip)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      // The same address without a key is the same count.
      const bare = await t.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress: ip });
      expect(bare.statusCode).toBe(429);
      expect(bare.headers['retry-after']).toBeDefined();
    });
  });
}

describe('API limit and sign-up limit through a flood of made-up keys (in memory)', () => {
  const t = useTestApp({}, { logger: false, keepSignupLimit: true, rateLimitMemoryCapacity: CAPACITY });
  floodSuite(t);
});

describe.runIf(withRedis)('the same flood with the limits counted in Redis', () => {
  const redis = useTestRedis('flood');
  const t = useTestApp(
    { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: redis.prefix },
    { logger: false, keepSignupLimit: true, rateLimitMemoryCapacity: CAPACITY },
  );
  floodSuite(t);
});
