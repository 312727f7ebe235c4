import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TExecution } from '#shared/contract/executions.js';
import type { TSurveyQuestion } from '#shared/contract/workflows.js';
import { runInputFiles, userWorkflows, workflowExecutions } from '#server/db/schema.js';
import type { TestClient } from '#server/test/client.js';
import { buildTestApp } from '#server/test/harness.js';
import { resultStorageFor } from '#server/providers/storage/index.js';
import {
  addWorkflow,
  answerCall,
  openRun,
  type OpenRun,
  postRunResult,
  runRow,
  type RunsWorld,
  signUpUser,
  startRun,
  STORES,
  useRunsWorld,
} from '../executions/testing/fixtures.js';
import { CSV, PNG } from '../executions/testing/samples.js';
import { freePort } from '../executions/testing/workflow-service.js';
import { expireResultFiles, queuedFileDeletions } from './retention.js';
import { addSurveyWorkflow, testAdminId } from '#server/test/test-data.js';

const DAY = 24 * 60 * 60 * 1000;

/** A completed run of a new user (or of `user`) whose result is `bytes` stored as `filename`. */
async function runWithFile(
  w: RunsWorld,
  bytes: Buffer,
  filename: string,
  opts: { workflowId?: string; user?: OpenRun['user'] } = {},
) {
  const workflowId = opts.workflowId ?? (await addWorkflow(w)).id;
  const run = await openRun(w, { ...opts, workflowId });
  const res = await postRunResult(w, run, { filename, file_data: bytes.toString('base64') });
  expect(res.status).toBe(200);
  await run.completion;
  return { user: run.user, runId: run.runId, workflowId, key: (await runRow(w, run.runId)).resultPath! };
}

const FILE_QUESTION: TSurveyQuestion = {
  id: 'data',
  question: { es: 'Tus datos', en: 'Your data' },
  type: 'file',
  options: [],
  accept: ['csv'],
  maxSizeMb: 1,
};

/** Uploads a survey answer file to a pending run as the browser does (multipart over HTTP); its storage key. */
async function uploadAnswer(w: RunsWorld, client: TestClient, runId: string, bytes: Buffer) {
  const form = new FormData();
  form.append('questionId', FILE_QUESTION.id);
  form.append('file', new Blob([new Uint8Array(bytes)]), 'answer.csv');
  const res = await fetch(`${w.baseUrl}/api/executions/${runId}/files`, {
    method: 'POST',
    headers: { origin: w.baseUrl, cookie: client.cookie ?? '' },
    body: form,
  });
  expect(res.status).toBe(201);
  const { fileId } = (await res.json()) as { fileId: string };
  const [row] = await w.t.database.db
    .select({ key: runInputFiles.storageKey })
    .from(runInputFiles)
    .where(eq(runInputFiles.id, fileId));
  return { fileId, key: row!.key };
}

/** A pending run of a file-question workflow with an uploaded answer file, not yet completed. */
async function runWithUpload(
  w: RunsWorld,
  opts: { workflowId?: string; user?: Awaited<ReturnType<typeof signUpUser>> } = {},
) {
  const workflowId = opts.workflowId ?? (await addWorkflow(w, { surveyQuestions: [FILE_QUESTION] })).id;
  const user = opts.user ?? (await signUpUser(w.t));
  const runId = await startRun(user.client, workflowId);
  const upload = await uploadAnswer(w, user.client, runId, CSV);
  return { user, runId, workflowId, ...upload };
}

/** Sets a live setting through the admin API, as an admin would. */
async function setSetting(w: RunsWorld, key: string, value: unknown) {
  const entries = (await w.admin.get('/api/admin/config')).json() as Array<{ id: string; key: string }>;
  const entry = entries.find((e) => e.key === key)!;
  expect((await w.admin.patch(`/api/admin/config/${entry.id}`, { value })).statusCode).toBe(200);
}

/** Deterministic bytes that pass the CSV check, large enough to be sent in many chunks. */
function bigCsv(bytes: number): Buffer {
  const rows = ['id,name,amount'];
  let length = rows[0]!.length + 1;
  for (let i = 0; length < bytes; i++) {
    const row = `${i},row ${i},${(i * 7) % 1000}`;
    rows.push(row);
    length += row.length + 1;
  }
  return Buffer.from(rows.join('\n') + '\n', 'utf8');
}

const depsOf = (w: RunsWorld) => w.t.deps;

