import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/client.js';
import { createAccount } from '../modules/auth/service.js';
import type { WorkflowService } from '../modules/executions/testing/workflow-service.js';
import { restorePglite } from '../ops/backup.js';
import { fetchApi, raiseSignupLimit } from './signup-limit.js';
import { ident, postgresTarget, withAdminClient } from './template.js';
import { Metrics } from '../lib/metrics.js';
import { addSurveyWorkflow } from './test-data.js';

/**
 * A database of its own for a test that runs the real server as a child process: a PostgreSQL database cloned
 * from the suite's migrated template when the suite runs on PostgreSQL, otherwise a PGlite directory restored
 * from the suite's template (either spares the server the migrations of a first start).
 */
export interface ProcessDatabase {
  kind: 'postgres' | 'pglite';
  /** What the server process needs in its environment to use this database. */
  env: Record<string, string>;
  /** Opens the same database in the test process (PGlite: only while no server holds it). */
  open(): Promise<Database>;
  remove(): Promise<void>;
}

export async function processDatabase(label: string): Promise<ProcessDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), `flujo-${label}-`));
  const url = process.env.TEST_DATABASE_URL;
  const tpl = inject('pgTemplate');
  if (url && tpl) {
    const { adminUrl, base, urlFor } = postgresTarget(url);
    const name = `${base}_${label}_${randomBytes(4).toString('hex')}`;
    await withAdminClient(adminUrl, (c) => c.query(`CREATE DATABASE ${ident(name)} TEMPLATE ${ident(tpl)}`));
    const databaseUrl = urlFor(name);
    return {
      kind: 'postgres',
      // A real database means a real deployment to the server, which then wants the payment provider named.
      env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PAYMENT_PROVIDER: 'demo' },
      open: () => openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 4 }),
      remove: async () => {
        await withAdminClient(adminUrl, (c) =>
          c.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`),
        );
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const template = inject('pgliteTemplateFile');
  if (template) await restorePglite(template, join(dataDir, 'pglite'));
  return {
    kind: 'pglite',
    env: { DATABASE_URL: '', DATA_DIR: dataDir },
    open: () => openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') }),
    remove: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

export interface ServerProcess {
  url: string;
  child: ChildProcessByStdio<null, null, Readable>;
  /** What the server wrote to stderr so far (to explain a failure). */
  stderr(): string;
  exited: Promise<number | null>;
}

/**
 * Starts `src/server/main.ts` as its own process (as `npm start` runs the compiled one) and waits for its
 * first answer to /healthz.
 */
export async function startServerProcess(options: {
  port: number;
  env: Record<string, string>;
  deadlineMs: number;
}): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(options.port),
      PUBLIC_URL: url,
      DEMO_WORKFLOWS: 'false',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Read stderr so a chatty server cannot block on a full pipe.
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + options.deadlineMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`server did not start\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, child, stderr: () => stderr, exited };
}

/**
 * Starts the server on a process test's database with webhooks to loopback allowed: the test's workflow
 * service listens there.
 */
export function startServerOn(
  database: ProcessDatabase,
  port: number,
  deadlineMs: number,
): Promise<ServerProcess> {
  return startServerProcess({
    port,
    env: { ...database.env, ALLOW_PRIVATE_WEBHOOKS: 'true' },
    deadlineMs,
  });
}

/** The admin seedSurveyWorkflow makes (it owns the workflow). */
export const PROCESS_ADMIN = { email: 'owner@process.example', password: 'owner-password-1' };

/** Lets the test sign up as many people from 127.0.0.1 as it needs: the admin raises the limit over HTTP. */
export async function raiseProcessSignupLimit(server: ServerProcess): Promise<void> {
  await raiseSignupLimit(fetchApi(server.url), PROCESS_ADMIN);
}

/**
 * The workflow a process test runs: a one-question survey costing one credit, owned by an admin made for it,
 * calling `webhookUrl`. Written straight to the database, before a server holds it.
 */
export async function seedSurveyWorkflow(database: ProcessDatabase, webhookUrl: string): Promise<string> {
  const opened = await database.open();
  try {
    const owner = await createAccount(
      { db: opened.db, metrics: new Metrics() },
      { ...PROCESS_ADMIN, fullName: 'Owner', isAdmin: true },
    );
    const workflow = await addSurveyWorkflow(opened.db, owner.id, { webhookUrl });
    return workflow.id;
  } finally {
    await opened.close();
  }
}

/**
 * Makes the workflow service behave like a real workflow: it accepts each call, then posts the run's result
 * a moment later to the server `target` names, failed when `fails` says so. A result that meets a dead server
 * is lost, as it would be.
 */
export function postResultsLater(
  service: WorkflowService,
  options: { target: () => string; fails: () => boolean; delayMs: () => number },
): void {
  service.handle((call) => {
    const target = options.target();
    const failed = options.fails();
    setTimeout(() => {
      fetch(`${target}/api/workflow-result`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          execution_id: call.body.execution_id,
          secret_token: call.body.secret_token,
          ...(failed
            ? { status: 'failed', error_message: 'the workflow gave up' }
            : { status: 'completed', output_data: { message: 'done' } }),
        }),
        signal: AbortSignal.timeout(5_000),
      }).catch(() => undefined);
    }, options.delayMs());
    return { status: 200, body: { accepted: true } };
  });
}
