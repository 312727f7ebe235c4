import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONE_TIME_PACKS } from '#shared/contract/plans.js';
import type { AppDeps } from '#server/types.js';
import { signInAdmin, signUpUser, type TestClient } from '#server/test/client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import { settleRun } from '../executions/settle.js';
import { expireOverdueRuns } from '../executions/sweeper.js';
import { addSurveyWorkflow, testAdminId } from '#server/test/test-data.js';

// Model-based: fast-check picks commands (purchases, replays of an Idempotency-Key, run starts, results,
// expiries, admin adjustments, and a burst of concurrent starts with an admin debit), runs them through the
// real API and settlement code in a scheduled order, and after every one compares each user's balance with an
// in-memory model of what it must be. A failure prints
// the seed and the shrunk command list (replay with FC_SEED=<seed>). The random non-model sequences live in
// ledger.property.test.ts.

const RUN_COST = 3;
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
  runs: Array<{ user: number; open: boolean }>;
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
    if (m.balance[this.user]! >= RUN_COST) {
      expect(res.statusCode).toBe(201);
      r.runIds.push((res.json() as { executionId: string }).executionId);
      m.runs.push({ user: this.user, open: true });
      m.balance[this.user]! -= RUN_COST;
    } else {
      expect(res.statusCode).toBe(402);
    }
    await checkAgainst(m);
  }
  toString = () => `start(user ${this.user})`;
}

/**
 * Truly concurrent: several starts and an admin debit for one user at the same moment (on PostgreSQL they
 * reach the database on separate connections). Whatever order the database picks, the outcome must be one a
 * serial order could give: the spend never exceeds the balance, each refusal is a clean 402 or 409, and the
 * balance moves by exactly what was accepted. The model then follows what happened.
 */
class ConcurrentSpend implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly starts: number,
    readonly debit: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const before = m.balance[this.user]!;
    const [adjusted, ...started] = await Promise.all([
      admin.post('/api/admin/users/adjust-credits', {
        userId: pool[this.user]!.id,
        amount: -this.debit,
        reason: 'model race',
      }),
      ...Array.from({ length: this.starts }, () =>
        pool[this.user]!.client.post('/api/executions/start', { workflowId, language: 'en' }),
      ),
    ]);
    const accepted = started.filter((res) => res.statusCode === 201);
    expect(started.filter((res) => res.statusCode !== 201).map((res) => res.statusCode)).toEqual(
      Array<number>(this.starts - accepted.length).fill(402),
    );
    expect([200, 409]).toContain(adjusted!.statusCode);
    const spent = accepted.length * RUN_COST + (adjusted!.statusCode === 200 ? this.debit : 0);
    expect(spent).toBeLessThanOrEqual(before);
    // Nothing accepted that the balance could have paid for is refused when everything fits.
    if (this.starts * RUN_COST + this.debit <= before) {
      expect([accepted.length, adjusted!.statusCode]).toEqual([this.starts, 200]);
    }
    for (const res of accepted) {
      r.runIds.push((res.json() as { executionId: string }).executionId);
      m.runs.push({ user: this.user, open: true });
    }
    m.balance[this.user] = before - spent;
    await checkAgainst(m);
  }
  toString = () => `concurrentSpend(user ${this.user}, ${this.starts} starts, debit ${this.debit})`;
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
        : { status: 'failed', errorMessage: 'model failure' },
    );
    // Only an open run ends, and only once.
    expect(ended).toBe(run.open);
    if (run.open && this.outcome === 'failed') m.balance[run.user]! += RUN_COST;
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
      m.balance[run.user]! += RUN_COST;
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
  user.map((u) => new StartRun(u)),
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
  await fc.assert(
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
  );
}, 120_000);
