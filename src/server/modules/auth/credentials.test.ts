import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import type * as Argon2 from '@node-rs/argon2';
import { describe, expect, it, vi } from 'vitest';
import { authThrottle, sessions, users } from '#server/db/schema.js';
import { buildTestApp, useTestApp } from '#server/test/harness.js';
import { signUpUser, TestClient, uniqueEmail } from '#server/test/client.js';
import { dummyPasswordHash, hashPassword } from './passwords.js';
import { SIGNIN_RULES } from './service.js';

/** The hashes every argon2 verification of this file checked a password against, in order. */
const verified = vi.hoisted(() => [] as string[]);
vi.mock('@node-rs/argon2', async (original) => {
  const argon2 = await original<typeof Argon2>();
  return {
    ...argon2,
    verify: (hashed: string, ...rest: [string]) => {
      verified.push(hashed);
      return argon2.verify(hashed, ...rest);
    },
  };
});

const t = useTestApp();

const countUsers = async () =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]?.n;

/** A sign-in from a chosen address (the test app trusts no proxy header, so the socket address counts). */
function signinFrom(ip: string, body: { email: string; password: string }) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    remoteAddress: ip,
    headers: { origin: t.origin, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

const signupBody = (password: string) => ({ email: uniqueEmail(), password, fullName: 'P' });

describe('password rules', () => {
  it.each([
    ['exactly 8 characters', 'zq7-mfwk'],
    ['only lower-case letters', 'plumtreeharbour'],
    ['spaces and accents', 'ñandú en el río'],
    ['128 characters', 'x7'.repeat(64)],
  ])('accepts %s (no composition rules)', async (_label, password) => {
    const res = await new TestClient(t).post('/api/auth/signup', signupBody(password));
    expect(res.statusCode).toBe(201);
  });

  it.each([
    ['7 characters', 'zq7-mfw'],
    ['129 characters', 'x'.repeat(129)],
  ])('refuses %s with 400 and creates nothing', async (_label, password) => {
    const before = await countUsers();
    const res = await new TestClient(t).post('/api/auth/signup', signupBody(password));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.any(String) });
    expect(await countUsers()).toBe(before);
  });

  it('ships a list of 10,000 common passwords and refuses entries from all over it, in any case', async () => {
    const listFile = fileURLToPath(new URL('./common-passwords.txt', import.meta.url));
    const list = readFileSync(listFile, 'utf8').split('\n').filter(Boolean);
    expect(new Set(list).size).toBe(10_000);
    // Entries long enough to pass the length rule, taken from the start, middle and end of the list.
    const long = list.filter((p) => p.length >= 8);
    const picks = [long[0]!, long[Math.floor(long.length / 2)]!, long[long.length - 1]!];
    const before = await countUsers();
    for (const password of [...picks, picks[1]!.toUpperCase()]) {
      const res = await new TestClient(t).post('/api/auth/signup', signupBody(password));
      expect(res.statusCode, password).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/common/) });
    }
    expect(await countUsers()).toBe(before);
  });

  it('hashes with argon2id m=19456 KiB, t=2, p=1, salted (two hashes of one password differ)', async () => {
    const [a, b] = await Promise.all([hashPassword('same-password'), hashPassword('same-password')]);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    // The stand-in hash for unknown e-mails costs exactly what a real one costs to verify.
    expect(await dummyPasswordHash()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('sign-in answers reveal nothing about which accounts exist', () => {
  it('gives an unknown e-mail and a wrong password the same status, body and headers', async () => {
    const { email } = await signUpUser(t);
    const wrong = await signinFrom('198.51.100.1', { email, password: 'not-the-password' });
    const unknown = await signinFrom('198.51.100.2', { email: uniqueEmail(), password: 'not-the-password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    // Only the headers that differ on every answer (the time and the request's id) may differ.
    const shape = (h: Record<string, unknown>) => {
      const { date: _d, 'x-request-id': _id, ...rest } = h;
      return rest;
    };
    expect(shape(unknown.headers)).toEqual(shape(wrong.headers));
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('spends one password verification, at the cost of a real one, on an unknown e-mail too', async () => {
    const { email } = await signUpUser(t);
    // The hash's parameters (memory, iterations, lanes) are what an argon2 verification costs.
    const cost = (hashed: string) => hashed.split('$').slice(1, 4).join('$');
    verified.length = 0;
    expect((await signinFrom('198.51.100.10', { email, password: 'wrong-1' })).statusCode).toBe(401);
    expect(verified).toHaveLength(1);
    const [known] = verified.splice(0);
    expect(
      (await signinFrom('198.51.100.20', { email: uniqueEmail(), password: 'wrong-1' })).statusCode,
    ).toBe(401);
    expect(verified).toHaveLength(1);
    expect(verified[0]).not.toBe(known);
    expect(cost(verified[0]!)).toBe(cost(known!));
  });
});

describe('sign-in throttling', () => {
  it('blocks an address after its limit of failures on any accounts, with 429 and Retry-After, for 15 minutes', async () => {
    const ip = '203.0.113.7';
    const victim = await signUpUser(t);
    for (let i = 0; i < SIGNIN_RULES.ip.limit; i += 1) {
      const res = await signinFrom(ip, { email: uniqueEmail('spray'), password: 'guess-password' });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await signinFrom(ip, { email: victim.email, password: victim.password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      error: expect.any(String),
      code: 'RATE_LIMITED',
      key: expect.any(String),
      details: { retryAfter: expect.any(Number) },
    });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, victim.id))).toHaveLength(1);

    // Another address is not affected, and the account itself was not the target.
    expect(
      (await signinFrom('203.0.113.8', { email: victim.email, password: victim.password })).statusCode,
    ).toBe(200);

    t.clock.advance(15 * 60 * 1000 + 1000);
    try {
      expect((await signinFrom(ip, { email: victim.email, password: victim.password })).statusCode).toBe(200);
    } finally {
      t.clock.reset();
    }
  }, 120_000);

  it('counts failures inside one 15-minute window only', async () => {
    const { email, password } = await signUpUser(t);
    for (let i = 0; i < 9; i += 1) {
      expect((await signinFrom(`192.0.2.${i}`, { email, password: 'wrong-password' })).statusCode).toBe(401);
    }
    t.clock.advance(16 * 60 * 1000);
    try {
      for (let i = 0; i < 9; i += 1) {
        const res = await signinFrom(`192.0.2.${20 + i}`, { email, password: 'wrong-password' });
        expect(res.statusCode).toBe(401);
      }
      expect((await signinFrom('192.0.2.99', { email, password })).statusCode).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it("starts the e-mail's count again after a success, but not the address's", async () => {
    const ip = '192.0.2.100';
    const { email, password } = await signUpUser(t);
    for (let i = 0; i < SIGNIN_RULES.emailAndIp.limit - 1; i += 1) {
      expect((await signinFrom(ip, { email, password: 'wrong-password' })).statusCode).toBe(401);
    }
    expect((await signinFrom(ip, { email, password })).statusCode).toBe(200);
    const keys = (await t.database.db.select().from(authThrottle)).map((r) => r.key);
    expect(keys.filter((k) => k.includes(email))).toEqual([]);
    const [ipRow] = await t.database.db
      .select()
      .from(authThrottle)
      .where(eq(authThrottle.key, `signin:ip:${ip}`));
    expect(ipRow?.failures).toBe(SIGNIN_RULES.emailAndIp.limit - 1);
    expect((await signinFrom(ip, { email, password: 'wrong-password' })).statusCode).toBe(401);
    expect((await signinFrom(ip, { email, password })).statusCode).toBe(200);
  });

  it('does not let a success reset a spray from the same address', async () => {
    const ip = '192.0.2.160';
    const own = await signUpUser(t);
    for (let i = 0; i < SIGNIN_RULES.ip.limit - 1; i += 1) {
      expect(
        (await signinFrom(ip, { email: uniqueEmail('spray'), password: 'guess-password' })).statusCode,
      ).toBe(401);
    }
    // The attacker signs into their own account to wipe the count, as the review did.
    expect((await signinFrom(ip, { email: own.email, password: own.password })).statusCode).toBe(200);
    expect(
      (await signinFrom(ip, { email: uniqueEmail('spray'), password: 'guess-password' })).statusCode,
    ).toBe(401);
    expect(
      (await signinFrom(ip, { email: uniqueEmail('spray'), password: 'guess-password' })).statusCode,
    ).toBe(429);
  }, 120_000);

  it("locks a guesser's address out of one account without locking its owner out everywhere", async () => {
    const owner = await signUpUser(t);
    for (let i = 0; i < SIGNIN_RULES.emailAndIp.limit; i += 1) {
      await signinFrom('192.0.2.170', { email: owner.email, password: 'guess-password' });
    }
    expect(
      (await signinFrom('192.0.2.170', { email: owner.email, password: owner.password })).statusCode,
    ).toBe(429);
    expect(
      (await signinFrom('198.51.100.170', { email: owner.email, password: owner.password })).statusCode,
    ).toBe(200);
  });

  it('caps failures on one e-mail from everywhere, more loosely', async () => {
    const target = await signUpUser(t);
    for (let i = 0; i < SIGNIN_RULES.email.limit; i += 1) {
      const res = await signinFrom(`100.64.${Math.floor(i / 200)}.${i % 200}`, {
        email: target.email,
        password: 'guess-password',
      });
      expect(res.statusCode).toBe(401);
    }
    expect(
      (await signinFrom('100.65.0.1', { email: target.email, password: target.password })).statusCode,
    ).toBe(429);
  }, 120_000);

  it('lets at most the limit of 100 concurrent wrong passwords for one e-mail reach the password check', async () => {
    const target = await signUpUser(t);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        signinFrom('192.0.2.200', { email: target.email, password: 'wrong-guess' }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    // A 401 is an attempt whose password was verified; every other one was refused before.
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGNIN_RULES.emailAndIp.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - SIGNIN_RULES.emailAndIp.limit);
  });
});

describe('the client address behind a reverse proxy', () => {
  it('is the one the nearest proxy appended, so a forged X-Forwarded-For cannot dodge the throttle', async () => {
    const proxied = await buildTestApp({ TRUST_PROXY: 'loopback, 10.0.0.0/8' });
    try {
      const from = (forwardedFor: string, remoteAddress = '10.0.0.1') =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          remoteAddress, // the proxy, unless a client connects directly
          headers: {
            origin: proxied.origin,
            'content-type': 'application/json',
            'x-forwarded-for': forwardedFor,
          },
          payload: JSON.stringify({ email: uniqueEmail(), password: 'guess-password' }),
        });
      // The attacker (203.0.113.66) writes a new left-most address on every try; the proxy appends the real one.
      for (let i = 0; i < SIGNIN_RULES.ip.limit; i += 1) {
        expect((await from(`198.18.0.${i % 250}, 203.0.113.66`)).statusCode).toBe(401);
      }
      expect((await from('198.18.0.200, 203.0.113.66')).statusCode).toBe(429);
      expect((await from('203.0.113.67')).statusCode).toBe(401);
      // A client that connects directly is not a proxy: its own X-Forwarded-For is ignored.
      for (let i = 0; i < SIGNIN_RULES.ip.limit; i += 1) {
        expect((await from(`198.18.1.${i % 250}`, '198.51.100.77')).statusCode).toBe(401);
      }
      expect((await from('198.18.1.200', '198.51.100.77')).statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
  }, 120_000);
});

describe('the client address with the production defaults (TRUST_PROXY unset)', () => {
  it('is the connecting address even on a private network, so X-Forwarded-For cannot dodge the sign-up limit', async () => {
    const production = await buildTestApp(
      { NODE_ENV: 'production' },
      { logger: false, keepSignupLimit: true },
    );
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const res = await production.app.inject({
          method: 'POST',
          url: '/api/auth/signup',
          remoteAddress: '10.20.30.40',
          headers: {
            origin: production.origin,
            'content-type': 'application/json',
            'x-forwarded-for': `198.18.2.${i}`,
          },
          payload: JSON.stringify({
            email: uniqueEmail('private'),
            password: 'correct-horse-battery',
            fullName: 'Neighbour',
          }),
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    } finally {
      await production.close();
    }
  });
});
