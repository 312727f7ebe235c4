import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outdated, WEB_ENTRY, WEB_SOURCES } from '../../../scripts/server-build.mjs';
import { queryRows } from '../db/sql-helpers.js';
import { userProfiles } from '../db/schema.js';
import { fromProjectRoot } from '../lib/project-root.js';
import { createAccount } from '../modules/auth/service.js';
import { freePort } from '../modules/executions/testing/workflow-service.js';
import { startTestS3, type TestS3 } from '../providers/storage/testing/s3-server.js';
import { ledgerMismatches } from '../test/ledger-check.js';
import { startNginx, type Nginx } from '../test/nginx.js';
import { TEST_REDIS_URL, useTestRedis } from '../test/redis.js';
import { Metrics } from '#server/lib/metrics.js';
import {
  onPostgres,
  PROCESS_STARTUP_MS,
  processDatabase,
  startServerProcess,
  type ProcessDatabase,
  type ServerProcess,
} from '../test/server-process.js';

/**
 * The deployment docs/deploy.md describes, run for real: two server processes on one PostgreSQL, the local
 * Redis for the rate limits, an S3 server on loopback for the files, and Debian's nginx in front with the
 * documented server block, round-robin. A person in Chromium signs up, runs a demo that returns a file and the
 * slow demo, downloads the file and buys a pack, all through nginx; one instance is killed in the middle of a
 * run, which finishes on the other. Two processes on one database need PostgreSQL, so this runs in the
 * PostgreSQL suite (like two-processes.test.ts), where a missing nginx, Redis or Chromium fails it.
 */
const CHROMIUM = '/usr/bin/chromium';
/** The slow demo's pace: three progress messages and the result, 1.5 s apart. */
const SLOW_STEP_MS = 1_500;
const SLOW_PROGRESS = ['Reading your answers…', 'Comparing with market data…', 'Writing the report…'];
const ADMIN = { email: 'owner@deploy.example', password: 'owner-password-1' };
const PERSON = { email: 'dana@deploy.example', password: 'dana-password-1', fullName: 'Dana Deploy' };

