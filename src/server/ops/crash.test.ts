import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { queryRows } from '../db/sql-helpers.js';
import { expireOverdueRuns } from '../modules/executions/sweeper.js';
import { tallyRuns } from '../modules/executions/tally.js';
import { freePort } from '../modules/executions/testing/workflow-service.js';
import { PURCHASES } from '../modules/credits/testing/purchases.js';
import { ledgerMismatches } from '../test/ledger-check.js';
import { fetchApi, setConfigEntry } from '../test/signup-limit.js';
import {
  onPostgres,
  PROCESS_ADMIN,
  postResultsLater,
  raiseProcessSignupLimit,
  useSurveyProcesses,
  type ServerProcess,
} from '../test/server-process.js';
import { Metrics } from '../lib/metrics.js';

/**
 * Crash safety: the real server, killed with SIGKILL at random moments of a burst of
 * sign-ups, purchases, run starts, run completions and result callbacks, restarted each time. Afterwards,
 * with one sweep past the run window, nothing acknowledged is lost and the books hold: balance = ledger sum
 * and >= 0, each run whose answers were sent charged once and, when it did not complete, refunded once, each
 * run left unsent neither charged nor refunded, each purchase key granted once, each paid run counted once. 50 kills, on PostgreSQL (the production database) only: the PostgreSQL run of the
 * suite holds the slow process tests, so the two embedded runs stay short.
 */
const KILLS = Number(process.env.CRASH_KILLS ?? 50);

interface Account {
  email: string;
  cookie: string;
}

/** What the clients were told: only these must survive (an answer lost with the server proves nothing). */
const acknowledged = {
  signups: new Set<string>(),
  starts: new Set<string>(),
  /** Idempotency key -> the answer's creditsGranted. */
  purchases: new Map<string, { email: string; credits: number }>(),
};
/** Purchase keys sent without an answer: sent again after the restart, as a client would. */
const unanswered: Array<{ key: string; account: Account }> = [];

const processes = useSurveyProcesses('crash');
const { database } = processes;
let port: number;
let server: ServerProcess | undefined;
const accounts: Account[] = [];

beforeAll(async () => {
  port = await freePort();
  // Mostly completed, some failed; a callback that meets a dead server is lost, and its run must expire.
  postResultsLater(processes.service, {
    target: () => `http://127.0.0.1:${port}`,
    fails: () => Math.random() < 0.3,
    delayMs: () => Math.random() * 40,
  });
});

function startServer(): Promise<ServerProcess> {
  return processes.start(port);
}

/** A request that may die with the server: the answer, or null when none came. */
async function call(
  path: string,
  options: { body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: unknown; setCookie: string | null } | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: `http://127.0.0.1:${port}`,
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...options.headers,
      },
      body: JSON.stringify(options.body ?? {}),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return {
      status: res.status,
      json: text ? (JSON.parse(text) as unknown) : null,
      setCookie: res.headers.get('set-cookie'),
    };
  } catch {
    return null;
  }
}

async function signUp(): Promise<void> {
  const email = `crash-${randomBytes(6).toString('hex')}@crash.example`;
  const res = await call('/api/auth/signup', {
    body: { email, password: 'crash-password-1', fullName: 'Crash' },
  });
  if (res?.status !== 201) return;
  acknowledged.signups.add(email);
  const cookie = res.setCookie?.split(';')[0];
  if (cookie) accounts.push({ email, cookie });
}

async function purchase(account: Account, key: string = randomUUID()): Promise<void> {
  const res = await call('/api/credits/purchase', {
    body: PURCHASES.starterPack,
    cookie: account.cookie,
    headers: { 'idempotency-key': key },
  });
  if (res === null || res.status >= 500) {
    unanswered.push({ key, account });
    return;
  }
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const granted = (res.json as { creditsGranted: number }).creditsGranted;
  const first = acknowledged.purchases.get(key);
  // A replay answers what the first attempt answered.
  if (first) expect(granted).toBe(first.credits);
  acknowledged.purchases.set(key, { email: account.email, credits: granted });
}

