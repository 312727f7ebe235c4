import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONE_TIME_PACKS } from '#shared/contract/plans.js';
import type { AppDeps } from '#server/types.js';
import { signInAdmin, signUpUser, type TestClient } from '#server/test/client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import { settleRun } from '../executions/settle.js';
import { expireOverdueRuns } from '../executions/sweeper.js';
import { addSurveyWorkflow, testAdminId, withConfig } from '#server/test/test-data.js';

// Model-based: fast-check picks commands (purchases, replays of an Idempotency-Key, run starts, sent answers
// (the moment a run is charged), results, expiries, admin adjustments, and a burst of concurrent sends of one
// run with an admin debit), runs them through the
// real API and settlement code in a scheduled order, and after every one compares each user's balance with an
// in-memory model of what it must be. A failure prints
// the seed and the shrunk command list (replay with FC_SEED=<seed>). The random non-model sequences live in
// ledger.property.test.ts.

const RUN_COST = 3;
const ANSWERS = { responses: [{ question: 'Name?', answer: 'Model' }] };
const USERS = 3;

let t: TestApp;
let admin: TestClient;
let workflowId: string;
let iteration = 0;
const pool: Array<{ id: string; client: TestClient }> = [];

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
  const wf = await addSurveyWorkflow(t.database.db, await testAdminId(t), {
    webhookUrl: 'http://127.0.0.1:9/hook',
    creditsPerExecution: RUN_COST,
  });
  workflowId = wf.id;
  for (let i = 0; i < USERS; i += 1) pool.push(await signUpUser(t));
}, 60_000);
afterAll(async () => {
  expect(await ledgerMismatches(t.database.db)).toEqual([]);
  await t?.close();
});

/** The sweeper with a clock of its own, a day ahead: every run open now is past its expiry there. */
function sweepDeps(): AppDeps {
  return { ...t.deps, now: () => new Date(Date.now() + 86_400_000) };
}

interface Model {
  balance: number[];
  /** Idempotency keys already answered, with the pack they bought. */
  keys: Map<string, number>;
  /** `sent`: its answers went out, so it was charged. */
  runs: Array<{ user: number; open: boolean; sent: boolean }>;
}
interface Real {
  runIds: string[];
}

async function apiBalance(user: number): Promise<number> {
  const res = await pool[user]!.client.get('/api/auth/me');
  expect(res.statusCode).toBe(200);
  const body = res.json() as { credits?: number; user?: { credits: number } };
  return body.credits ?? body.user!.credits;
}

async function checkAgainst(model: Model): Promise<void> {
  for (let u = 0; u < USERS; u += 1) expect(await apiBalance(u)).toBe(model.balance[u]);
  expect(await ledgerMismatches(t.database.db)).toEqual([]);
}

class Purchase implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly pack: number,
    readonly key: number,
  ) {}
  check = () => true;
  async run(m: Model): Promise<void> {
    const plan = ONE_TIME_PACKS[this.pack]!;
    // Keys are per iteration, so a key of an earlier iteration is never mistaken for a replay.
    const key = `model-${iteration}-${pool[this.user]!.id}-${this.key}`;
    const res = await pool[this.user]!.client.post(
      '/api/credits/purchase',
      { type: plan.type, credits: plan.credits, usdAmount: plan.priceUsd, planName: plan.name },
      { 'idempotency-key': key },
    );
    const seen = m.keys.get(key);
    if (seen === undefined) {
      expect(res.statusCode).toBe(200);
      m.keys.set(key, this.pack);
      m.balance[this.user]! += plan.credits;
    } else if (seen === this.pack) {
      // A replay: the first answer again, nothing granted twice.
      expect(res.statusCode).toBe(200);
    } else {
      expect(res.statusCode).toBe(409);
    }
    await checkAgainst(m);
  }
  toString = () => `purchase(user ${this.user}, pack ${this.pack}, key ${this.key})`;
}

