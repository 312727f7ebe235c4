import type pg from 'pg';
import { AUDIT_ACTIONS } from '#shared/contract/admin.js';
import { CATEGORIES } from '#shared/contract/categories.js';

export interface ScaleSize {
  users: number;
  workflows: number;
  runs: number;
  ledgerRows: number;
  auditRows: number;
}

/** Ids are derived from row numbers, so the benchmark can name a user or a run without looking it up. */
const ADMIN_ID_SQL = `pg_temp.bench_uuid('bench-admin')`;
export const ADMIN_EMAIL = 'admin@bench.example';
/** The most active user (user 1 gets about 0.3% of all runs) and a typical one. */
export const HEAVY_USER = 1;
export const typicalUser = (size: ScaleSize) => Math.floor(size.users / 2);

const BIG_TABLES = [
  'users',
  'user_profiles',
  'sessions',
  'user_workflows',
  'workflow_executions',
  'credit_transactions',
  'admin_audit_logs',
];
/** Runs newer than this many are still open (pending/running), with an expiry in the future. */
const OPEN_RUNS = 2000;
const ADMIN_ADJUSTMENTS = 10_000;

const str = (s: string) => `'${s.replace(/'/g, "''")}'`;
const jsonArray = (values: unknown[]) => `${str(JSON.stringify(values))}::jsonb`;

/**
 * Pseudo-random but repeatable picks, skewed the way real use is: a few users and workflows account for many
 * runs. h(k) is a multiplicative hash of k into [0, 1); squaring it skews towards the low numbers.
 */
const pick = (n: number, k: string, salt: number) =>
  `(1 + floor(${n} * power(((((${k}) + ${salt}) * 2654435761) % 4294967296)::float8 / 4294967296, 2))::int)`;

export interface SeedReport {
  steps: Array<{ step: string; seconds: number }>;
  totals: Record<string, number>;
}

/**
 * Fills a migrated PostgreSQL database with INSERT ... SELECT generate_series, the balances equal to the
 * ledger sums. Secondary indexes are dropped during the load and rebuilt from their own definitions after it,
 * and foreign-key triggers are skipped for the session (the generated rows are consistent by construction).
 */