describe.each(STORES)('result files on the %s store', (store) => {
  const w = useRunsWorld({}, store);

  describe('downloads stream the file, with byte ranges', () => {
    it('serves a 3 MB file whole with its length, and any single range of it as 206', async () => {
      const bytes = bigCsv(3 * 1024 * 1024);
      const run = await runWithFile(w, bytes, 'big.csv');
      expect(await w.storedFiles()).toContain(run.key);

      const whole = await run.user.client.get(`/result/${run.runId}`);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.headers['content-length']).toBe(String(bytes.length));
      expect(whole.rawPayload.equals(bytes)).toBe(true);

      const cases: Array<[string, number, number]> = [
        ['bytes=0-99', 0, 99],
        ['bytes=1000000-', 1_000_000, bytes.length - 1],
        ['bytes=-500', bytes.length - 500, bytes.length - 1],
        // An end past the file is cut to the file.
        [`bytes=${bytes.length - 10}-${bytes.length + 1000}`, bytes.length - 10, bytes.length - 1],
      ];
      for (const [range, start, end] of cases) {
        const part = await run.user.client.get(`/result/${run.runId}`, { range });
        expect(part.statusCode, range).toBe(206);
        expect(part.headers['content-range'], range).toBe(`bytes ${start}-${end}/${bytes.length}`);
        expect(part.headers['content-length'], range).toBe(String(end - start + 1));
        expect(part.rawPayload.equals(bytes.subarray(start, end + 1)), range).toBe(true);
        // The download rules hold for a part as for the whole.
        expect(part.headers['content-disposition'], range).toMatch(/^attachment; filename="big.csv"/);
        expect(part.headers['x-content-type-options'], range).toBe('nosniff');
        expect(part.headers['content-security-policy'], range).toBe("default-src 'none'; sandbox");
      }
    });

    it('answers 416 with the size to a range past the end, in the reader language, and ignores ranges it does not serve', async () => {
      const run = await runWithFile(w, CSV, 'data.csv');
      for (const range of [`bytes=${CSV.length}-`, `bytes=${CSV.length + 5}-${CSV.length + 9}`, 'bytes=-0']) {
        const res = await run.user.client.get(`/result/${run.runId}`, { range, 'accept-language': 'es' });
        expect(res.statusCode, range).toBe(416);
        expect(res.headers['content-range'], range).toBe(`bytes */${CSV.length}`);
        expect(res.json(), range).toEqual({
          code: 'RANGE_NOT_SATISFIABLE',
          error: `El rango de bytes pedido está fuera del archivo (${CSV.length} bytes)`,
          key: 'default',
          params: { size: CSV.length },
        });
      }
      // Several ranges, another unit, a backwards range: the whole file, as HTTP allows.
      for (const range of ['bytes=0-1,3-4', 'items=0-1', 'bytes=5-2', 'bytes=abc']) {
        const res = await run.user.client.get(`/result/${run.runId}`, { range });
        expect(res.statusCode, range).toBe(200);
        expect(res.rawPayload.equals(CSV), range).toBe(true);
      }
    });

    it('keeps a file to its owner and admins (404 to anyone else, 401 signed out), ranges included', async () => {
      const run = await runWithFile(w, PNG, 'chart.png');
      const other = await signUpUser(w.t);
      expect((await other.client.get(`/result/${run.runId}`, { range: 'bytes=0-3' })).statusCode).toBe(404);
      expect(
        (
          await w.t.app.inject({
            method: 'GET',
            url: `/result/${run.runId}`,
            headers: { range: 'bytes=0-3' },
          })
        ).statusCode,
      ).toBe(401);
      const admin = await w.admin.get(`/result/${run.runId}`, { range: 'bytes=0-3' });
      expect(admin.statusCode).toBe(206);
      expect(admin.rawPayload.equals(PNG.subarray(0, 4))).toBe(true);
    });

    it('says 404 when the stored file has gone missing from the store', async () => {
      const run = await runWithFile(w, CSV, 'gone.csv');
      await resultStorageFor(w.t.config).remove(run.key);
      expect((await run.user.client.get(`/result/${run.runId}`)).statusCode).toBe(404);
    });
  });

  describe('retention', () => {
    it('expires a file after result_retention_days: 410 in the reader language, the run and history say so, the file is gone', async () => {
      await setSetting(w, 'result_retention_days', 2);
      const run = await runWithFile(w, CSV, 'ventas.csv');
      const row = await runRow(w, run.runId);
      const stored = row.completedAt!.getTime();
      expect(row.fileExpiresAt!.getTime() - stored).toBeGreaterThanOrEqual(2 * DAY - 1000);
      expect(row.fileExpiresAt!.getTime() - stored).toBeLessThanOrEqual(2 * DAY + 1000);
      await setSetting(w, 'result_retention_days', 30);

      // A day later it is still there, and the retention job leaves it alone.
      w.t.clock.advance(DAY);
      await expireResultFiles(depsOf(w));
      expect((await run.user.client.get(`/result/${run.runId}`)).statusCode).toBe(200);
      expect(await w.storedFiles()).toContain(run.key);

      // Past its expiry it is 410 at once, before the job has run.
      w.t.clock.advance(DAY + 1000);
      const early = await run.user.client.get(`/result/${run.runId}`, { 'accept-language': 'es' });
      expect(early.statusCode).toBe(410);
      expect(early.json()).toMatchObject({
        code: 'GONE',
        error: expect.stringMatching(/^Este archivo de resultado ha caducado/),
      });

      const swept = await expireResultFiles(depsOf(w));
      expect(swept.expired).toBeGreaterThanOrEqual(1);
      expect(await w.storedFiles()).not.toContain(run.key);
      expect(await queuedFileDeletions(w.t.database.db)).toBe(0);

      const en = await run.user.client.get(`/result/${run.runId}`, { 'accept-language': 'en' });
      expect(en.statusCode).toBe(410);
      expect(en.json()).toMatchObject({
        code: 'GONE',
        error: expect.stringMatching(/^This result file has expired/),
      });
      // Someone else still cannot tell the run exists.
      const other = await signUpUser(w.t);
      expect((await other.client.get(`/result/${run.runId}`)).statusCode).toBe(404);

      const detail = (await run.user.client.get(`/api/executions/${run.runId}`)).json() as TExecution;
      expect(detail).toMatchObject({ fileExpired: true, resultPath: null, outputFilename: 'ventas.csv' });
      const history = (await run.user.client.get('/api/executions')).json() as TExecution[];
      expect(history.find((r) => r.id === run.runId)).toMatchObject({ fileExpired: true, resultPath: null });
      w.t.clock.reset();
    });

    it('a run with a file not yet expired says when it will be', async () => {
      const run = await runWithFile(w, CSV, 'fresh.csv');
      const detail = (await run.user.client.get(`/api/executions/${run.runId}`)).json() as TExecution;
      expect(detail.fileExpired).toBe(false);
      expect(detail.resultPath).toBe(run.key);
      expect(new Date(detail.fileExpiresAt!).getTime()).toBeGreaterThan(Date.now() + 29 * DAY);
    });
  });

  describe('files uploaded as survey answers', () => {
    it('the workflow fetches the upload from the store through its link; once the run has ended the retention job removes it, a waiting run keeps its own', async () => {
      const ended = await runWithUpload(w);
      const waiting = await runWithUpload(w, { workflowId: ended.workflowId });
      expect(await w.storedFiles()).toEqual(expect.arrayContaining([ended.key, waiting.key]));

      let fetched: Buffer | undefined;
      w.service.handle(async (call) => {
        const responses = call.body.responses as Array<{ answer: { url?: string } }>;
        const res = await fetch(responses[0]!.answer.url!);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-length')).toBe(String(CSV.length));
        fetched = Buffer.from(await res.arrayBuffer());
        return { status: 202, body: { accepted: true } };
      });
      const completion = ended.user.client.post(`/api/executions/${ended.runId}/complete`, {
        responses: [{ question: 'Tus datos', answer: { fileId: ended.fileId } }],
      });
      const call = await w.service.callFor(ended.runId);
      expect(fetched?.equals(CSV)).toBe(true);
      const res = await answerCall(w, call, {
        output_data: { rows: 2 },
      });
      expect(res.status).toBe(200);
      expect((await completion).statusCode).toBe(200);
      // Ended, but the job has not passed yet.
      expect(await w.storedFiles()).toContain(ended.key);

      const swept = await expireResultFiles(depsOf(w));
      expect(swept.inputFiles).toBeGreaterThanOrEqual(1);
      const files = await w.storedFiles();
      expect(files).not.toContain(ended.key);
      expect(files).toContain(waiting.key);
      expect(await queuedFileDeletions(w.t.database.db)).toBe(0);
      // The run keeps the answer's facts (name, size), only the bytes are gone.
      expect((await runRow(w, ended.runId)).inputData).toEqual([
        {
          question: 'Tus datos',
          answer: expect.objectContaining({ fileId: ended.fileId, filename: 'answer.csv', size: CSV.length }),
        },
      ]);
    });
  });

  describe('deletion leaves nothing behind', () => {
    it('deleting a workflow deletes its runs files, other workflows keep theirs', async () => {
      const wf = await addWorkflow(w);
      const keep = await runWithFile(w, CSV, 'keep.csv');
      const user = await signUpUser(w.t);
      const a = await runWithFile(w, CSV, 'a.csv', { workflowId: wf.id, user });
      const b = await runWithFile(w, PNG, 'b.png', { workflowId: wf.id, user });
      // A run of the same workflow still waiting for its answers, with a file uploaded as one.
      const withUpload = await addWorkflow(w, { surveyQuestions: [FILE_QUESTION] });
      const upload = await runWithUpload(w, { workflowId: withUpload.id, user });
      const keepUpload = await runWithUpload(w);
      expect(await w.storedFiles()).toEqual(
        expect.arrayContaining([keep.key, a.key, b.key, upload.key, keepUpload.key]),
      );
      expect((await w.admin.delete(`/api/workflows/${withUpload.id}`)).statusCode).toBe(200);

      const res = await w.admin.delete(`/api/workflows/${wf.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ deletedExecutions: 2 });
      const files = await w.storedFiles();
      expect(files).not.toContain(a.key);
      expect(files).not.toContain(b.key);
      expect(files).not.toContain(upload.key);
      expect(files).toContain(keep.key);
      expect(files).toContain(keepUpload.key);
      expect(await queuedFileDeletions(w.t.database.db)).toBe(0);
    });

    it('after every workflow is deleted and the retention job has run, the store holds no object at all', async () => {
      // One more run that expires, and one deleted with its account, beside everything the tests above left.
      await runWithFile(w, CSV, 'late.csv');
      const leaving = await runWithFile(w, CSV, 'leaving.csv');
      // The same person's upload to a run still waiting for its answers goes with the account too.
      const leavingUpload = await runWithUpload(w, { user: leaving.user });
      expect(await w.storedFiles()).toEqual(expect.arrayContaining([leaving.key, leavingUpload.key]));
      expect(
        (await leaving.user.client.post('/api/account/delete', { password: leaving.user.password }))
          .statusCode,
      ).toBeLessThan(300);
      expect(await w.storedFiles()).not.toContain(leaving.key);
      expect(await w.storedFiles()).not.toContain(leavingUpload.key);

      const workflows = await w.t.database.db.select({ id: userWorkflows.id }).from(userWorkflows);
      const ids = workflows.map((x) => x.id);
      expect(ids.length).toBeGreaterThan(3);
      for (const id of ids) expect((await w.admin.delete(`/api/workflows/${id}`)).statusCode).toBe(200);
      await expireResultFiles(depsOf(w));
      expect(await w.storedFiles()).toEqual([]);
      expect(await queuedFileDeletions(w.t.database.db)).toBe(0);
    });
  });
});

describe('a bucket that cannot be reached', () => {
  it('answers 500 without the secret, and the log does not hold it either', async () => {
    const secret = 'a-leak-canary-of-a-secret-access-key';
    const lines: string[] = [];
    // Nothing listens on this loopback port: every store call fails as an outage would.
    const closed = `http://127.0.0.1:${await freePort()}`;
    const t = await buildTestApp(
      {
        S3_BUCKET: 'flujo-test',
        S3_ENDPOINT: closed,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'AKIDCANARY',
        S3_SECRET_ACCESS_KEY: secret,
        LOG_LEVEL: 'info',
      },
      { logger: { destination: { write: (line: string) => void lines.push(line) } } },
    );
    try {
      const user = await signUpUser(t);
      const wf = await addSurveyWorkflow(t.database.db, await testAdminId(t));
      const runId = await startRun(user.client, wf.id);
      await t.database.db
        .update(workflowExecutions)
        .set({ status: 'completed', outputType: 'file', resultPath: `${randomUUID()}.csv` })
        .where(eq(workflowExecutions.id, runId));
      const res = await user.client.get(`/result/${runId}`);
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain(secret);
      t.app.flushAccessLog();
      expect(lines.join('\n')).toContain('unhandled error');
      expect(lines.join('\n')).not.toContain(secret);
    } finally {
      await t.close();
    }
  });
});
