import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/sql-helpers.js';
import { tallyRuns } from '../modules/executions/tally.js';
import { freePort } from '../modules/executions/testing/workflow-service.js';
import { PURCHASES } from '../modules/credits/testing/purchases.js';
import { ledgerMismatches } from '../test/ledger-check.js';
import {
  onPostgres,
  postResultsLater,
  PROCESS_STARTUP_MS,
  raiseProcessSignupLimit,
  useSurveyProcesses,
  type ServerProcess,
} from '../test/server-process.js';

/**
 * Two server processes on one PostgreSQL, as a production deployment runs them. Starts,
 * completions and result callbacks are split across both; then both restart at the same moment with runs
 * overdue and monthly plans due, so that both sweepers and both renewal jobs reach for the same rows at once.
 * PGlite admits one process per database, so this runs in the PostgreSQL suite; the in-process variant of
 * these races (multi-instance.test.ts) runs on both databases.
 */
const USERS = 8;
const STARTS_PER_USER = 12;

describe.runIf(onPostgres)('two server processes on one PostgreSQL', () => {
  const processes = useSurveyProcesses('two');
  const { database } = processes;
  let ports: [number, number];
  let servers: ServerProcess[] = [];

  const origin = (i: number) => `http://127.0.0.1:${ports[i % 2]}`;
  const startBoth = async () => {
    servers = await Promise.all(ports.map((port) => processes.start(port)));
  };
  const stopBoth = async () => {
    for (const s of servers) s.child.kill('SIGTERM');
    expect(await Promise.all(servers.map((s) => s.exited))).toEqual([0, 0]);
    servers = [];
  };
  const post = async (instance: number, path: string, body: unknown, cookie?: string) => {
    const res = await fetch(`${origin(instance)}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: origin(instance),
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify(body),
    });
    return {
      status: res.status,
      json: (await res.json()) as unknown,
      setCookie: res.headers.get('set-cookie'),
    };
  };

  beforeAll(async () => {
    ports = [await freePort(), await freePort()];
    // Each result goes back to one of the two instances in turn, not always the one that dispatched the run;
    // every fourth reports a failure.
    let callbacks = 0;
    postResultsLater(processes.service, {
      target: () => origin(callbacks++),
      fails: () => callbacks % 4 === 0,
      delayMs: () => 20,
    });
    await startBoth();
    await raiseProcessSignupLimit(servers[0]!);
  }, PROCESS_STARTUP_MS);

  it('gives exact accounting for work split across both, and expires and renews each row once', async () => {
    // Sign-ups alternate between the instances; each account has the 5-credit bonus.
    const users: Array<{ email: string; cookie: string }> = [];
    for (let i = 0; i < USERS; i++) {
      const email = `two-${i}@two.example`;
      const res = await post(i, '/api/auth/signup', { email, password: 'two-password-1', fullName: 'Two' });
      expect(res.status).toBe(201);
      users.push({ email, cookie: res.setCookie!.split(';')[0]! });
    }

    // Each user fires 12 starts at once, half on each instance, with 5 credits: exactly 5 may run.
    const started = await Promise.all(
      users.map(async (user) => {
        const answers = await Promise.all(
          Array.from({ length: STARTS_PER_USER }, (_, i) =>
            post(i, '/api/executions/start', { workflowId: processes.workflowId }, user.cookie),
          ),
        );
        expect(answers.map((a) => a.status).sort()).toEqual([
          ...Array<number>(5).fill(201),
          ...Array<number>(STARTS_PER_USER - 5).fill(402),
        ]);
        return answers
          .filter((a) => a.status === 201)
          .map((a) => (a.json as { executionId: string }).executionId);
      }),
    );

    // Three runs of each user are completed through alternating instances; the callbacks land on either.
    const completions = started.flatMap((runs, u) =>
      runs
        .slice(0, 3)
        .map((runId, i) =>
          post(
            u + i,
            `/api/executions/${runId}/complete`,
            { responses: [{ question: 'Topic?', answer: 'two' }] },
            users[u]!.cookie,
          ),
        ),
    );
    const completed = await Promise.all(completions);
    expect(completed.map((c) => c.status)).toEqual(completed.map(() => 200));

    // Each user also buys a monthly plan (on either instance): 20 credits and a 2-credit bonus.
    for (const [i, user] of users.entries()) {
      expect((await post(i, '/api/credits/purchase', PURCHASES.starterMonthly, user.cookie)).status).toBe(
        200,
      );
    }

    // Both stop; the two unfinished runs of each user are made overdue and every plan's next month due (a
    // day back: a period other than the first month's), and both instances come back at the same moment, so
    // both sweepers and both renewal jobs run their first pass together.
    await stopBoth();
    await database.withDb(async (db) => {
      await db.execute(sql`update workflow_executions set expires_at = now() - interval '1 minute'
                             where status in ('pending', 'running')`);
      await db.execute(sql`update subscriptions set next_renewal_date = now() - interval '1 day'`);
    });
    await startBoth();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [left] = await database.withDb((db) =>
        queryRows<{ open: number; due: number }>(
          db,
          sql`select (select count(*)::int from workflow_executions where status in ('pending', 'running')) as open,
                       (select count(*)::int from subscriptions where next_renewal_date <= now()) as due`,
        ),
      );
      if (left?.open === 0 && left.due === 0) break;
      if (Date.now() > deadline) throw new Error(`jobs did not finish: ${JSON.stringify(left)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await stopBoth();

    await database.withDb(async (db) => {
      expect(await ledgerMismatches(db)).toEqual([]);
      const runs = await queryRows<{ status: string; refunds: number; charges: number }>(
        db,
        sql`select e.status,
                (select count(*)::int from credit_transactions t
                  where t.execution_id = e.id and t.transaction_type = 'refund') as refunds,
                (select count(*)::int from credit_transactions t
                  where t.execution_id = e.id and t.transaction_type = 'usage') as charges
              from workflow_executions e`,
      );
      expect(runs).toHaveLength(USERS * 5);
      expect(runs.filter((r) => r.charges !== 1)).toEqual([]);
      expect(runs.filter((r) => r.refunds !== (r.status === 'completed' ? 0 : 1))).toEqual([]);
      const byStatus = (s: string) => runs.filter((r) => r.status === s).length;
      expect(byStatus('expired')).toBe(USERS * 2);
      expect(byStatus('completed') + byStatus('failed')).toBe(USERS * 3);
      expect(byStatus('failed')).toBeGreaterThan(0);

      // One renewal per plan: the first month's grant and exactly one renewal, each with its bonus.
      const grants = await queryRows<{ email: string; purchases: number; bonuses: number; balance: number }>(
        db,
        sql`select p.email, p.credits as balance,
                (select count(*)::int from credit_transactions t
                  where t.user_id = p.id and t.transaction_type = 'purchase') as purchases,
                (select count(*)::int from credit_transactions t
                  where t.user_id = p.id and t.transaction_type = 'bonus') as bonuses
              from user_profiles p where p.email like 'two-%' order by p.email`,
      );
      expect(grants.map((g) => [g.purchases, g.bonuses])).toEqual(users.map(() => [2, 3]));
      // 5 bonus - 5 runs + refunds + 2 x (20 + 2): every credit accounted for, per user.
      const refunds = await queryRows<{ email: string; n: number }>(
        db,
        sql`select p.email, count(t.id)::int as n from user_profiles p
              left join credit_transactions t on t.user_id = p.id and t.transaction_type = 'refund'
              where p.email like 'two-%' group by p.email order by p.email`,
      );
      expect(grants.map((g) => g.balance)).toEqual(refunds.map((r) => 5 - 5 + r.n + 2 * 22));

      await tallyRuns(db);
      const [counter] = await queryRows<{ count: number }>(
        db,
        sql`select execution_count as count from user_workflows where id = ${processes.workflowId}`,
      );
      expect(counter?.count).toBe(USERS * 5);
    });
  }, 180_000);
});