/** The built web app: dist/web as `npm start` builds it, built now if it is missing or older than its sources. */
function builtWebDir(): string {
  if (outdated(WEB_ENTRY, WEB_SOURCES)) {
    const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the web app did not build');
  }
  const compressed = spawnSync(process.execPath, ['scripts/precompress.mjs', 'dist/web'], {
    stdio: 'inherit',
  });
  if (compressed.status !== 0) throw new Error('the web app could not be precompressed');
  return fromProjectRoot('dist/web');
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const visible = (locator: Locator, timeout = 15_000) => locator.waitFor({ state: 'visible', timeout });

describe.runIf(onPostgres)('two instances behind nginx, with PostgreSQL, Redis and an S3 bucket', () => {
  // A Redis that does not answer fails the set-up.
  const redis = useTestRedis('deploy');
  let work = '';
  let database: ProcessDatabase;
  let s3: TestS3;
  let nginx: Nginx;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ports: number[] = [];
  const servers: ServerProcess[] = [];
  const instance = (i: number) => `127.0.0.1:${ports[i]}`;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
    work = mkdtempSync(join(tmpdir(), 'flujo-deploy-'));
    const webDir = builtWebDir();
    [database, s3] = await Promise.all([processDatabase('deploy'), startTestS3('flujo-deploy')]);
    ports = [await freePort(), await freePort()];
    const nginxPort = await freePort();
    const publicUrl = `http://127.0.0.1:${nginxPort}`;
    // The demo workflows are seeded at start for the first admin, as on a demo deployment.
    await database.withDb((db) =>
      createAccount({ db, metrics: new Metrics() }, { ...ADMIN, fullName: 'Owner', isAdmin: true }),
    );
    const shared = {
      ...database.env,
      ...s3.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PUBLIC_URL: publicUrl,
      TRUST_PROXY: 'loopback',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: redis.prefix,
      // Instances keep no disk in common: files go to the bucket, file links are signed with this key.
      FILE_LINK_SECRET: randomBytes(32).toString('hex'),
      DEMO_WORKFLOWS: 'true',
      DEMO_SLOW_STEP_MS: String(SLOW_STEP_MS),
      DEMO_CHAT_WORD_MS: '0',
      WEB_DIR: webDir,
    };
    // Whatever started is kept for afterAll to stop, even when another part failed to start.
    const started = await Promise.allSettled([
      startNginx({ dir: join(work, 'nginx'), port: nginxPort, upstreams: ports.map((_, i) => instance(i)) }),
      ...ports.map((port, i) =>
        startServerProcess({
          port,
          env: { ...shared, DATA_DIR: join(work, `instance-${i}`) },
        }),
      ),
    ]);
    for (const outcome of started) {
      if (outcome.status === 'rejected') continue;
      if ('requests' in outcome.value) nginx = outcome.value;
      else servers.push(outcome.value);
    }
    const failed = started.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
    context = await browser.newContext({ baseURL: publicUrl, acceptDownloads: true });
    // Every progress message the run screen shows, in order, however briefly (browser code, as text: the
    // server's TypeScript has no DOM types).
    await context.addInitScript(`
      const seen = (window.progressSeen = []);
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid=progress-message]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    `);
    page = await context.newPage();
  }, PROCESS_STARTUP_MS + 60_000);

  afterAll(async () => {
    await browser?.close();
    await nginx?.stop();
    for (const s of servers) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await s3?.close();
    await database?.remove();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const badge = () => page.getByTestId('credits-badge').filter({ visible: true });
  const balanceShown = async (credits: number) =>
    expect.poll(() => badge().textContent(), { timeout: 15_000 }).toBe(String(credits));

  /** Answers the demo assistant until it ends the conversation; the run then starts working. */
  async function chatToTheEnd(answers: string[]): Promise<void> {
    const input = page.locator('#chat-input');
    const assistant = page.locator('[role=log] [data-role=assistant]');
    for (let i = 0; i < 8; i++) {
      await expect.poll(() => input.isEnabled(), { timeout: 15_000 }).toBe(true);
      const before = await assistant.count();
      await input.fill(answers[i % answers.length] ?? 'Yes');
      await input.press('Enter');
      await expect.poll(() => assistant.count(), { timeout: 15_000 }).toBe(before + 1);
      await expect.poll(() => page.locator('[data-streaming=true]').count(), { timeout: 15_000 }).toBe(0);
      if (await input.isDisabled()) return;
    }
    throw new Error('the assistant never ended the conversation');
  }

  /** The run the page follows: its event stream's request names it. */
  function nextRunId(): Promise<string> {
    return new Promise((resolve) => {
      const onRequest = (request: { url(): string }) => {
        const id = /\/api\/executions\/([\w-]+)\/events$/.exec(request.url())?.[1];
        if (!id) return;
        page.off('request', onRequest);
        resolve(id);
      };
      page.on('request', onRequest);
    });
  }

  /** A demo workflow's id, by its service's path (/demo-hooks/<slug>), as the instances seeded it. */
  const demoId = async (slug: string) => {
    const [row] = await database.withDb((db) =>
      queryRows<{ id: string }>(
        db,
        sql`select id from user_workflows where webhook_url like ${`%/demo-hooks/${slug}`}`,
      ),
    );
    if (!row) throw new Error(`the demo ${slug} was not seeded`);
    return row.id;
  };

  /** The workflow's own progress messages the page has shown so far (before the first, it says it is waiting). */
  const progressSeen = async () =>
    ((await page.evaluate('window.progressSeen')) as string[]).filter((m) => SLOW_PROGRESS.includes(m));

  const sessionCookie = async () => {
    const cookie = (await context.cookies()).find((c) => c.name === 'flujo_session');
    if (!cookie) throw new Error('no session cookie');
    return `${cookie.name}=${cookie.value}`;
  };

  it('serves a whole visit through nginx, shares files and limits, and survives losing an instance', async () => {
    // nginx names every request (its $request_id: 32 hex digits, whatever the client sent) and the app, nginx
    // being a trusted proxy, answers and logs under that name: one id in both logs.
    const named = await fetch(`${nginx.url}/healthz`, {
      headers: { 'x-request-id': 'chosen-by-the-client' },
    });
    expect(named.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);

    // Sign-up, through the form.
    await page.goto('/signup?lng=en');
    await page.getByLabel('Full name').fill(PERSON.fullName);
    await page.getByLabel('Email').fill(PERSON.email);
    await page.getByLabel('Password').fill(PERSON.password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(/\/workflows$/);
    await balanceShown(5);

    // A demo that returns a file: its result arrives later as a multipart upload, through nginx, to whichever
    // instance nginx picks; the file goes to the bucket.
    await page.goto(`/workflows/${await demoId('expense-xlsx')}/execute?lng=en`);
    const form = page.locator('form');
    await visible(page.getByRole('button', { name: 'Submit answers' }));
    for (const field of await form.locator('input[type=text], textarea').all())
      await field.fill('Trip to Lisbon');
    for (const field of await form.locator('input[type=number]').all()) await field.fill('180');
    for (const select of await form.locator('select').all()) await select.selectOption({ index: 1 });
    await form.locator('input[type=checkbox]').first().check();
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await visible(page.getByTestId('result-screen'), 30_000);
    const link = page.getByTestId('result-download');
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/result\/[\w-]+$/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^expenses-\w+\.xlsx$/);
    const downloaded = readFileSync(await download.path());
    expect(downloaded.subarray(0, 2).toString()).toBe('PK');
    // The same bytes from each instance directly: neither keeps the file on its own disk.
    const cookie = await sessionCookie();
    for (const i of [0, 1]) {
      const res = await fetch(`http://${instance(i)}${href}`, { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(downloaded));
    }
    expect(await s3.objectKeys()).toHaveLength(1);
    for (const i of [0, 1]) expect(existsSync(join(work, `instance-${i}`, 'results'))).toBe(false);
    await balanceShown(3);

    // A pack of credits (the demo payment provider grants it at once).
    await page.goto('/credits?lng=en');
    await page.getByTestId('plan-unique-pro').click();
    await page.getByTestId('buy-button').click();
    await visible(page.getByRole('dialog', { name: 'Purchase complete' }));
    await balanceShown(33);

    // The slow demo: its progress messages and result are posted through nginx, round-robin, so some reach
    // the instance that does not hold the page's event stream, and the page still shows them as they come.
    const slowId = await demoId('slow-research');
    const firstRun = nextRunId();
    const logMark = nginx.requests().length;
    await page.goto(`/workflows/${slowId}/execute?lng=en`);
    await chatToTheEnd(['Vegan pastries for offices', 'Office managers in Madrid', 'Two bakeries nearby']);
    const runId = await firstRun;
    await visible(page.getByTestId('result-screen'), 30_000);
    await expect
      .poll(() => page.getByTestId('result-text').textContent())
      .toContain('Market research finished');
    const seen = await progressSeen();
    expect(seen.length).toBeGreaterThan(0);
    // nginx logs a request when it ends; the page closes its stream once the run has ended.
    await expect
      .poll(() => nginx.requests().some((r) => r.uri === `/api/executions/${runId}/events`), {
        timeout: 10_000,
      })
      .toBe(true);
    const logged = nginx.requests().slice(logMark);
    const stream = logged.find((r) => r.uri === `/api/executions/${runId}/events`)!;
    expect(stream.status).toBe(200);
    const callbacks = logged.filter((r) => r.method === 'POST' && r.uri === '/api/workflow-result');
    expect(callbacks.map((c) => c.status)).toEqual([200, 200, 200, 200]);
    const crossed = SLOW_PROGRESS.filter(
      (message, k) => callbacks[k]!.upstream !== stream.upstream && seen.includes(message),
    );
    expect(crossed.length, JSON.stringify({ stream, callbacks, seen })).toBeGreaterThan(0);
    await balanceShown(30);

    // The sign-up limit (5 an hour per address) is counted once in the database for both instances: with the
    // browser's sign-up, four more from this address pass, wherever each lands, and then neither accepts one.
    const signUp = async (i: number, n: number) => {
      const res = await fetch(`http://${instance(i)}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: nginx.url },
        body: JSON.stringify({
          email: `extra-${n}@deploy.example`,
          password: 'extra-password-1',
          fullName: 'Extra',
        }),
      });
      return res.status;
    };
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) statuses.push(await signUp(n % 2, n));
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
    const [signups] = await database.withDb((db) =>
      queryRows<{ failures: number }>(
        db,
        sql`select failures from auth_throttle where key = 'signup:ip:127.0.0.1'`,
      ),
    );
    expect(signups?.failures).toBe(7);

    // The slow demo again, and the instance that is not running the demo service's timers is killed as soon
    // as the first progress message shows: the run finishes on the other, and the page gets there.
    const secondRun = nextRunId();
    const mark = nginx.requests().length;
    await page.goto(`/workflows/${slowId}/execute?lng=en`);
    await chatToTheEnd(['Gluten-free bread', 'Cafés', 'None I know of']);
    const secondId = await secondRun;
    // The workflow's first own message (the screen says it is waiting before that).
    await expect.poll(async () => (await progressSeen()).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const dispatch = nginx
      .requests()
      .slice(mark)
      .find((r) => r.method === 'POST' && r.uri === '/demo-hooks/slow-research');
    expect(dispatch?.status).toBe(202);
    const survivor = ports.findIndex((_, i) => dispatch!.upstream.endsWith(instance(i)));
    expect(survivor).toBeGreaterThanOrEqual(0);
    const victim = servers[1 - survivor]!;
    victim.child.kill('SIGKILL');
    await victim.exited;
    await visible(page.getByTestId('result-screen'), 30_000);
    await expect
      .poll(() => page.getByTestId('result-text').textContent())
      .toContain('Market research finished');
    await balanceShown(27);
    // Everything after the kill was answered by the survivor.
    const after = nginx
      .requests()
      .slice(mark)
      .filter((r) => r.uri === '/api/workflow-result');
    expect(after.at(-1)).toMatchObject({ status: 200 });
    expect(after.at(-1)?.upstream.endsWith(instance(survivor))).toBe(true);

    // The books: every balance equals its ledger, and this person's is 5 - 2 + 30 - 3 - 3.
    await database.withDb(async (db) => {
      expect(await ledgerMismatches(db)).toEqual([]);
      const [person] = await db
        .select({ id: userProfiles.id, credits: userProfiles.credits })
        .from(userProfiles)
        .where(eq(userProfiles.email, PERSON.email));
      expect(person?.credits).toBe(27);
      const runs = await queryRows<{ id: string; status: string }>(
        db,
        sql`select id, status from workflow_executions where user_id = ${person!.id} order by created_at`,
      );
      expect(runs.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
      expect(runs.map((r) => r.id)).toEqual(expect.arrayContaining([runId, secondId]));
    });
  }, 240_000);
});
