import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.js';
import { Metrics } from '#server/lib/metrics.js';
import { userProfiles, workflowExecutions } from '#server/db/schema.js';
import { createAccount } from '#server/modules/auth/service.js';
import { TestClient, uniqueEmail } from '#server/test/client.js';
import { useTestApp, type TestApp } from '#server/test/harness.js';
import { keysUnder, TEST_REDIS_URL, useTestRedis, withRedis } from '#server/test/redis.js';
import { addChatbotWorkflow, testAdminId, withConfig } from '#server/test/test-data.js';
import type { App } from '#server/types.js';

/**
 * Two app instances on one database and one Redis, as two processes behind a load balancer: every limit
 * (sign-up in the database, chat and API key in Redis) is counted once across both. Needs Redis, so it runs
 * with the PostgreSQL suite.
 */
describe.runIf(withRedis)('rate limits shared through Redis by two instances', () => {
  const redis = useTestRedis('app');
  const t = useTestApp(
    { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: redis.prefix },
    { logger: false, keepSignupLimit: true },
  );
  let other: App;
  /** The same caller on instance 0 (t.app) or 1 (other), alternating. */
  const on = (i: number): TestApp => (i % 2 === 0 ? t : { ...t, app: other });

  beforeAll(async () => {
    // Its own metrics, as another process would have.
    other = await buildApp({ ...t.deps, metrics: new Metrics() }, { logger: false });
    await other.ready();
    expect([t.app.rateLimits.kind, other.rateLimits.kind]).toEqual(['redis', 'redis']);
  });
  afterAll(async () => {
    await other?.close();
  });

  it('lets one address make signups_per_ip_per_hour accounts in all, wherever each sign-up lands', async () => {
    const emails = Array.from({ length: 8 }, () => uniqueEmail('shared'));
    const statuses: number[] = [];
    for (const [i, email] of emails.entries()) {
      const res = await new TestClient(on(i)).post('/api/auth/signup', {
        email,
        password: 'correct-horse-battery',
        fullName: 'Shared',
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(59 * 60);
      }
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    const made = await t.database.db.select({ email: userProfiles.email }).from(userProfiles);
    expect(made.filter((p) => emails.includes(p.email))).toHaveLength(5);
    // Counted in the database, not in Redis.
    expect(await keysUnder(redis.client, `${redis.prefix}rate:signup:`)).toHaveLength(0);
  });

  it('counts chat calls per user across both instances', async () => {
    const user = await signedInUser(t);
    const workflowId = await chatWorkflow(t);
    await t.database.db.insert(workflowExecutions).values({ userId: user.id, workflowId, status: 'pending' });
    const statuses: number[] = [];
    for (let i = 0; i < 22; i += 1) {
      const client = new TestClient(on(i));
      client.cookie = user.client.cookie;
      const res = await client.post('/api/chat', {
        workflowId,
        messages: [{ role: 'user', content: `message ${i}` }],
        language: 'en',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 20)).toEqual(Array<number>(20).fill(200));
    expect(statuses.slice(20)).toEqual([429, 429]);
  });

  it('counts API-key requests per key across both instances, and says what is left', async () => {
    await withConfig(t, 'api_requests_per_minute', 4, async () => {
      const user = await signedInUser(t);
      const created = await user.client.post('/api/account/api-keys', { name: 'both' });
      expect(created.statusCode).toBe(201);
      const key = created.json<{ key: string }>().key;
      const answers = [];
      for (let i = 0; i < 6; i += 1) {
        answers.push(
          await on(i).app.inject({
            method: 'GET',
            url: '/api/v1/me',
            headers: { authorization: `Bearer ${key}` },
          }),
        );
      }
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 429, 429]);
      expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['3', '2', '1', '0', '0', '0']);
      expect(Number(answers[4]?.headers['retry-after'])).toBeGreaterThan(0);
    });
  });
});

/** A signed-in user made by the operator's path, since the first test spent this address's sign-ups. */
async function signedInUser(t: TestApp): Promise<{ id: string; client: TestClient }> {
  const email = uniqueEmail('limited');
  const password = 'correct-horse-battery';
  const profile = await createAccount(t.deps, { email, password, fullName: 'Limited' });
  const client = new TestClient(t);
  expect((await client.post('/api/auth/signin', { email, password })).statusCode).toBe(200);
  return { id: profile.id, client };
}

async function chatWorkflow(t: TestApp): Promise<string> {
  const workflow = await addChatbotWorkflow(t.database.db, await testAdminId(t));
  return workflow.id;
}