class StartRun implements fc.AsyncCommand<Model, Real> {
  constructor(readonly user: number) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const res = await pool[this.user]!.client.post('/api/executions/start', { workflowId, language: 'en' });
    // Opening the page charges nothing; the balance must cover the price all the same.
    if (m.balance[this.user]! >= RUN_COST) {
      expect(res.statusCode).toBe(201);
      const id = (res.json() as { executionId: string }).executionId;
      // The user's unsent run of the workflow is answered again, never a second one.
      const unsent = m.runs.findIndex((run) => run.user === this.user && run.open && !run.sent);
      if (unsent >= 0) {
        expect(id).toBe(r.runIds[unsent]);
      } else {
        r.runIds.push(id);
        m.runs.push({ user: this.user, open: true, sent: false });
      }
    } else {
      expect(res.statusCode).toBe(402);
    }
    await checkAgainst(m);
  }
  toString = () => `start(user ${this.user})`;
}

/**
 * Sends a run's answers: the moment it is charged. Its webhook is on a private address this app refuses, so
 * the run fails at once and is refunded in the same call; the charge and the refund are both in the ledger.
 */
class Submit implements fc.AsyncCommand<Model, Real> {
  constructor(readonly runIndex: number) {}
  check = (m: Readonly<Model>) => m.runs.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const index = this.runIndex % m.runs.length;
    const run = m.runs[index]!;
    const res = await pool[run.user]!.client.post(`/api/executions/${r.runIds[index]}/complete`, ANSWERS);
    if (!run.open || run.sent) {
      expect(res.statusCode).toBe(409);
    } else if (m.balance[run.user]! >= RUN_COST) {
      expect(res.statusCode).toBe(200);
      followSent(m, run, res.json<{ status: string }>().status);
    } else {
      expect(res.statusCode).toBe(402);
    }
    await checkAgainst(m);
  }
  toString = () => `submit(run ${this.runIndex})`;
}

/**
 * Truly concurrent: several sends of one user's answers and an admin debit for that user at the same moment
 * (on PostgreSQL they reach the database on separate connections). Whatever order the database picks, the
 * outcome must be one a serial order could give: the run is charged at most once, the spend never exceeds the
 * balance, each refusal is a clean 402 or 409, and the balance moves by exactly what was accepted. The model
 * then follows what happened.
 */
class ConcurrentSpend implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly sends: number,
    readonly debit: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const client = pool[this.user]!.client;
    const before = m.balance[this.user]!;
    if (before < RUN_COST) return;
    const opened = await client.post('/api/executions/start', { workflowId, language: 'en' });
    expect(opened.statusCode).toBe(201);
    const runId = (opened.json() as { executionId: string }).executionId;
    let index = r.runIds.indexOf(runId);
    if (index < 0) {
      index = r.runIds.push(runId) - 1;
      m.runs.push({ user: this.user, open: true, sent: false });
    }
    const [adjusted, ...sent] = await Promise.all([
      admin.post('/api/admin/users/adjust-credits', {
        userId: pool[this.user]!.id,
        amount: -this.debit,
        reason: 'model race',
      }),
      ...Array.from({ length: this.sends }, () => client.post(`/api/executions/${runId}/complete`, ANSWERS)),
    ]);
    const accepted = sent.filter((res) => res.statusCode === 200);
    expect(accepted.length).toBeLessThanOrEqual(1);
    for (const res of sent) expect([200, 402, 409]).toContain(res.statusCode);
    expect([200, 409]).toContain(adjusted!.statusCode);
    // What stays taken never exceeds the balance. A run its workflow failed at once gives its charge back, and
    // that refund may land before the admin's debit, which then fits: count the run only when it kept it.
    const kept = accepted.filter((res) => res.json<{ status: string }>().status !== 'failed').length;
    const spent = kept * RUN_COST + (adjusted!.statusCode === 200 ? this.debit : 0);
    expect(spent).toBeLessThanOrEqual(before);
    // followSent below takes the run's charge off (and gives it back when it failed at once).
    const debited = adjusted!.statusCode === 200 ? this.debit : 0;
    // Nothing the balance could have paid for is refused when everything fits.
    if (RUN_COST + this.debit <= before) {
      expect([accepted.length, adjusted!.statusCode]).toEqual([1, 200]);
    }
    m.balance[this.user] = before - debited;
    if (accepted[0]) followSent(m, m.runs[index]!, accepted[0].json<{ status: string }>().status);
    await checkAgainst(m);
  }
  toString = () => `concurrentSpend(user ${this.user}, ${this.sends} sends, debit ${this.debit})`;
}

