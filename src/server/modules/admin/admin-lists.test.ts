import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TAdminAuditEntry,
  TAdminCreditTransaction,
  TAdminExecution,
  TAdminStats,
  TAdminUser,
  TAdminWorkflow,
  TAdminWorkflowDetail,
} from '#shared/contract/admin.js';
import { creditTransactions, userProfiles, userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { signInAdmin, signUpUser, type TestClient } from '#server/test/client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import { chatbotWorkflowInput, testAdminId } from '#server/test/test-data.js';

let t: TestApp;
let admin: TestClient;
const DAY = 24 * 3600_000;

/** Named people and workflows the searches below look for. */
const people = {
  maria: { email: 'maria.lopez@acme.test', fullName: 'María López Ruiz' },
  pedro: { email: 'pedro@beta.test', fullName: 'Pedro Sánchez' },
  ana: { email: 'ruiz.fan@gamma.test', fullName: 'Ana Torres' },
  nameless: { email: 'x_y@delta.test', fullName: 'X' },
};
const ids: Record<keyof typeof people, string> = { maria: '', pedro: '', ana: '', nameless: '' };
const workflows: Record<'leads' | 'invoices' | 'contracts', TAdminWorkflowDetail> = {} as never;

async function list<T>(path: string): Promise<{ rows: T[]; total: number; status: number }> {
  const res = await admin.get(path);
  return { rows: res.json() as T[], total: Number(res.headers['x-total-count']), status: res.statusCode };
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
  const adminId = await testAdminId(t);
  for (const key of Object.keys(people) as Array<keyof typeof people>) {
    ids[key] = (await signUpUser(t, people[key])).id;
  }
  const create = async (overrides: Parameters<typeof chatbotWorkflowInput>[1]) => {
    const res = await admin.post('/api/admin/workflows', chatbotWorkflowInput(adminId, overrides));
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json() as TAdminWorkflowDetail;
  };
  workflows.leads = await create({
    name: { es: 'Calificador de leads', en: 'Lead scorer' },
    description: { es: 'Puntúa contactos', en: 'Scores contacts' },
    category: { es: 'Marketing', en: 'Marketing' },
    userId: ids.maria,
  });
  workflows.invoices = await create({
    name: { es: 'Lector de facturas', en: 'Invoice reader' },
    description: { es: 'Extrae importes de facturas', en: 'Extracts totals' },
    category: { es: 'Administración', en: 'Administration' },
  });
  workflows.contracts = await create({
    name: { es: 'Revisor de contratos', en: 'Contract checker' },
    description: null,
    category: { es: 'Legal', en: 'Legal' },
    isPublic: false,
  });
  await admin.patch(`/api/admin/workflows/${workflows.invoices.id}`, { isActive: false });

  // Runs of several statuses and days (setup data: the run flow itself is tested by the runs module).
  const now = t.clock.now().getTime();
  const runs: Array<[string, string, (typeof workflowExecutions.$inferInsert)['status'], number]> = [
    [workflows.leads.id, ids.maria, 'completed', 0],
    [workflows.leads.id, ids.pedro, 'completed', 1],
    [workflows.leads.id, ids.pedro, 'failed', 1],
    [workflows.leads.id, ids.ana, 'running', 3],
    [workflows.contracts.id, ids.pedro, 'completed', 3],
    [workflows.contracts.id, ids.ana, 'expired', 40],
  ];
  for (const [workflowId, userId, status, daysAgo] of runs) {
    await t.database.db.insert(workflowExecutions).values({
      workflowId,
      userId,
      status,
      outputType: status === 'completed' ? 'file' : null,
      outputFilename: status === 'completed' ? 'report.pdf' : null,
      createdAt: new Date(now - daysAgo * DAY),
    });
  }
  await t.database.db.update(userWorkflows).set({
    executionCount: sql`(select count(*) from workflow_executions e where e.workflow_id = ${userWorkflows.id})`,
  });

  // Ledger rows through the API: adjustments, and one real charged start.
  await admin.post('/api/admin/users/adjust-credits', {
    userId: ids.pedro,
    amount: 20,
    reason: 'Launch promo',
  });
  await admin.post('/api/admin/users/adjust-credits', { userId: ids.ana, amount: -2, reason: 'Correction' });
  await admin.patch(`/api/admin/users/${ids.ana}`, { accountStatus: 'suspended' });
});

afterAll(async () => {
  expect(await ledgerMismatches(t.database.db)).toEqual([]);
  await t?.close();
});

