import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { userProfiles } from '../db/schema.js';
import { signUpUser, TestClient, uniqueEmail } from '../test/client.js';
import { testClock, type TestApp } from '../test/harness.js';
import { freePort } from '../modules/executions/testing/workflow-service.js';
import { startServerProcess, useProcessDatabase } from '../test/server-process.js';
import { compiled } from '../test/compiled-server.js';
import { runAdminCli } from './admin-cli.js';
import { Metrics } from '../lib/metrics.js';

// `npm run admin -- create` against a database of its own, with the app opened on the same database between
// two commands (the embedded database takes one holder at a time), as an operator and a user would see it.

const SLOW = 120_000;

const database = useProcessDatabase('admin-cli', SLOW);

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runAdminCli(args, database.env, {
    log: (m) => stdout.push(m),
    error: (m) => stderr.push(m),
  });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

/** The app on the CLI's database for the time of `use`; sessions live in the database, so cookies outlast it. */
async function withApp<T>(use: (t: TestApp) => Promise<T>): Promise<T> {
  const opened = await database.open();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DEMO_WORKFLOWS: 'false',
    ...database.env,
  });
  const deps = { config, database: opened, db: opened.db, now: () => new Date(), metrics: new Metrics() };
  const app = await buildApp(deps, { logger: false });
  try {
    await app.ready();
    const t: TestApp = {
      app,
      deps,
      database: opened,
      config,
      clock: testClock(),
      origin: config.publicUrl,
      close: () => Promise.resolve(),
    };
    return await use(t);
  } finally {
    await app.close();
    await opened.close();
  }
}

/** A client bound to the current app: the cookie is carried over from one opening of the app to the next. */
function rebind(t: TestApp, cookie: string | undefined): TestClient {
  const client = new TestClient(t);
  client.cookie = cookie;
  return client;
}

async function signIn(t: TestApp, email: string, password: string) {
  const client = new TestClient(t);
  const res = await client.post('/api/auth/signin', { email, password });
  return { status: res.statusCode, cookie: client.cookie, client };
}

const operator = { email: uniqueEmail('operator'), password: 'operator-password-1' };

