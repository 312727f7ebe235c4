import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, inject, vi } from 'vitest';
import { openDatabase, type Database, type Db } from '../db/client.js';
import { createAccount } from '../modules/auth/service.js';
import {
  startWorkflowService,
  type WorkflowService,
} from '../modules/executions/testing/workflow-service.js';
import { restorePglite } from '../ops/backup.js';
import { fetchApi, raiseSignupLimit } from './signup-limit.js';
import { ident, postgresTarget, withAdminClient } from './template.js';
import { Metrics } from '../lib/metrics.js';
import { compiled } from './compiled-server.js';
import { addSurveyWorkflow } from './test-data.js';

/**
 * Two server processes on one database need PostgreSQL (PGlite admits one process per database), so the tests
 * that run them belong to the PostgreSQL suite.
 */
export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** How long a process test's set-up may take: a busy 2-core machine is slow to start a server. */
export const PROCESS_STARTUP_MS = 120_000;

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
  /** Runs `fn` on the database opened for it, and closes it again (PGlite: only while no server holds it). */
  withDb<T>(fn: (db: Db, database: Database) => Promise<T>): Promise<T>;
  remove(): Promise<void>;
}

/** Runs `fn` on a connection `open` gives, closed however `fn` ends. */
function withOpened(open: () => Promise<Database>) {
  return async <T>(fn: (db: Db, database: Database) => Promise<T>): Promise<T> => {
    const opened = await open();
    try {
      return await fn(opened.db, opened);
    } finally {
      await opened.close();
    }
  };
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
    const open = () => openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 4 });
    return {
      kind: 'postgres',
      // A real database means a real deployment to the server, which then wants the payment provider named.
      env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PAYMENT_PROVIDER: 'demo' },
      open,
      withDb: withOpened(open),
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
  const open = () => openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
  return {
    kind: 'pglite',
    env: { DATABASE_URL: '', DATA_DIR: dataDir },
    open,
    withDb: withOpened(open),
    remove: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** The file's own database (`processDatabase`), made before its tests and removed after them; filled in then. */
export function useProcessDatabase(label: string, timeoutMs: number = PROCESS_STARTUP_MS): ProcessDatabase {
  const holder = {} as ProcessDatabase;
  beforeAll(async () => {
    Object.assign(holder, await processDatabase(label));
  }, timeoutMs);
  afterAll(async () => {
    await holder.remove?.();
  });
  return holder;
}

export interface ServerProcess {
  url: string;
  child: ChildProcessByStdio<null, null, Readable>;
  /** What the server wrote to stderr so far (to explain a failure). */
  stderr(): string;
  exited: Promise<number | null>;
}

/**
 * Starts the compiled server (`dist/src/server/main.js`, as `npm start` runs it) as its own process and waits
 * for its first answer to /healthz.
 */
export async function startServerProcess(options: {
  port: number;
  env: Record<string, string>;
  deadlineMs?: number;
}): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const child = spawn(process.execPath, [compiled('main')], {
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
  // Done once the server answers or has exited: retried until then (a fetch throws while nothing listens).
  const up = await vi
    .waitFor(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) return false;
        const res = await fetch(`${url}/healthz`);
        if (!res.ok) throw new Error(`/healthz answered ${res.status}`);
        return true;
      },
      { timeout: options.deadlineMs ?? PROCESS_STARTUP_MS, interval: 50 },
    )
    .catch(() => false);
  if (!up) {
    child.kill('SIGKILL');
    throw new Error(`server did not start\n${stderr}`);
  }
  return { url, child, stderr: () => stderr, exited };
}

/**
 * Starts the server on a process test's database with webhooks to loopback allowed: the test's workflow
 * service listens there.
 */
function startServerOn(database: ProcessDatabase, port: number): Promise<ServerProcess> {
  return startServerProcess({ port, env: { ...database.env, ALLOW_PRIVATE_WEBHOOKS: 'true' } });
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
function seedSurveyWorkflow(database: ProcessDatabase, webhookUrl: string): Promise<string> {
  return database.withDb(async (db) => {
    const owner = await createAccount(
      { db, metrics: new Metrics() },
      { ...PROCESS_ADMIN, fullName: 'Owner', isAdmin: true },
    );
    const workflow = await addSurveyWorkflow(db, owner.id, { webhookUrl });
    return workflow.id;
  });
}

/**
 * What a process test that runs workflows works with: its database, a workflow service on loopback, the survey
 * workflow that calls it (`seedSurveyWorkflow`), and the servers it started.
 */
export interface SurveyProcesses {
  database: ProcessDatabase;
  service: WorkflowService;
  workflowId: string;
  /** Starts a server on the database (`startServerOn`); one still running after the tests is killed. */
  start(port: number): Promise<ServerProcess>;
}

/**
 * The file's `SurveyProcesses`, set up before its tests (filled in then); after them every server still running
 * is killed and the service and database go.
 */
export function useSurveyProcesses(label: string): SurveyProcesses {
  const running = new Set<ServerProcess>();
  // Filled in before the tests, so the file may hold on to `database` and `service` from the start.
  const world: SurveyProcesses = {
    database: {} as ProcessDatabase,
    service: {} as WorkflowService,
    workflowId: '',
    start: async (port) => {
      const server = await startServerOn(world.database, port);
      running.add(server);
      void server.exited.then(() => running.delete(server));
      return server;
    },
  };
  beforeAll(async () => {
    Object.assign(world.database, await processDatabase(label));
    Object.assign(world.service, await startWorkflowService());
    world.workflowId = await seedSurveyWorkflow(world.database, `${world.service.url}/hook`);
  }, PROCESS_STARTUP_MS);
  afterAll(async () => {
    const left = [...running];
    for (const server of left) server.child.kill('SIGKILL');
    await Promise.all(left.map((server) => server.exited));
    await world.service.close?.();
    await world.database.remove?.();
  });
  return world;
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