describe('GET /api/admin/users', () => {
  it('lists users newest first with their columns and the total in X-Total-Count', async () => {
    const { rows, total, status } = await list<TAdminUser>('/api/admin/users');
    expect(status).toBe(200);
    expect(total).toBe(5);
    expect(rows.map((u) => u.email)).toEqual([
      people.nameless.email,
      people.ana.email,
      people.pedro.email,
      people.maria.email,
      TEST_ADMIN.email,
    ]);
    expect(rows.find((u) => u.id === ids.pedro)).toMatchObject({
      fullName: 'Pedro Sánchez',
      credits: 25,
      isAdmin: false,
      accountStatus: 'active',
    });
  });

  it.each([
    ['the start of the e-mail', 'maria.l', ['maria']],
    ['any word of the name, ignoring case', 'RUIZ', ['maria', 'ana']],
    ['the start of a word of the name', 'Sán', ['pedro']],
    ['several words of the name', 'maría ruiz', ['maria']],
    ['an _ as itself', 'x_y', ['nameless']],
    ['an _ not as a wildcard', 'ped_o', []],
    ['a % not as a wildcard', '%', []],
    ['nothing when nothing matches', 'zzz', []],
  ])('searches %s', async (_label, q, expected) => {
    const { rows, total } = await list<TAdminUser>(`/api/admin/users?q=${encodeURIComponent(q)}`);
    expect(rows.map((u) => u.id).sort()).toEqual(expected.map((k) => ids[k as keyof typeof ids]).sort());
    expect(total).toBe(expected.length);
  });

  it('filters by status and role', async () => {
    const suspended = await list<TAdminUser>('/api/admin/users?status=suspended');
    expect(suspended.rows.map((u) => u.id)).toEqual([ids.ana]);
    const admins = await list<TAdminUser>('/api/admin/users?role=admin&status=active');
    expect(admins.rows.map((u) => u.email)).toEqual([TEST_ADMIN.email]);
    expect((await list<TAdminUser>('/api/admin/users?status=all')).total).toBe(5);
  });

  it('pages with limit and offset, the total staying the same', async () => {
    const all = (await list<TAdminUser>('/api/admin/users')).rows.map((u) => u.id);
    const first = await list<TAdminUser>('/api/admin/users?limit=2');
    const second = await list<TAdminUser>('/api/admin/users?limit=2&offset=2');
    const last = await list<TAdminUser>('/api/admin/users?limit=2&offset=4');
    expect([first.total, second.total, last.total]).toEqual([5, 5, 5]);
    expect([...first.rows, ...second.rows, ...last.rows].map((u) => u.id)).toEqual(all);
    expect((await list<TAdminUser>('/api/admin/users?offset=50')).rows).toEqual([]);
  });

  it.each([['limit=0'], ['limit=501'], ['limit=ten'], ['offset=-1'], ['status=banned'], ['role=owner']])(
    'refuses ?%s with 400',
    async (query) => {
      const res = await admin.get(`/api/admin/users?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    },
  );

  it('accepts the largest page of 500', async () => {
    expect((await list<TAdminUser>('/api/admin/users?limit=500')).status).toBe(200);
  });
});

describe('GET /api/admin/workflows', () => {
  it('lists workflows with owner, category, runs, visibility and status', async () => {
    const { rows, total } = await list<TAdminWorkflow>('/api/admin/workflows');
    expect(total).toBe(3);
    expect(rows.find((w) => w.id === workflows.leads.id)).toMatchObject({
      name: { en: 'Lead scorer' },
      category: { en: 'Marketing' },
      owner: { id: ids.maria, email: people.maria.email, fullName: people.maria.fullName },
      executionCount: 4,
      isPublic: true,
      isActive: true,
    });
    expect(rows.find((w) => w.id === workflows.invoices.id)).toMatchObject({ isActive: false });
  });

  it.each([
    ['a Spanish name', 'q=calificador', ['leads']],
    ['an English name, ignoring case', 'q=CONTRACT', ['contracts']],
    ['a description', 'q=facturas', ['invoices']],
    ['a category label in English', 'category=Administration', ['invoices']],
    ['a category label in Spanish', 'category=administraci%C3%B3n', ['invoices']],
    ['the status', 'status=active', ['leads', 'contracts']],
    ['the visibility', 'visibility=private', ['contracts']],
    ['search and filter together', 'q=er&status=inactive', ['invoices']],
  ])('finds by %s', async (_label, query, expected) => {
    const { rows, total } = await list<TAdminWorkflow>(`/api/admin/workflows?${query}`);
    expect(rows.map((w) => w.id).sort()).toEqual(
      expected.map((k) => workflows[k as keyof typeof workflows].id).sort(),
    );
    expect(total).toBe(expected.length);
  });
});

describe('GET /api/admin/executions', () => {
  it('lists runs newest first with workflow name, user e-mail, result and credits', async () => {
    const { rows, total } = await list<TAdminExecution>('/api/admin/executions');
    expect(total).toBe(6);
    expect(rows[0]).toMatchObject({
      workflow: { id: workflows.leads.id, name: { en: 'Lead scorer' } },
      user: { id: ids.maria, email: people.maria.email },
      status: 'completed',
      outputType: 'file',
      outputFilename: 'report.pdf',
      creditsUsed: 0,
    });
    const times = rows.map((r) => new Date(r.createdAt).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it.each([
    ['workflow name', 'q=revisor', 2],
    ['user e-mail', 'q=pedro%40', 3],
    ['status', 'status=completed', 3],
    ['search and status', 'q=lead&status=completed', 2],
  ])('searches and filters by %s', async (_label, query, expected) => {
    const { rows, total } = await list<TAdminExecution>(`/api/admin/executions?${query}`);
    expect(rows).toHaveLength(expected);
    expect(total).toBe(expected);
  });

  it('pages runs', async () => {
    const page = await list<TAdminExecution>('/api/admin/executions?limit=4&offset=4');
    expect(page.rows).toHaveLength(2);
    expect(page.total).toBe(6);
  });

  it('refuses an unknown status with 400', async () => {
    expect((await admin.get('/api/admin/executions?status=lost')).statusCode).toBe(400);
  });
});

describe('GET /api/admin/credits', () => {
  it('lists ledger rows with the user e-mail, signed amount and notes; searches by e-mail; filters by type', async () => {
    const all = await list<TAdminCreditTransaction>('/api/admin/credits');
    const ledgerRows = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(creditTransactions);
    expect(all.total).toBe(ledgerRows[0]?.n);

    const pedro = await list<TAdminCreditTransaction>('/api/admin/credits?q=PEDRO');
    expect(pedro.rows.map((r) => [r.transactionType, r.amount, r.notes, r.user?.email])).toEqual([
      ['admin_adjustment', 20, 'Launch promo', people.pedro.email],
      ['bonus', 5, 'Sign-up bonus', people.pedro.email],
    ]);
    const adjustments = await list<TAdminCreditTransaction>('/api/admin/credits?type=admin_adjustment');
    expect(adjustments.rows.map((r) => r.amount).sort()).toEqual([-2, 20]);
    expect(adjustments.total).toBe(2);
    expect((await admin.get('/api/admin/credits?type=gift')).statusCode).toBe(400);
  });
});

describe('GET /api/admin/audit', () => {
  it('lists audit rows with the admin e-mail and the details object; searches and filters', async () => {
    const all = await list<TAdminAuditEntry>('/api/admin/audit');
    expect(all.rows[0]).toMatchObject({
      admin: { email: TEST_ADMIN.email },
      actionType: 'user_suspended',
      targetType: 'user',
      targetId: ids.ana,
      details: { changes: { accountStatus: { from: 'active', to: 'suspended' } } },
    });
    // This file's seven actions, and the harness raising signups_per_ip_per_hour before them.
    expect(all.total).toBe(8);
    expect(all.rows.at(-1)).toMatchObject({
      actionType: 'config_updated',
      details: { key: 'signups_per_ip_per_hour' },
    });

    expect((await list<TAdminAuditEntry>('/api/admin/audit?q=credits')).total).toBe(2);
    expect((await list<TAdminAuditEntry>('/api/admin/audit?q=admin%40test')).total).toBe(8);
    expect((await list<TAdminAuditEntry>('/api/admin/audit?q=pedro')).total).toBe(0);
    const created = await list<TAdminAuditEntry>('/api/admin/audit?action=workflow_created');
    expect(created.rows.map((r) => r.targetId).sort()).toEqual(
      Object.values(workflows)
        .map((w) => w.id)
        .sort(),
    );
    expect((await admin.get('/api/admin/audit?action=dropped_tables')).statusCode).toBe(400);
  });
});

describe('GET /api/admin/stats', () => {
  it('answers totals, top workflows, recent runs and 30 days of runs and credits', async () => {
    const res = await admin.get('/api/admin/stats');
    expect(res.statusCode).toBe(200);
    const stats = res.json() as TAdminStats;
    const positive = await t.database.db
      .select({ n: sql<number>`sum(amount)::int` })
      .from(creditTransactions)
      .where(sql`amount > 0`);
    expect(stats.totals).toEqual({
      users: 5,
      workflows: 3,
      executions: 6,
      creditsDistributed: positive[0]?.n,
    });
    expect(stats.topWorkflows.map((w) => [w.id, w.executionCount])).toEqual([
      [workflows.leads.id, 4],
      [workflows.contracts.id, 2],
      [workflows.invoices.id, 0],
    ]);
    expect(stats.recentActivity).toHaveLength(5);
    expect(stats.recentActivity[0]).toMatchObject({
      workflow: { name: { en: 'Lead scorer' } },
      user: { email: people.maria.email },
      status: 'completed',
    });

    const today = t.clock.now().toISOString().slice(0, 10);
    expect(stats.runsPerDay).toHaveLength(30);
    expect(stats.runsPerDay.at(-1)?.date).toBe(today);
    const byDay = Object.fromEntries(stats.runsPerDay.map((d) => [d.date, d]));
    const daysAgo = (n: number) => new Date(t.clock.now().getTime() - n * DAY).toISOString().slice(0, 10);
    expect(byDay[daysAgo(1)]).toMatchObject({ completed: 1, failed: 1, running: 0 });
    expect(byDay[daysAgo(3)]).toMatchObject({ completed: 1, running: 1 });
    // The run of 40 days ago is outside the window.
    expect(stats.runsPerDay.reduce((n, d) => n + d.expired, 0)).toBe(0);

    expect(stats.creditsPerDay).toHaveLength(30);
    const creditsToday = stats.creditsPerDay.at(-1);
    const grantedToday = (await t.database.db.select().from(creditTransactions))
      .filter((r) => r.amount > 0 && r.createdAt.toISOString().slice(0, 10) === today)
      .reduce((n, r) => n + r.amount, 0);
    // At least the four sign-up bonuses of 5 and the grant of 20 made above.
    expect(grantedToday).toBeGreaterThanOrEqual(40);
    expect(creditsToday?.granted).toBe(grantedToday);
    expect(creditsToday?.spent).toBe(0);
    // Demo payments on the embedded database are the demo itself: no banner.
    expect(stats.demoPayments).toBe(false);
    // No LLM_BASE_URL in the harness: chats use the built-in scripted assistant.
    expect(stats.demoAssistant).toBe(true);
  });

  it('counts usage as credits spent', async () => {
    const { client, id } = await signUpUser(t);
    const res = await client.post('/api/executions/start', { workflowId: workflows.leads.id });
    expect(res.statusCode).toBe(201);
    // A chat is paid for at its first message.
    const first = await client.post('/api/chat', {
      workflowId: workflows.leads.id,
      executionId: res.json<{ executionId: string }>().executionId,
      messages: [{ role: 'user', content: 'Hola' }],
      language: 'es',
    });
    expect(first.statusCode).toBe(200);
    const stats = (await admin.get('/api/admin/stats')).json() as TAdminStats;
    expect(stats.creditsPerDay.at(-1)?.spent).toBe(1);
    const [profile] = await t.database.db.select().from(userProfiles).where(eq(userProfiles.id, id));
    expect(profile?.credits).toBe(4);
  });
});

describe('totals of very long lists', () => {
  it('counts exactly up to 10,000 rows and answers an estimate, marked as such, above that', async () => {
    const exact = await admin.get('/api/admin/audit?limit=1');
    expect(exact.headers['x-total-count-estimated']).toBeUndefined();
    await t.database.db.execute(sql`
      insert into admin_audit_logs (action_type, target_type, target_id, details)
      select 'config_updated', 'config', i::text, '{}'::jsonb from generate_series(1, 10001) i`);
    await t.database.db.execute(sql`analyze admin_audit_logs`);
    const res = await admin.get('/api/admin/audit?limit=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count-estimated']).toBe('true');
    expect(Number(res.headers['x-total-count'])).toBeGreaterThan(10_000);
    const filtered = await admin.get('/api/admin/audit?action=workflow_created');
    expect(filtered.headers['x-total-count']).toBe('3');
    expect(filtered.headers['x-total-count-estimated']).toBeUndefined();
  });
});
