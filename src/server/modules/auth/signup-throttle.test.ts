import { inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.js';
import { userProfiles } from '#server/db/schema.js';
import { Metrics } from '#server/lib/metrics.js';
import { signInAdmin, uniqueEmail } from '#server/test/client.js';
import { TEST_ADMIN, useTestApp } from '#server/test/harness.js';
import { SIGNUP_WINDOW_MS } from './service.js';

// Every new account comes with free credits, so accounts per address are limited by the live config entry
// `signups_per_ip_per_hour` (default 5). This file keeps the default the other suites raise.
const t = useTestApp({}, { logger: false, keepSignupLimit: true });

function signUpFrom(ip: string, email = uniqueEmail('signup')): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    remoteAddress: ip,
    headers: { origin: t.origin, 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password: 'correct-horse-battery', fullName: 'Newcomer' }),
  });
}

async function profilesOf(emails: string[]) {
  return t.database.db
    .select({ email: userProfiles.email, credits: userProfiles.credits })
    .from(userProfiles)
    .where(inArray(userProfiles.email, emails));
}

describe('sign-up throttle per address', () => {
  it('lets 5 of 40 parallel sign-ups from one address through; the others get 429 and no account', async () => {
    const emails = Array.from({ length: 40 }, () => uniqueEmail('burst'));
    const answers = await Promise.all(emails.map((email) => signUpFrom('127.0.0.1', email)));

    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
    for (const refused of answers.filter((a) => a.statusCode === 429)) {
      const body = refused.json<{ code: string; details: { retryAfter: number } }>();
      expect(body.code).toBe('RATE_LIMITED');
      // About an hour: the block runs from the fifth sign-up, and each request reads the clock when it starts.
      expect(body.details.retryAfter).toBeGreaterThan(59 * 60);
      expect(body.details.retryAfter).toBeLessThanOrEqual(61 * 60);
      expect(refused.headers['retry-after']).toBe(String(body.details.retryAfter));
      expect(refused.headers['set-cookie']).toBeUndefined();
    }

    const created = emails.filter((_, i) => statuses[i] === 201);
    const profiles = await profilesOf(emails);
    expect(profiles.map((p) => p.email).sort()).toEqual(created.sort());
    expect(profiles.map((p) => p.credits)).toEqual([5, 5, 5, 5, 5]);
  });

  it('does not count against another address', async () => {
    const res = await signUpFrom('198.51.100.7');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ credits: 5 });
  });

  it('gives the attempt back when no account came of it (address already taken)', async () => {
    const ip = '198.51.100.8';
    const taken = uniqueEmail('taken');
    expect((await signUpFrom(ip, taken)).statusCode).toBe(201);
    for (let i = 0; i < 3; i += 1) {
      const again = await signUpFrom(ip, taken);
      expect(again.statusCode).toBe(409);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await signUpFrom(ip)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 429]);
  });

  it('follows the live config value an admin sets', async () => {
    const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
    const entries = (await admin.get('/api/admin/config')).json<Array<{ id: string; key: string }>>();
    const entry = entries.find((e) => e.key === 'signups_per_ip_per_hour');
    expect(entry).toMatchObject({ value: 5 });
    expect((await admin.patch(`/api/admin/config/${entry?.id}`, { value: 2 })).statusCode).toBe(200);
    try {
      const ip = '198.51.100.9';
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await signUpFrom(ip)).statusCode);
      expect(statuses).toEqual([201, 201, 429]);
    } finally {
      await admin.patch(`/api/admin/config/${entry?.id}`, { value: 5 });
    }
  });

  it('accepts sign-ups from the address again an hour later', async () => {
    const before = await signUpFrom('127.0.0.1');
    expect(before.statusCode).toBe(429);
    t.clock.advance(SIGNUP_WINDOW_MS + 1000);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await signUpFrom('127.0.0.1')).statusCode);
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    } finally {
      t.clock.reset();
    }
  });
});

describe('sign-up throttle across a restart', () => {
  it('keeps an address out after the app restarts on the same database', async () => {
    const ip = '198.51.100.30';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await signUpFrom(ip)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);

    // A new instance on the same database, as after a restart: nothing of the first one's memory is left.
    const restarted = await buildApp({ ...t.deps, metrics: new Metrics() }, { logger: false });
    try {
      await restarted.ready();
      const again = await restarted.inject({
        method: 'POST',
        url: '/api/auth/signup',
        remoteAddress: ip,
        headers: { origin: t.origin, 'content-type': 'application/json' },
        payload: JSON.stringify({
          email: uniqueEmail('restart'),
          password: 'correct-horse-battery',
          fullName: 'Newcomer',
        }),
      });
      expect(again.statusCode).toBe(429);
      expect(again.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(59 * 60);
    } finally {
      await restarted.close();
    }
  });
});