export async function seedScale(client: pg.Client, size: ScaleSize): Promise<SeedReport> {
  const steps: SeedReport['steps'] = [];
  const step = async (name: string, sql: string) => {
    const started = performance.now();
    await client.query(sql);
    steps.push({ step: name, seconds: Math.round((performance.now() - started) / 100) / 10 });
  };
  const { users: U, workflows: W, runs: R, auditRows: AU } = size;
  const userOfRun = (k: string) => pick(U, k, 0);
  const workflowOfRun = (k: string) => pick(W, k, 7919);

  // A version-4 UUID made from a row's name: md5, with the version and variant bits set as zod's z.uuid() wants.
  await client.query(
    `create function pg_temp.bench_uuid(name text) returns uuid language sql immutable as
     $$ select overlay(overlay(md5(name) placing '4' from 13) placing '8' from 17)::uuid $$`,
  );
  await client.query(`set synchronous_commit = off`);
  await client.query(`set maintenance_work_mem = '512MB'`);
  await client.query(`set session_replication_role = replica`);
  const indexes = await client.query<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
     from pg_index i join pg_class t on t.oid = i.indrelid
     where t.relname = any($1) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [BIG_TABLES],
  );
  await step('drop secondary indexes', indexes.rows.map((r) => `drop index ${r.name};`).join('\n'));

  const hash = str(
    '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzYWx0YmVuY2g$Wm9vbW9vbW9vbW9vbW9vbW9vbW9vbW9vbW9vbW8',
  );
  await step(
    'users and profiles',
    `insert into users (id, email, hashed_password, created_at)
       values (${ADMIN_ID_SQL}, ${str(ADMIN_EMAIL)}, ${hash}, now() - interval '2 years');
     insert into user_profiles (id, email, full_name, is_admin, created_at)
       values (${ADMIN_ID_SQL}, ${str(ADMIN_EMAIL)}, 'Bench Admin', true, now() - interval '2 years');
     insert into users (id, email, hashed_password, created_at)
       select pg_temp.bench_uuid('bench-user-' || i), 'user' || i || '@bench.example', ${hash},
              now() - (${U} - i) * interval '5 minutes'
       from generate_series(1, ${U}) i;
     insert into user_profiles (id, email, full_name, last_login_at, account_status, created_at, updated_at)
       select pg_temp.bench_uuid('bench-user-' || i), 'user' || i || '@bench.example',
              (${jsonArray(['Ana', 'Luis', 'María', 'John', 'Emma', 'Carlos', 'Sofía', 'Peter', 'Lucía', 'David'])} ->> (i % 10))
                || ' ' || (${jsonArray(['García', 'Smith', 'López', 'Johnson', 'Martínez', 'Brown', 'Pérez', 'Davis', 'Sánchez', 'Miller', 'Gómez'])} ->> ((i / 10) % 11)),
              now() - (i % 1000) * interval '1 hour',
              case when i % 97 = 0 then 'suspended' else 'active' end,
              now() - (${U} - i) * interval '5 minutes', now()
       from generate_series(1, ${U}) i;`,
  );

  await step(
    'sessions (one per user)',
    `insert into sessions (user_id, token_hash, expires_at, absolute_expires_at, created_at)
     select pg_temp.bench_uuid('bench-user-' || i), encode(sha256(('bench-token-' || i)::bytea), 'hex'),
            now() + interval '20 days', now() + interval '80 days', now() - interval '10 days'
     from generate_series(1, ${U}) i;`,
  );

  const categories = jsonArray(CATEGORIES.map((c) => c.name));
  const en = jsonArray([
    'invoices',
    'leads',
    'reports',
    'contracts',
    'emails',
    'tickets',
    'payroll',
    'posts',
  ]);
  const es = jsonArray([
    'facturas',
    'clientes',
    'informes',
    'contratos',
    'correos',
    'tickets',
    'nóminas',
    'redes',
  ]);
  await step(
    'workflows',
    `insert into user_workflows (id, user_id, name, description, category, webhook_url, secret_token, is_public,
       is_active, interaction_type, credits_per_execution, welcome_message, ai_prompt, survey_questions, created_at,
       updated_at)
     select pg_temp.bench_uuid('bench-wf-' || j), ${ADMIN_ID_SQL},
       jsonb_build_object('en', 'Automate ' || (${en} ->> (j % 8)) || ' #' || j,
                          'es', 'Automatiza ' || (${es} ->> (j % 8)) || ' n.º ' || j),
       jsonb_build_object('en', 'Collects your ' || (${en} ->> (j % 8)) || ', checks them and sends a summary.',
                          'es', 'Reúne tus ' || (${es} ->> (j % 8)) || ', los revisa y envía un resumen.'),
       ${categories} -> (j % 10),
       'http://127.0.0.1:9/never-called', 'whsec_' || md5('secret' || j),
       j % 10 <> 0, j % 25 <> 0,
       case when j % 2 = 0 then 'chatbot' else 'survey' end,
       1 + j % 3,
       case when j % 2 = 0 then '{"en":"Hi! What do you need?","es":"¡Hola! ¿Qué necesitas?"}'::jsonb end,
       case when j % 2 = 0 then 'Ask what the user needs, then end with the completion marker.' end,
       case when j % 2 = 1
         then '[{"id":"q1","question":{"en":"Which account?","es":"¿Qué cuenta?"},"type":"text","options":[]}]'::jsonb
         else '[]'::jsonb end,
       now() - (${W} - j) * interval '1 hour', now()
     from generate_series(1, ${W}) j;`,
  );

  await step(
    'runs',
    `insert into workflow_executions (id, workflow_id, user_id, status, language, input_data, output_data,
       credits_used, execution_time_ms, error_message, output_type, created_at, dispatched_at, completed_at,
       expires_at)
     select pg_temp.bench_uuid('bench-run-' || k), pg_temp.bench_uuid('bench-wf-' || w), pg_temp.bench_uuid('bench-user-' || u), st,
       case when k % 2 = 0 then 'en' else 'es' end,
       '[{"question":"Which account?","answer":"Main"}]'::jsonb,
       case when st = 'completed' then '{"message":"Done: 12 rows processed","success":true}'::jsonb end,
       1 + w % 3,
       case when st in ('completed', 'failed') then 800 + k % 20000 end,
       case when st = 'failed' then 'The workflow answered 500' when st = 'expired' then 'No result in time' end,
       case when st = 'completed' then 'text' end,
       created, created + interval '2 minutes',
       case when st in ('completed', 'failed', 'expired') then created + interval '3 minutes' end,
       case when st in ('pending', 'running') then now() + interval '1 day' end
     from (
       select k, ${userOfRun('k')} as u, ${workflowOfRun('k')} as w,
         case when k > ${R - OPEN_RUNS} then (case when k % 2 = 0 then 'pending' else 'running' end)
              when k % 100 < 8 then 'failed' when k % 100 < 12 then 'expired' else 'completed' end as st,
         now() - (${R} - k) * interval '30 seconds' as created
       from generate_series(1, ${R}) k
     ) g;`,
  );

  await step(
    'ledger: bonuses, usage, refunds, adjustments',
    `insert into credit_transactions (user_id, amount, transaction_type, notes, created_at)
       select pg_temp.bench_uuid('bench-user-' || i), 5, 'bonus', 'Sign-up bonus', now() - (${U} - i) * interval '5 minutes'
       from generate_series(1, ${U}) i;
     insert into credit_transactions (user_id, workflow_id, execution_id, amount, transaction_type, notes, created_at)
       select user_id, workflow_id, id, -credits_used, 'usage', 'Workflow run', created_at from workflow_executions;
     insert into credit_transactions (user_id, workflow_id, execution_id, amount, transaction_type, notes, created_at)
       select user_id, workflow_id, id, credits_used, 'refund', 'Refund: ' || error_message, completed_at
       from workflow_executions where status in ('failed', 'expired');
     insert into credit_transactions (user_id, amount, transaction_type, notes, created_at)
       select pg_temp.bench_uuid('bench-user-' || (1 + (m * 7919) % ${U})), 10, 'admin_adjustment', 'Goodwill credit',
              now() - (${ADMIN_ADJUSTMENTS} - m) * interval '47 minutes'
       from generate_series(1, ${ADMIN_ADJUSTMENTS}) m;`,
  );
  const soFar = Number(
    (await client.query<{ n: string }>('select count(*) as n from credit_transactions')).rows[0]!.n,
  );
  const purchases = Math.max(0, size.ledgerRows - soFar);
  // Purchases follow the runs' skew (the purchase m goes to the user of run m), so every balance stays >= 0.
  await step(
    'ledger: purchases',
    `insert into credit_transactions (user_id, amount, transaction_type, usd_amount, plan_name, notes, created_at)
     select pg_temp.bench_uuid('bench-user-' || ${userOfRun(`((m - 1) % ${R} + 1)`)}), 50, 'purchase', 20.00, 'Pro', 'Pro pack',
            now() - (${purchases} - m) * (interval '1 year' / ${Math.max(purchases, 1)})
     from generate_series(1, ${purchases}) m;`,
  );
  await step(
    'audit log',
    `insert into admin_audit_logs (admin_user_id, action_type, target_type, target_id, details, created_at)
     select ${ADMIN_ID_SQL}, ${jsonArray([...AUDIT_ACTIONS])} ->> (n % ${AUDIT_ACTIONS.length}),
       case when n % ${AUDIT_ACTIONS.length} < 4 then 'user' when n % ${AUDIT_ACTIONS.length} < 8 then 'workflow' else 'config' end,
       pg_temp.bench_uuid('bench-user-' || (1 + n % ${U}))::text,
       jsonb_build_object('reason', 'bench', 'n', n), now() - (${AU} - n) * interval '10 minutes'
     from generate_series(1, ${AU}) n;`,
  );
  await step(
    'balances = ledger sums, execution counts',
    `update user_profiles p set credits = s.total
       from (select user_id, sum(amount)::int as total from credit_transactions group by user_id) s
       where p.id = s.user_id;
     update user_workflows w set execution_count = s.n
       from (select workflow_id, count(*)::int as n from workflow_executions group by workflow_id) s
       where w.id = s.workflow_id;`,
  );
  await step('rebuild secondary indexes', indexes.rows.map((r) => `${r.def};`).join('\n'));
  await client.query(`set session_replication_role = origin`);
  await step('vacuum analyze', 'vacuum analyze');

  const totals: Record<string, number> = {};
  for (const table of [
    'user_profiles',
    'user_workflows',
    'workflow_executions',
    'credit_transactions',
    'admin_audit_logs',
  ]) {
    totals[table] = Number(
      (await client.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n,
    );
  }
  return { steps, totals };
}