describe('npm run admin -- create', () => {
  it(
    'creates an admin on a fresh database, and no other admin beside it',
    async () => {
      const created = await cli(
        'create',
        '--email',
        operator.email.toUpperCase(),
        '--password',
        operator.password,
      );
      expect(created).toMatchObject({ code: 0, stderr: '' });
      expect(created.stdout).toBe(`Admin ${operator.email} created.`);
      await withApp(async (t) => {
        const { status, client } = await signIn(t, operator.email, operator.password);
        expect(status).toBe(200);
        expect((await client.get('/api/admin/stats')).statusCode).toBe(200);
        const admins = await t.database.db
          .select({ email: userProfiles.email })
          .from(userProfiles)
          .where(eq(userProfiles.isAdmin, true));
        expect(admins).toEqual([{ email: operator.email }]);
      });
    },
    SLOW,
  );

  it(
    "replacing an admin's password signs out every session of it",
    async () => {
      const cookies = await withApp(async (t) => {
        const first = await signIn(t, operator.email, operator.password);
        const second = await signIn(t, operator.email, operator.password);
        expect([first.status, second.status]).toEqual([200, 200]);
        return [first.cookie, second.cookie];
      });
      const reset = await cli('create', '--email', operator.email, '--password', 'operator-password-2');
      expect(reset.code).toBe(0);
      expect(reset.stdout).toMatch(/Password of admin .* replaced; all its sessions were signed out/);
      await withApp(async (t) => {
        for (const cookie of cookies)
          expect((await rebind(t, cookie).get('/api/auth/me')).statusCode).toBe(401);
        expect((await signIn(t, operator.email, operator.password)).status).toBe(401);
        expect((await signIn(t, operator.email, 'operator-password-2')).status).toBe(200);
      });
    },
    SLOW,
  );

  it(
    'refuses an ordinary account without --promote-existing (exit 2), changing nothing; with it, promotes it, replaces its password and signs it out',
    async () => {
      const squatter = await withApp(async (t) => {
        const user = await signUpUser(t, { password: 'squatter-password-1' });
        return { email: user.email, password: user.password, cookie: user.client.cookie };
      });

      const refused = await cli('create', '--email', squatter.email, '--password', 'chosen-by-operator-1');
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`${squatter.email} belongs to an ordinary account`);
      expect(refused.stderr).toContain(
        `npm run admin -- create --email ${squatter.email} --password '<a new password>' --promote-existing`,
      );
      await withApp(async (t) => {
        const session = rebind(t, squatter.cookie);
        expect((await session.get('/api/auth/me')).json()).toMatchObject({
          email: squatter.email,
          isAdmin: false,
        });
        expect((await session.get('/api/admin/stats')).statusCode).toBe(403);
        expect((await signIn(t, squatter.email, 'chosen-by-operator-1')).status).toBe(401);
        expect((await signIn(t, squatter.email, squatter.password)).status).toBe(200);
      });

      const promoted = await cli(
        'create',
        '--email',
        squatter.email,
        '--password',
        'chosen-by-operator-1',
        '--promote-existing',
      );
      expect(promoted).toMatchObject({ code: 0, stderr: '' });
      expect(promoted.stdout).toMatch(
        /is now an admin; its password was replaced and all its sessions were signed out/,
      );
      await withApp(async (t) => {
        expect((await rebind(t, squatter.cookie).get('/api/auth/me')).statusCode).toBe(401);
        expect((await signIn(t, squatter.email, squatter.password)).status).toBe(401);
        const operatorNow = await signIn(t, squatter.email, 'chosen-by-operator-1');
        expect(operatorNow.status).toBe(200);
        expect((await operatorNow.client.get('/api/admin/stats')).statusCode).toBe(200);
      });
    },
    SLOW,
  );

  it.each([
    [['create', '--email', 'a@b.example'], /password/],
    [['create', '--email', 'a@b.example', '--password', 'short'], /password/],
    [['create', '--email', 'not-an-email', '--password', 'long-enough-1'], /email/],
    [['remove', '--email', 'a@b.example', '--password', 'long-enough-1'], /command/],
    [['create', '--email', 'a@b.example', '--password', 'long-enough-1', '--promote'], /Unknown option/],
  ])('answers %j with its usage (exit 64) before touching the database', async (args, problem) => {
    const result = await cli(...args);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(problem);
    expect(result.stderr).toContain('--promote-existing');
  });

  it(
    'as a real process: exit code 2 and the way forward on stderr for an ordinary account',
    async () => {
      const user = await withApp((t) => signUpUser(t));
      const outcome = await promisify(execFile)(
        process.execPath,
        [compiled('cli/admin'), 'create', '--email', user.email, '--password', 'x-password-1'],
        { env: { ...process.env, ...database.env } },
      ).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
      expect(outcome.code).toBe(2);
      expect(outcome.stdout).toBe('');
      expect(outcome.stderr).toContain('--promote-existing');
      await withApp(async (t) => {
        expect((await signIn(t, user.email, user.password)).status).toBe(200);
      });
    },
    SLOW,
  );
});

describe('npm start with ADMIN_EMAIL', () => {
  it(
    'leaves an ordinary account that holds the address as it is, says how to promote it, and serves anyway',
    async () => {
      const user = await withApp((t) => signUpUser(t));
      const server = await startServerProcess({
        port: await freePort(),
        env: { ...database.env, ADMIN_EMAIL: user.email, ADMIN_PASSWORD: 'operator-password-9' },
      });
      try {
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        const signin = await fetch(`${server.url}/api/auth/signin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: server.url },
          body: JSON.stringify({ email: user.email, password: 'operator-password-9' }),
        });
        expect(signin.status).toBe(401);
        expect(server.stderr()).toContain(`ERROR: ${user.email} belongs to an account that is not an admin`);
        expect(server.stderr()).toContain(
          `--email ${user.email} --password '<a new password>' --promote-existing`,
        );
        // PostgreSQL is a real deployment to the server, and these tests name PAYMENT_PROVIDER=demo for it.
        expect(server.stderr().includes('WARNING: PAYMENT_PROVIDER=demo on PostgreSQL')).toBe(
          database.kind === 'postgres',
        );
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      await withApp(async (t) => {
        const again = await signIn(t, user.email, user.password);
        expect(again.status).toBe(200);
        expect((await again.client.get('/api/auth/me')).json()).toMatchObject({ isAdmin: false });
      });
    },
    SLOW,
  );
});
