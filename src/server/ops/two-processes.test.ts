import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { userWorkflows } from '../db/schema.js';
import { queryRows } from '../db/sql-helpers.js';
import { tallyRuns } from '../modules/executions/tally.js';
import { freePort } from '../modules/executions/testing/workflow-service.js';
import { PURCHASES } from '../modules/credits/testing/purchases.js';
import { ledgerMismatches } from '../test/ledger-check.js';
import { addSurveyWorkflow } from '../test/test-data.js';
import {
  onPostgres,
  postResultsLater,
  PROCESS_STARTUP_MS,
  raiseProcessSignupLimit,
  useSurveyProcesses,
  type ServerProcess,
} from '../test/server-process.js';

/**
 * Two server processes on one PostgreSQL, as a production deployment runs them. Opens (free, one unsent run
 * per person and workflow: decision 123), sends (charged), completions and result callbacks are split across
 * both; then both restart at the same moment with runs
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
  /** A second survey workflow of the same service, so that a person can hold two unsent runs. */
  let otherWorkflowId = '';
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
  // A test that fails between its starts and stops leaves its servers on their ports: the next test starts its
  // own there, so they go now, not with the file.
  afterEach(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    servers = [];
  });
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
    otherWorkflowId = await database.withDb(async (db) => {
      const [first] = await db
        .select({ owner: userWorkflows.userId })
        .from(userWorkflows)
        .where(eq(userWorkflows.id, processes.workflowId));
      return (await addSurveyWorkflow(db, first!.owner!, { webhookUrl: `${processes.service.url}/hook` })).id;
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

    // Each user fires 12 opens of a workflow at once, half on each instance: the opens of one person are
    // serialised across both, so all answer the same unsent run, and nothing is charged.
    const openAtOnce = async (user: { cookie: string }, workflowId: string, offset: number) => {
      const answers = await Promise.all(
        Array.from({ length: STARTS_PER_USER }, (_, i) =>
          post(offset + i, '/api/executions/start', { workflowId }, user.cookie),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
      const ids = new Set(answers.map((a) => (a.json as { executionId: string }).executionId));
      expect(ids.size).toBe(1);
      return [...ids][0]!;
    };

    // Three runs of each user are sent (and charged) through alternating instances, the first 12 times at
    // once on both (one is taken, the others answer 409); each sent run lets the next open be a new one.
    // The callbacks land on either instance.
    const sendResults = await Promise.all(
      users.map(async (user, u) => {
        const statuses: number[] = [];
        for (let r = 0; r < 3; r += 1) {
          const runId = await openAtOnce(user, processes.workflowId, u + r);
          const times = r === 0 ? STARTS_PER_USER : 1;
          const sent = await Promise.all(
            Array.from({ length: times }, (_, i) =>
              post(
                u + r + i + 1,
                `/api/executions/${runId}/complete`,
                { responses: [{ questionId: 'q1', answer: 'two' }] },
                user.cookie,
              ),
            ),
          );
          statuses.push(...sent.map((c) => c.status));
        }
        return statuses.sort();
      }),
    );
    for (const statuses of sendResults) {
      expect(statuses).toEqual([
        ...Array<number>(3).fill(200),
        ...Array<number>(STARTS_PER_USER - 1).fill(409),
      ]);
    }

    // Then two runs each user opens and never sends: one of each workflow (a third open of one would answer
    // the same run again).
    await Promise.all(
      users.map(async (user, u) => {
        await openAtOnce(user, processes.workflowId, u);
        await openAtOnce(user, otherWorkflowId, u + 1);
      }),
    );

    // Each user also buys a monthly plan (on either instance): 20 credits and a 2-credit bonus.
    for (const [i, user] of users.entries()) {
      expect((await post(i, '/api/credits/purchase', PURCHASES.starterMonthly, user.cookie)).status).toBe(
        200,
      );
    }

    // Both stop; the two unsent runs of each user are made overdue and every plan's next month due, and both
    // instances come back at the same moment, so both sweepers and both renewal jobs run their first pass
    // together. Each plan becomes one bought a day earlier, due on its own day of the month: exactly one month
    // is due on any date, and not the first month's. (Moving only the renewal date a day back left a plan bought
    // on the 1st due again at once: its next renewal day was today.)
    await stopBoth();
    await database.withDb(async (db) => {
      await db.execute(sql`update workflow_executions set expires_at = now() - interval '1 minute'
                             where status in ('pending', 'running')`);
      await db.execute(sql`update subscriptions set created_at = created_at - interval '1 day',
                                                     next_renewal_date = now() - interval '1 day'`);
    });
    await startBoth();
    await vi.waitFor(
      async () => {
        const [left] = await database.withDb((db) =>
          queryRows<{ open: number; due: number }>(
            db,
            sql`select (select count(*)::int from workflow_executions where status in ('pending', 'running')) as open,
                       (select count(*)::int from subscriptions where next_renewal_date <= now()) as due`,
          ),
        );
        expect(
          left,
          `runs still open and plans still due; the servers said:\n${servers.map((s) => s.stderr()).join('\n')}`,
        ).toEqual({ open: 0, due: 0 });
      },
      { timeout: 30_000, interval: 200 },
    );
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
      // A sent run is charged once and refunded once unless it completed; an unsent run expires with neither.
      const unsent = runs.filter((r) => r.status === 'expired');
      const sent = runs.filter((r) => r.status !== 'expired');
      expect(unsent.filter((r) => r.charges !== 0 || r.refunds !== 0)).toEqual([]);
      expect(sent.filter((r) => r.charges !== 1)).toEqual([]);
      expect(sent.filter((r) => r.refunds !== (r.status === 'completed' ? 0 : 1))).toEqual([]);
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
      // 5 bonus - 3 sent runs + refunds + 2 x (20 + 2): every credit accounted for, per user.
      const refunds = await queryRows<{ email: string; n: number }>(
        db,
        sql`select p.email, count(t.id)::int as n from user_profiles p
              left join credit_transactions t on t.user_id = p.id and t.transaction_type = 'refund'
              where p.email like 'two-%' group by p.email order by p.email`,
      );
      expect(grants.map((g) => g.balance)).toEqual(refunds.map((r) => 5 - 3 + r.n + 2 * 22));

      await tallyRuns(db);
      const [counter] = await queryRows<{ count: number }>(
        db,
        sql`select execution_count as count from user_workflows where id = ${processes.workflowId}`,
      );
      // The counter counts paid runs: the three sent of each user.
      expect(counter?.count).toBe(USERS * 3);
    });
  }, 180_000);

  it('starts exactly one run for each due time of a schedule, whichever instance claims it', async () => {
    // Four schedules for each person, all due at today's 00:00 UTC and ending a second later, written while
    // both instances are down; both come back at once, so both schedule jobs reach for the same rows.
    const SCHEDULES_PER_USER = 4;
    const scheduled = await database.withDb(async (db) => {
      const people = await queryRows<{ id: string }>(
        db,
        sql`select id from user_profiles where email like 'two-%' order by email`,
      );
      const due = sql`date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`;
      let count = 0;
      for (const person of people) {
        for (let i = 0; i < SCHEDULES_PER_USER; i += 1) {
          await db.execute(sql`with saved as (
              insert into saved_inputs (user_id, workflow_id, name, answers, language)
              values (${person.id}, ${processes.workflowId}, ${`scheduled ${i}`}, '{"q1": "two"}'::jsonb, 'es')
              returning id, user_id
            )
            insert into schedules (user_id, saved_input_id, cron, timezone, ends_at, next_run_at)
            select user_id, id, '0 0 * * *', 'UTC', ${due} + interval '1 second', ${due} from saved`);
          count += 1;
        }
      }
      return count;
    });
    expect(scheduled).toBe(USERS * SCHEDULES_PER_USER);
    await startBoth();
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [left] = await database.withDb((db) =>
        queryRows<{ active: number }>(db, sql`select count(*)::int as active from schedules where active`),
      );
      if (left?.active === 0) break;
      if (Date.now() > deadline) throw new Error(`schedules still due: ${JSON.stringify(left)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await stopBoth();
    await database.withDb(async (db) => {
      expect(await ledgerMismatches(db)).toEqual([]);
      const history = await queryRows<{
        outcome: string;
        runs: number;
        distinct_runs: number;
        charges: number;
      }>(
        db,
        sql`select h.outcome, count(*)::int as runs, count(distinct h.run_id)::int as distinct_runs,
                (select count(*)::int from credit_transactions t join schedule_runs s on s.run_id = t.execution_id
                  where t.transaction_type = 'usage') as charges
              from schedule_runs h group by h.outcome`,
      );
      expect(history).toEqual([
        { outcome: 'started', runs: scheduled, distinct_runs: scheduled, charges: scheduled },
      ]);
      const [origin] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from workflow_executions where origin = 'schedule'`,
      );
      expect(origin?.n).toBe(scheduled);
      const [ended] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from schedules where paused_reason = 'ended'`,
      );
      expect(ended?.n).toBe(scheduled);
    });
  }, 180_000);
});