/** A run whose answers went out: charged, and given back at once when its workflow failed it already. */
function followSent(m: Model, run: Model['runs'][number], status: string): void {
  run.sent = true;
  m.balance[run.user]! -= RUN_COST;
  if (status === 'failed') {
    run.open = false;
    m.balance[run.user]! += RUN_COST;
  }
}

class Result implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly runIndex: number,
    readonly outcome: 'completed' | 'failed',
  ) {}
  check = (m: Readonly<Model>) => m.runs.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const index = this.runIndex % m.runs.length;
    const run = m.runs[index]!;
    const ended = await settleRun(
      t.deps,
      r.runIds[index]!,
      this.outcome === 'completed'
        ? { status: 'completed', fields: {} }
        : { status: 'failed', errorCode: 'workflow_failed', errorMessage: 'model failure' },
    );
    // Only an open run ends, and only once; only what was charged comes back.
    expect(ended).toBe(run.open);
    if (run.open && run.sent && this.outcome === 'failed') m.balance[run.user]! += RUN_COST;
    run.open = false;
    await checkAgainst(m);
  }
  toString = () => `${this.outcome}(run ${this.runIndex})`;
}

class Expire implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model): Promise<void> {
    await expireOverdueRuns(sweepDeps());
    for (const run of m.runs.filter((x) => x.open)) {
      run.open = false;
      // A run left before its answers were sent was never charged: nothing to give back.
      if (run.sent) m.balance[run.user]! += RUN_COST;
    }
    await checkAgainst(m);
  }
  toString = () => 'expire()';
}

class Adjust implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly amount: number,
  ) {}
  check = () => true;
  async run(m: Model): Promise<void> {
    const res = await admin.post('/api/admin/users/adjust-credits', {
      userId: pool[this.user]!.id,
      amount: this.amount,
      reason: 'model',
    });
    if (m.balance[this.user]! + this.amount >= 0) {
      expect(res.statusCode).toBe(200);
      m.balance[this.user]! += this.amount;
    } else {
      // Never below zero: refused, and nothing changes.
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    await checkAgainst(m);
  }
  toString = () => `adjust(user ${this.user}, ${this.amount})`;
}

const user = fc.nat(USERS - 1);
const commands = [
  fc.tuple(user, fc.nat(ONE_TIME_PACKS.length - 1), fc.nat(2)).map(([u, p, k]) => new Purchase(u, p, k)),
  user.map((u) => new StartRun(u)),
  fc.nat().map((n) => new Submit(n)),
  fc.nat().map((n) => new Submit(n)),
  fc
    .tuple(fc.nat(), fc.constantFrom('completed' as const, 'failed' as const))
    .map(([n, o]) => new Result(n, o)),
  fc.constant(new Expire()),
  fc
    .tuple(user, fc.integer({ min: 2, max: 5 }), fc.integer({ min: 1, max: 12 }))
    .map(([u, n, d]) => new ConcurrentSpend(u, n, d)),
  fc
    .tuple(
      user,
      fc.integer({ min: -40, max: 40 }).filter((n) => n !== 0),
    )
    .map(([u, a]) => new Adjust(u, a)),
];

it('matches the model of every balance through purchases, replays, runs, results, expiries and adjustments', async () => {
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
  // The model's workflow fails runs on purpose, many in a row: auto-pause (decision 146) would take it out of
  // service, which the model of the books does not follow (operations.test.ts tests the pause itself).
  await withConfig(t, 'auto_pause_consecutive_failures', 0, () =>
    fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.commands(commands, { maxCommands: 12 }), async (s, cmds) => {
        iteration += 1;
        // Each run starts from the books as the last left them, with nothing open.
        await expireOverdueRuns(sweepDeps());
        const balance: number[] = [];
        for (let u = 0; u < USERS; u += 1) balance.push(await apiBalance(u));
        const model: Model = { balance, keys: new Map(), runs: [] };
        await fc.scheduledModelRun(s, () => ({ model, real: { runIds: [] } }), cmds);
      }),
      { seed, numRuns: 15, verbose: 1, endOnFailure: true },
    ),
  );
}, 120_000);
