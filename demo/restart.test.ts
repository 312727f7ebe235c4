import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../src/server/modules/executions/testing/workflow-service.js';
import { ledgerMismatches } from '../src/server/test/ledger-check.js';
import {
  processDatabase,
  startServerProcess,
  type ProcessDatabase,
  type ServerProcess,
} from '../src/server/test/server-process.js';
import { fetchApi, type ApiCall } from '../src/server/test/signup-limit.js';
import { DEMO_WORKFLOWS } from './catalog.js';

/**
 * The demo services hold only the secrets the start-up seeding hands them, in the memory of the process. Here the
 * real server restarts on its existing database and must still verify the app's calls; and a secret rotated in
 * the admin screen is refused until the next start hands the demo the new one (decision 095).
 */
const STARTUP_DEADLINE_MS = 120_000;
const ADMIN = { email: 'owner@demo-restart.example', password: 'owner-password-1' };
const SURVEY_CSV = DEMO_WORKFLOWS.find((d) => d.slug === 'survey-csv')?.id ?? '';

let database: ProcessDatabase;
let port: number;
let server: ServerProcess | undefined;
let api: ApiCall;
let person = '';

async function start(): Promise<void> {
  server = await startServerProcess({
    port,
    env: {
      ...database.env,
      DEMO_WORKFLOWS: 'true',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
    deadlineMs: STARTUP_DEADLINE_MS,
  });
  api = fetchApi(server.url);
}

async function stop(): Promise<void> {
  if (!server) return;
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  server = undefined;
}

/** One run of the CSV demo by the same person, followed to its end. */
async function runSurveyCsv(): Promise<{
  status: string;
  errorCode: string | null;
  errorMessage: string | null;
}> {
  const started = await api(
    'POST',
    '/api/executions/start',
    { workflowId: SURVEY_CSV, language: 'en' },
    person,
  );
  expect(started.status).toBe(201);
  const { executionId } = started.body as { executionId: string };
  // Every required question answered, by id (decision 127).
  const responses = [
    { questionId: 'name', answer: 'Acme' },
    { questionId: 'score', answer: 8 },
    { questionId: 'channel', answer: 'Google' },
    { questionId: 'comments', answer: 'Nothing' },
  ];
  const completed = await api('POST', `/api/executions/${executionId}/complete`, { responses }, person);
  expect(completed.status).toBe(200);
  type Run = { status: string; errorCode: string | null; errorMessage: string | null };
  const answered = completed.body as Run;
  if (answered.status !== 'running' && answered.status !== 'pending') return answered;
  return vi.waitFor(
    async () => {
      const run = (await api('GET', `/api/executions/${executionId}`, undefined, person)).body as Run;
      expect(run.status).not.toBe('running');
      expect(run.status).not.toBe('pending');
      return run;
    },
    { timeout: 30_000, interval: 100 },
  );
}

async function credits(): Promise<number> {
  return ((await api('GET', '/api/auth/me', undefined, person)).body as { credits: number }).credits;
}

beforeAll(async () => {
  database = await processDatabase('demo-restart');
  port = await freePort();
  await start();
  const signup = await api(
    'POST',
    '/api/auth/signup',
    { email: 'person@demo-restart.example', password: 'person-password-1', fullName: 'Person' },
    undefined,
  );
  expect(signup.status).toBe(201);
  person = signup.cookie ?? '';
}, STARTUP_DEADLINE_MS);

afterAll(async () => {
  if (server) server.child.kill('SIGKILL');
  await server?.exited;
  if (!database) return;
  try {
    const opened = await database.open();
    try {
      expect(await ledgerMismatches(opened.db)).toEqual([]);
    } finally {
      await opened.close();
    }
  } finally {
    await database.remove();
  }
});

describe('the demo services across restarts', () => {
  it(
    'verify the app after a restart on the existing database; a rotated secret waits for the next start',
    { timeout: 4 * STARTUP_DEADLINE_MS },
    async () => {
      expect(await runSurveyCsv()).toMatchObject({ status: 'completed' });

      // A new process: the demo's memory is empty until the seeding reads the stored secrets back.
      await stop();
      await start();
      expect(await runSurveyCsv()).toMatchObject({ status: 'completed' });

      // The admin rotates the demo workflow's secret: the app now sends the new header value, which the demo,
      // still holding the seeded secret, refuses. The run fails (a code, worded for the person: decision 128)
      // and the credit its answers paid comes back.
      const signin = await api('POST', '/api/auth/signin', ADMIN, undefined);
      expect(signin.status).toBe(200);
      const rotated = await api(
        'POST',
        `/api/admin/workflows/${SURVEY_CSV}/rotate-secret`,
        {},
        signin.cookie,
      );
      expect(rotated.status).toBe(200);
      const before = await credits();
      expect(await runSurveyCsv()).toMatchObject({
        status: 'failed',
        errorCode: 'workflow_refused',
        errorMessage: "The workflow's service did not accept the request.",
      });
      expect(await credits()).toBe(before);

      // The next start hands the demo the rotated secret.
      await stop();
      await start();
      expect(await runSurveyCsv()).toMatchObject({ status: 'completed' });
      expect(await credits()).toBe(before - 1);
    },
  );
});
