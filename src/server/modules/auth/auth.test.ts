import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { creditTransactions, sessions, userProfiles, users } from '#server/db/schema.js';
import { TEST_ADMIN, useTestApp } from '#server/test/harness.js';
import { signUpUser, TestClient, uniqueEmail } from '#server/test/client.js';

const t = useTestApp();

const countUsers = async () =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]?.n;

describe('sign-up', () => {
  it('creates the account with 5 credits as one bonus ledger row and signs the user in', async () => {
    const email = uniqueEmail();
    const client = new TestClient(t);
    const res = await client.post('/api/auth/signup', {
      email,
      password: 'a-long-password',
      fullName: 'Ana Pérez',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      email,
      full_name: 'Ana Pérez',
      fullName: 'Ana Pérez',
      credits: 5,
      is_admin: false,
      isAdmin: false,
    });
    expect(res.headers['set-cookie']).toMatch(/HttpOnly/);
    expect(res.headers['set-cookie']).toMatch(/SameSite=Lax/);

    const rows = await t.database.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, body.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 5, transactionType: 'bonus' });

    const me = await client.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email, credits: 5 });
  });

  it('stores only a hash of the password and of the session token', async () => {
    const { client, id, password } = await signUpUser(t);
    const [user] = await t.database.db.select().from(users).where(eq(users.id, id));
    expect(user?.hashedPassword).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user?.hashedPassword).not.toContain(password);
    const token = client.cookie?.split('=')[1];
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.tokenHash).not.toBe(token);
  });

  it('refuses a duplicate e-mail in any letter case with 409 and writes nothing', async () => {
    const { email } = await signUpUser(t);
    const before = await countUsers();
    const res = await new TestClient(t).post('/api/auth/signup', {
      email: email.toUpperCase(),
      password: 'another-password',
      fullName: 'Someone',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT' });
    expect(await countUsers()).toBe(before);
  });

  it.each([
    ['malformed JSON', '{"email": "x@y.com",', 'VALIDATION_ERROR'],
    ['a missing field', { email: 'x@y.com', password: 'password-1' }, 'VALIDATION_ERROR'],
    ['a wrong type', { email: 'x@y.com', password: 12345678, fullName: 'X' }, 'VALIDATION_ERROR'],
    ['a bad e-mail', { email: 'not-an-email', password: 'password-1', fullName: 'X' }, 'VALIDATION_ERROR'],
    ['a short password', { email: 'x@y.com', password: 'short', fullName: 'X' }, 'VALIDATION_ERROR'],
    [
      'a 100,000-character name',
      { email: 'x@y.com', password: 'password-1', fullName: 'n'.repeat(100_000) },
      'VALIDATION_ERROR',
    ],
    ['an array body', [1, 2, 3], 'VALIDATION_ERROR'],
  ])('answers %s with a 4xx JSON error and writes nothing', async (_label, body, code) => {
    const before = await countUsers();
    const res = await new TestClient(t).post('/api/auth/signup', body, {
      'content-type': 'application/json',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code, error: expect.any(String) });
    expect(await countUsers()).toBe(before);
  });

  it.each(['password', 'Password1', 'qwertyuiop', 'iloveyou'])(
    'refuses the common password %s',
    async (password) => {
      const before = await countUsers();
      const res = await new TestClient(t).post('/api/auth/signup', {
        email: uniqueEmail(),
        password,
        fullName: 'X',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        error: expect.stringMatching(/too common/),
      });
      expect(await countUsers()).toBe(before);
    },
  );

  it('accepts a long passphrase of 64 characters without composition rules', async () => {
    const res = await new TestClient(t).post('/api/auth/signup', {
      email: uniqueEmail(),
      password: 'correct horse battery staple and a quiet walk by the old mill ok',
      fullName: 'Long',
    });
    expect(res.statusCode).toBe(201);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await new TestClient(t).post('/api/auth/signup', 'email=a@b.com', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('gives the bonus set in the live configuration', async () => {
    await t.database.db.execute(
      sql`update admin_config set value = '7'::jsonb where key = 'signup_bonus_credits'`,
    );
    try {
      const res = await new TestClient(t).post('/api/auth/signup', {
        email: uniqueEmail(),
        password: 'password-123',
        fullName: 'Seven',
      });
      expect(res.json()).toMatchObject({ credits: 7 });
    } finally {
      await t.database.db.execute(
        sql`update admin_config set value = '5'::jsonb where key = 'signup_bonus_credits'`,
      );
    }
  });
});

describe('sign-in and sessions', () => {
  it('signs in with the e-mail in another case and opens a new session each time', async () => {
    const { email, password, id } = await signUpUser(t);
    const a = new TestClient(t);
    const res = await a.post('/api/auth/signin', { email: email.toUpperCase(), password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, email });
    const b = new TestClient(t);
    await b.post('/api/auth/signin', { email, password });
    expect(a.cookie).not.toBe(b.cookie);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, id));
    expect(rows).toHaveLength(3);
  });

  it('answers an unknown e-mail and a wrong password identically', async () => {
    const { email } = await signUpUser(t);
    const wrong = await new TestClient(t).post('/api/auth/signin', { email, password: 'not-the-password' });
    const unknown = await new TestClient(t).post('/api/auth/signin', {
      email: uniqueEmail(),
      password: 'not-the-password',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('signs the admin in with is_admin set', async () => {
    const res = await new TestClient(t).post('/api/auth/signin', TEST_ADMIN);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ is_admin: true, isAdmin: true });
  });

  it('ends the session on sign-out: the cookie no longer works and the row is gone', async () => {
    const { client, id } = await signUpUser(t);
    const stolen = client.cookie;
    const out = await client.post('/api/auth/signout');
    expect(out.statusCode).toBe(200);
    expect((await client.get('/api/auth/me')).statusCode).toBe(401);
    const replay = new TestClient(t);
    replay.cookie = stolen;
    expect((await replay.get('/api/auth/me')).statusCode).toBe(401);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, id))).toHaveLength(0);
  });

  it('treats a request without a session as signed out', async () => {
    const res = await new TestClient(t).get('/api/auth/me');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: expect.any(String),
      code: 'UNAUTHENTICATED',
      key: 'default',
    });
  });

  it('refuses a suspended account with 403 ACCOUNT_SUSPENDED and its open session stops working', async () => {
    const { client, id, email, password } = await signUpUser(t);
    await t.database.db
      .update(userProfiles)
      .set({ accountStatus: 'suspended' })
      .where(eq(userProfiles.id, id));
    expect((await client.get('/api/auth/me')).statusCode).toBe(401);
    const res = await new TestClient(t).post('/api/auth/signin', { email, password });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
  });

  it('blocks an e-mail after 10 failed tries with 429 and Retry-After, even with the right password', async () => {
    const { email, password } = await signUpUser(t);
    for (let i = 0; i < 10; i += 1) {
      const res = await new TestClient(t).post(
        '/api/auth/signin',
        { email, password: `wrong-${i}` },
        { 'x-forwarded-for': `10.0.0.${i}` },
      );
      expect(res.statusCode).toBe(401);
    }
    const blocked = await new TestClient(t).post('/api/auth/signin', { email, password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
    t.clock.advance(16 * 60 * 1000);
    try {
      const after = await new TestClient(t).post('/api/auth/signin', { email, password });
      expect(after.statusCode).toBe(200);
    } finally {
      t.clock.reset();
    }
    const [row] = await t.database.db
      .select()
      .from(sessions)
      .where(
        and(
          eq(
            sessions.userId,
            (await t.database.db.select().from(users).where(eq(users.email, email)))[0]!.id,
          ),
        ),
      );
    expect(row).toBeDefined();
  });
});

describe('the API surface', () => {
  it('answers unknown /api routes with a JSON 404', async () => {
    const res = await new TestClient(t).get('/api/does-not-exist');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a state-changing call from another site with 403', async () => {
    const res = await new TestClient(t).post(
      '/api/auth/signup',
      { email: uniqueEmail(), password: 'password-123', fullName: 'X' },
      { origin: 'https://evil.example' },
    );
    expect(res.statusCode).toBe(403);
    const viaFetchMetadata = await new TestClient(t).post(
      '/api/auth/signin',
      { email: 'a@b.co', password: 'x' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(viaFetchMetadata.statusCode).toBe(403);
  });

  it('publishes an OpenAPI document listing the auth operations', async () => {
    const res = await new TestClient(t).get('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/signup', '/api/auth/signin', '/api/auth/me']),
    );
  });
});

describe('health', () => {
  it('answers /healthz and /readyz (which checks the database)', async () => {
    expect((await new TestClient(t).get('/healthz')).statusCode).toBe(200);
    const ready = await new TestClient(t).get('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ ok: true });
  });
});
