import { useTestApp } from '#server/test/harness.js';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { ONE_TIME_PACKS, MONTHLY_PLANS } from '#shared/contract/plans.js';
import { creditTransactions, workflowExecutions } from '#server/db/schema.js';
import { queryRows } from '#server/db/sql-helpers.js';
import { signUpUser, type TestClient } from '#server/test/client.js';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import { applyLedgerEntry } from './ledger.js';
import { addSurveyWorkflow, testAdminId } from '#server/test/test-data.js';

// Random sequences of everything that moves credits, several at once per step; after every step each
// balance must equal the sum of its ledger and be non-negative, and no purchase may have granted twice.

const t = useTestApp();
let workflowId: string;
beforeAll(async () => {
  const wf = await addSurveyWorkflow(t.database.db, await testAdminId(t), {
    webhookUrl: 'http://127.0.0.1:9/hook',
  });
  workflowId = wf.id;
});

interface User {
  id: string;
  client: TestClient;
  runs: string[];
}

/** What the model knows must have happened: each key (or unkeyed request) that was answered 200 grants once. */
interface Model {
  users: User[];
  grantedPurchases: Map<string, number>;
  usedKeys: Map<string, Set<string>>;
}

const PLANS = [...ONE_TIME_PACKS, ...MONTHLY_PLANS];

type Command =
  | { kind: 'signUp' }
  | { kind: 'purchase'; user: number; plan: number; key: number | null }
  | { kind: 'tamperedPurchase'; user: number; plan: number }
  | { kind: 'startRun'; user: number; cost: number }
  | { kind: 'refund'; user: number; run: number }
  | { kind: 'adjust'; user: number; amount: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.constant({ kind: 'signUp' as const }),
  fc.record({
    kind: fc.constant('purchase' as const),
    user: fc.nat(),
    plan: fc.nat(PLANS.length - 1),
    // A small key space, so replays (and concurrent double clicks) of the same key are common.
    key: fc.option(fc.nat(3), { nil: null }),
  }),
  fc.record({
    kind: fc.constant('tamperedPurchase' as const),
    user: fc.nat(),
    plan: fc.nat(PLANS.length - 1),
  }),
  fc.record({
    kind: fc.constant('startRun' as const),
    user: fc.nat(),
    cost: fc.integer({ min: 1, max: 40 }),
  }),
  fc.record({ kind: fc.constant('refund' as const), user: fc.nat(), run: fc.nat() }),
  fc.record({
    kind: fc.constant('adjust' as const),
    user: fc.nat(),
    amount: fc.integer({ min: -60, max: 60 }),
  }),
);

const pick = <T>(items: T[], n: number): T | undefined =>
  items.length ? items[n % items.length] : undefined;
const bump = (map: Map<string, number>, id: string) => map.set(id, (map.get(id) ?? 0) + 1);

async function addUser(model: Model): Promise<void> {
  const { id, client } = await signUpUser(t);
  model.users.push({ id, client, runs: [] });
}

async function execute(model: Model, cmd: Command): Promise<void> {
  if (cmd.kind === 'signUp') return addUser(model);
  const user = pick(model.users, cmd.user)!;
  switch (cmd.kind) {
    case 'purchase': {
      const plan = PLANS[cmd.plan]!;
      const key = cmd.key === null ? undefined : `prop-${user.id}-${cmd.key}`;
      const res = await user.client.post(
        '/api/credits/purchase',
        { type: plan.type, credits: plan.credits, usdAmount: plan.priceUsd, planName: plan.name },
        key ? { 'idempotency-key': key } : {},
      );
      // 409: a second monthly plan, or a key reused for another plan; both must grant nothing.
      expect([200, 409]).toContain(res.statusCode);
      if (res.statusCode !== 200) return;
      const keys = model.usedKeys.get(user.id) ?? new Set<string>();
      model.usedKeys.set(user.id, keys);
      if (!key) bump(model.grantedPurchases, user.id);
      else if (!keys.has(key)) {
        keys.add(key);
        bump(model.grantedPurchases, user.id);
      }
      return;
    }
    case 'tamperedPurchase': {
      const plan = PLANS[cmd.plan]!;
      const res = await user.client.post('/api/credits/purchase', {
        type: plan.type,
        credits: plan.credits * 10,
        usdAmount: plan.priceUsd,
        planName: plan.name,
      });
      expect(res.statusCode).toBe(400);
      return;
    }
    case 'startRun': {
      // The run and its charge in one transaction, as the executions module does.
      const runId = randomUUID();
      const charged = await t.database.db
        .transaction(async (tx) => {
          await tx
            .insert(workflowExecutions)
            .values({ id: runId, workflowId, userId: user.id, creditsUsed: cmd.cost });
          const balance = await applyLedgerEntry(
            tx,
            {
              userId: user.id,
              amount: -cmd.cost,
              type: 'usage',
              workflowId,
              executionId: runId,
            },
            t.deps.metrics,
          );
          if (balance === null) tx.rollback();
          return balance;
        })
        .catch(() => null);
      if (charged !== null) user.runs.push(runId);
      return;
    }
    case 'refund': {
      const runId = pick(user.runs, cmd.run);
      if (!runId) return;
      const [usage] = await t.database.db
        .select()
        .from(creditTransactions)
        .where(
          sql`${creditTransactions.executionId} = ${runId} and ${creditTransactions.transactionType} = 'usage'`,
        );
      // A second refund of the same run is refused by the ledger's unique index, whichever comes first.
      await t.database.db
        .transaction((tx) =>
          applyLedgerEntry(
            tx,
            {
              userId: user.id,
              amount: -usage!.amount,
              type: 'refund',
              workflowId,
              executionId: runId,
            },
            t.deps.metrics,
          ),
        )
        .catch(() => null);
      return;
    }
    case 'adjust': {
      await t.database.db.transaction((tx) =>
        applyLedgerEntry(
          tx,
          {
            userId: user.id,
            amount: cmd.amount,
            type: 'admin_adjustment',
            notes: 'property',
          },
          t.deps.metrics,
        ),
      );
      return;
    }
  }
}

async function checkBooks(model: Model): Promise<void> {
  expect(await ledgerMismatches(t.database.db)).toEqual([]);
  for (const user of model.users) {
    const [row] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(creditTransactions)
      .where(
        sql`${creditTransactions.userId} = ${user.id} and ${creditTransactions.transactionType} = 'purchase'`,
      );
    expect(row?.n).toBe(model.grantedPurchases.get(user.id) ?? 0);
  }
  const doubleRefunds = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from (select execution_id from credit_transactions
        where transaction_type = 'refund' group by execution_id having count(*) > 1) d`,
  );
  expect(doubleRefunds[0]?.n).toBe(0);
}

it('keeps every balance equal to its ledger and never negative, whatever happens concurrently', async () => {
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
  const property = fc.asyncProperty(
    fc.array(fc.array(command, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
    async (steps) => {
      const model: Model = { users: [], grantedPurchases: new Map(), usedKeys: new Map() };
      await addUser(model);
      await addUser(model);
      for (const step of steps) {
        await Promise.all(step.map((cmd) => execute(model, cmd)));
        await checkBooks(model);
      }
    },
  );
  try {
    await fc.assert(property, { seed, numRuns: 12 });
  } catch (err) {
    console.error(`ledger property failed; rerun with FC_SEED=${seed}`);
    throw err;
  }
}, 240_000);