async function startAndComplete(account: Account, complete = Math.random() < 0.8): Promise<void> {
  const res = await call('/api/executions/start', {
    body: { workflowId: processes.workflowId },
    cookie: account.cookie,
  });
  if (res?.status !== 201) return;
  const runId = (res.json as { executionId: string }).executionId;
  acknowledged.starts.add(runId);
  if (complete) {
    await call(`/api/executions/${runId}/complete`, {
      body: { responses: [{ questionId: 'q1', answer: 'crashes' }] },
      cookie: account.cookie,
    });
  }
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;

/**
 * One burst: the purchases left without an answer are sent again, and six clients work without pause
 * (sign-ups, purchases, starts and completions) until the server is killed under them.
 */
async function burst(): Promise<void> {
  let killed = false;
  const retries = unanswered.splice(0);
  const client = async () => {
    while (!killed) {
      const dice = Math.random();
      if (dice < 0.1 || !accounts.length) await signUp();
      else if (dice < 0.3) await purchase(pick(accounts));
      else await startAndComplete(pick(accounts));
    }
  };
  const work = [
    ...retries.map(({ key, account }) => purchase(account, key)),
    ...Array.from({ length: 6 }, client),
  ];
  // The kill comes a random moment after the burst's first acknowledged run start: on a machine busy with
  // other work the clients may need seconds to get going, and a kill before any of it would test nothing.
  // Should none come within 20 s, the kill comes anyway: the next burst's clients try again.
  const startsBefore = acknowledged.starts.size;
  await vi
    .waitFor(() => expect(acknowledged.starts.size).toBeGreaterThan(startsBefore), {
      timeout: 20_000,
      interval: 10,
    })
    .catch(() => undefined);
  // The random moment itself, not a wait for anything.
  await new Promise((r) => setTimeout(r, 50 + Math.random() * 350));
  killed = true;
  server!.child.kill('SIGKILL');
  await server!.exited;
  server = undefined;
  await Promise.all(work);
}

describe.runIf(onPostgres)('crash safety', () => {
  it(
    `keeps every acknowledged write and the books through ${KILLS} SIGKILLs during a burst of work`,
    async () => {
      const startedAt = Date.now();
      // A first life without a kill gives the bursts accounts to work with.
      server = await startServer();
      await raiseProcessSignupLimit(server);
      // A third of the results fail and each kill expires the runs under way, so five failures in a row come
      // sooner or later, and the workflow would pause itself (auto_pause_consecutive_failures): every later start
      // refused, no burst would get the acknowledged start its kill waits for, and its clients would spin on
      // sign-ups and purchases for 20 s (seen in CI: 4,932 sign-ups and 567 s instead of about 40 and 200).
      // Crash safety is about the books; pausing has tests of its own.
      await setConfigEntry(fetchApi(server.url), PROCESS_ADMIN, 'auto_pause_consecutive_failures', 0);
      await Promise.all(Array.from({ length: 8 }, () => signUp()));
      server.child.kill('SIGKILL');
      await server.exited;
      for (let kill = 0; kill < KILLS; kill++) {
        server = await startServer();
        await burst();
      }
      // One last life: the purchases left without an answer are sent again, then the server stops cleanly.
      server = await startServer();
      for (const { key, account } of unanswered.splice(0)) await purchase(account, key);
      // And a newcomer's runs to their result, so the books hold runs that a result settled, whatever the kills
      // met.
      await signUp();
      for (let i = 0; i < 3; i++) await startAndComplete(accounts.at(-1)!, true);
      expect(unanswered).toEqual([]);
      server.child.kill('SIGTERM');
      expect(await server.exited, server.stderr()).toBe(0);
      server = undefined;

      await database.withDb(async (db, opened) => {
        const config = loadConfig({ ...process.env, ...database.env });
        // One sweep past the run window: every run still open then is expired (refunded when it was charged).
        const later = new Date(Date.now() + 16 * 60_000);
        await expireOverdueRuns({ config, database: opened, db, now: () => later, metrics: new Metrics() });
        await tallyRuns(db);

        expect(await ledgerMismatches(db)).toEqual([]);
        const runs = await queryRows<{
          id: string;
          status: string;
          sent: boolean;
          charges: number;
          refunds: number;
        }>(
          db,
          sql`select e.id, e.status, e.dispatched_at is not null as sent,
                (select count(*)::int from credit_transactions t
                  where t.execution_id = e.id and t.transaction_type = 'usage') as charges,
                (select count(*)::int from credit_transactions t
                  where t.execution_id = e.id and t.transaction_type = 'refund') as refunds
              from workflow_executions e`,
        );
        const byId = new Map(runs.map((r) => [r.id, r]));
        expect([...acknowledged.starts].filter((id) => !byId.has(id))).toEqual([]);
        expect(runs.filter((r) => r.status === 'pending' || r.status === 'running')).toEqual([]);
        // A run is charged with its answers, in the transaction that sends them: never one without the other.
        expect(runs.filter((r) => r.charges !== (r.sent ? 1 : 0))).toEqual([]);
        expect(runs.filter((r) => r.refunds !== (r.sent && r.status !== 'completed' ? 1 : 0))).toEqual([]);
        const [orphans] = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from credit_transactions t
              where t.transaction_type in ('usage', 'refund')
                and not exists (select 1 from workflow_executions e where e.id = t.execution_id)`,
        );
        expect(orphans?.n).toBe(0);

        const emails = new Set(
          (await queryRows<{ email: string }>(db, sql`select email from user_profiles`)).map((r) => r.email),
        );
        expect([...acknowledged.signups].filter((e) => !emails.has(e))).toEqual([]);
        const bonuses = await queryRows<{ email: string; n: number }>(
          db,
          sql`select p.email, count(t.id)::int as n from user_profiles p
              left join credit_transactions t on t.user_id = p.id and t.transaction_type = 'bonus'
              where p.email like 'crash-%' group by p.email`,
        );
        expect(bonuses.filter((b) => b.n !== 1)).toEqual([]);

        // Each purchase key was granted once, however often it was sent, and every answered one is there.
        const purchases = await queryRows<{ email: string; n: number; credits: number }>(
          db,
          sql`select p.email, count(t.id)::int as n, coalesce(sum(t.amount), 0)::int as credits
              from user_profiles p join credit_transactions t on t.user_id = p.id
              where t.transaction_type = 'purchase' group by p.email order by p.email`,
        );
        const keys = await queryRows<{ email: string; n: number }>(
          db,
          sql`select p.email, count(*)::int as n from idempotency_keys k
              join user_profiles p on p.id = k.user_id group by p.email order by p.email`,
        );
        const answered = new Map<string, number>();
        for (const { email } of acknowledged.purchases.values()) {
          answered.set(email, (answered.get(email) ?? 0) + 1);
        }
        for (const [email, n] of answered) {
          expect(purchases.find((p) => p.email === email)?.n, email).toBe(n);
        }
        expect(purchases.map((p) => [p.email, p.n])).toEqual(keys.map((k) => [k.email, k.n]));
        expect(purchases.filter((p) => p.credits !== p.n * PURCHASES.starterPack.credits)).toEqual([]);

        // The run counter counted each paid run once, whatever was killed in between.
        const counters = await queryRows<{ count: number; runs: number }>(
          db,
          sql`select w.execution_count as count,
                (select count(*)::int from workflow_executions e where e.workflow_id = w.id) as runs
              from user_workflows w where w.id = ${processes.workflowId}`,
        );
        const paid = runs.filter((r) => r.sent).length;
        expect(counters).toEqual([{ count: paid, runs: runs.length }]);

        // The test means something only if the kills met real work.
        expect(acknowledged.starts.size).toBeGreaterThan(KILLS);
        expect(runs.some((r) => r.status === 'completed' || r.status === 'failed')).toBe(true);
        expect(runs.some((r) => r.status === 'expired')).toBe(true);
        console.log(
          `crash test (${database.kind}): ${KILLS} kills survived in ${Math.round((Date.now() - startedAt) / 1000)} s; ` +
            `${acknowledged.signups.size} sign-ups, ${acknowledged.purchases.size} purchases, ${runs.length} runs ` +
            `(${runs.filter((r) => r.status === 'completed').length} completed, ` +
            `${runs.filter((r) => r.status === 'failed').length} failed, ` +
            `${runs.filter((r) => r.status === 'expired').length} expired), nothing lost`,
        );
      });
    },
    KILLS * 30_000 + 120_000,
  );
});
