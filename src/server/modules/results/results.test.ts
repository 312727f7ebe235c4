import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addWorkflow,
  ANSWERS,
  balanceOf,
  ledgerRowsOfRun,
  openRun,
  postResult,
  postRunResult,
  runRow,
  signUpUser,
  startRun,
  STORES,
  useRunsWorld,
  type OpenRun,
  type RunsWorld,
} from '../executions/testing/fixtures.js';
import { CSV, EXE, JPEG, JSON_FILE, PDF, PNG, TXT, XLSX, zip } from '../executions/testing/samples.js';
import type { ServiceAnswer } from '../executions/testing/workflow-service.js';

const w = useRunsWorld();

/** Ends a run whose complete call is still waiting, so no request is left hanging. */
async function finish(w: RunsWorld, run: OpenRun) {
  await postRunResult(w, run, { output_data: {} });
  await run.completion;
}

async function postMultipart(
  w: RunsWorld,
  fields: Record<string, string>,
  file?: { name: string; bytes: Buffer },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([file.bytes]), file.name);
  return fetch(`${w.baseUrl}/api/workflow-result`, { method: 'POST', body: form });
}

const MiB = 1024 * 1024;

describe('result authentication and idempotence', () => {
  it('answers 401 to a wrong or wrong-length token and to an unknown run, changing nothing', async () => {
    const run = await openRun(w);
    const wrong = run.token.slice(0, -1) + (run.token.endsWith('A') ? 'B' : 'A');
    for (const token of [wrong, 'short', 'x'.repeat(500)]) {
      const res = await postResult(w, { execution_id: run.runId, secret_token: token, status: 'failed' });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
    }
    const unknown = await postResult(w, {
      execution_id: '00000000-0000-4000-8000-000000000000',
      secret_token: run.token,
      status: 'completed',
    });
    expect(unknown.status).toBe(401);
    expect((await runRow(w, run.runId)).status).toBe('running');
    expect(await ledgerRowsOfRun(w, run.runId, 'refund')).toHaveLength(0);
    const malformed = await postResult(w, { execution_id: run.runId, status: 'completed' });
    expect(malformed.status).toBe(400);
    await finish(w, run);
  });

  it('answers 409 to a second result and keeps the first', async () => {
    const run = await openRun(w);
    const first = {
      execution_id: run.runId,
      secret_token: run.token,
      status: 'completed',
      output_data: { n: 1 },
    };
    expect((await postResult(w, first)).status).toBe(200);
    await run.completion;
    const again = await postResult(w, first);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('CONFLICT');
    const failure = await postResult(w, { ...first, status: 'failed' });
    expect(failure.status).toBe(409);
    const progress = await postResult(w, { ...first, status: 'running', output_data: { message: 'late' } });
    expect(progress.status).toBe(409);
    const row = await runRow(w, run.runId);
    expect(row).toMatchObject({ status: 'completed', outputData: { n: 1 }, progressMessage: null });
    expect(await ledgerRowsOfRun(w, run.runId, 'refund')).toHaveLength(0);
  });

  it('a failed result ends the run with its message and refunds it once', async () => {
    const run = await openRun(w);
    const res = await postRunResult(w, run, {
      status: 'failed',
      output_data: { message: 'El servicio externo no respondió' },
    });
    expect(res.status).toBe(200);
    // The workflow's own words reach its customer after the plain explanation, in the run's language.
    expect((await run.completion).json()).toMatchObject({
      status: 'failed',
      errorCode: 'workflow_failed',
      workflowMessage: 'El servicio externo no respondió',
      errorMessage:
        'El workflow no pudo completar tu solicitud. El workflow indicó: El servicio externo no respondió',
    });
    expect(await ledgerRowsOfRun(w, run.runId, 'refund')).toHaveLength(1);
    expect(await balanceOf(w, run.user.id)).toBe(5);
  });
});

/** `[[[...]]]`, n levels deep, as text: JSON.stringify itself overflows the stack long before 100,000. */
const nestedText = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
/** The same nesting as a value, for depths JSON.stringify can write. */
function nested(n: number): unknown {
  let value: unknown = { leaf: 'x' };
  for (let i = 1; i < n; i += 1) value = { child: value };
  return value;
}
/** output_data whose JSON takes exactly `bytes` bytes. */
const sized = (bytes: number) => ({ text: 'x'.repeat(bytes - JSON.stringify({ text: '' }).length) });

async function postRaw(text: string): Promise<Response> {
  return fetch(`${w.baseUrl}/api/workflow-result`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
}

/** A run's state as its owner sees it, for "nothing changed" checks. */
async function unchanged(run: Awaited<ReturnType<typeof openRun>>) {
  expect(await runRow(w, run.runId)).toMatchObject({
    status: 'running',
    outputData: null,
    progressMessage: null,
  });
  expect(await ledgerRowsOfRun(w, run.runId, 'refund')).toHaveLength(0);
}

describe('output_data limits: 64 KB and 20 levels', () => {
  it('answers 413 to one byte over 64 KB (JSON, multipart, progress), leaves the run running, then takes exactly 64 KB', async () => {
    const run = await openRun(w);
    const base = { execution_id: run.runId, secret_token: run.token };
    expect(JSON.stringify(sized(64 * 1024 + 1)).length).toBe(65_537);
    for (const status of ['completed', 'failed', 'running']) {
      const res = await postResult(w, { ...base, status, output_data: { ...sized(64 * 1024 + 1) } });
      expect(res.status, status).toBe(413);
      const body = (await res.json()) as { code: string; error: string };
      expect(body.code).toBe('PAYLOAD_TOO_LARGE');
      expect(body.error).toMatch(/output_data takes 65537 bytes as JSON; at most 65536/);
    }
    const part = await postMultipart(w, {
      ...base,
      status: 'completed',
      output_data: JSON.stringify(sized(64 * 1024 + 1)),
    });
    expect(part.status).toBe(413);
    await unchanged(run);

    const fits = await postResult(w, { ...base, status: 'completed', output_data: sized(64 * 1024) });
    expect(fits.status).toBe(200);
    expect((await run.completion).json()).toMatchObject({
      status: 'completed',
      outputData: sized(64 * 1024),
    });
  });

  it('answers 400 to 21 levels and to 100,000 (JSON and multipart), never 500, leaves the run running, then takes 20', async () => {
    const run = await openRun(w);
    const base = { execution_id: run.runId, secret_token: run.token };
    const head = `{"execution_id":"${run.runId}","secret_token":"${run.token}","status":"completed","output_data":`;
    const attempts = [
      () => postResult(w, { ...base, status: 'completed', output_data: nested(21) }),
      () => postResult(w, { ...base, status: 'failed', output_data: nested(21) }),
      () => postRaw(`${head}${nestedText(21)}}`),
      () => postRaw(`${head}${nestedText(100_000)}}`),
      () => postRaw(`{"status":"completed","output_data":${nestedText(100_000)}}`), // not even authenticated
      () => postMultipart(w, { ...base, status: 'completed', output_data: nestedText(100_000) }),
      () => postMultipart(w, { ...base, status: 'completed', output_data: JSON.stringify(nested(21)) }),
    ];
    for (const [i, attempt] of attempts.entries()) {
      const res = await attempt();
      expect(res.status, `attempt ${i}`).toBe(400);
      const body = (await res.json()) as { code: string; error: string };
      expect(body).toMatchObject({
        code: 'VALIDATION_ERROR',
        error: 'output_data is nested deeper than 20 levels',
      });
    }
    // Brackets inside strings are text, not nesting.
    const progress = await postResult(w, {
      ...base,
      status: 'running',
      output_data: { message: `Procesando ${'['.repeat(500)}` },
    });
    expect(progress.status).toBe(200);
    expect(await runRow(w, run.runId)).toMatchObject({ status: 'running', outputData: null });
    expect(await ledgerRowsOfRun(w, run.runId, 'refund')).toHaveLength(0);

    const fits = await postResult(w, { ...base, status: 'completed', output_data: nested(20) });
    expect(fits.status).toBe(200);
    expect((await run.completion).json()).toMatchObject({ status: 'completed', outputData: nested(20) });
  });

  it('fails and refunds a run whose service answers the webhook call itself with a result over the limits, saying why', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const cases: Array<[ServiceAnswer, RegExp]> = [
      [
        { status: 200, body: { status: 'completed', output_data: sized(64 * 1024 + 1) } },
        /larger|65537 bytes/,
      ],
      [
        { status: 200, body: { status: 'completed', output_data: nested(21) } },
        /nested deeper than 20 levels/,
      ],
      [
        { status: 200, rawBody: `{"status":"completed","output_data":${nestedText(100_000)}}` },
        /nested deeper than 64 levels/,
      ],
    ];
    for (const [answer, why] of cases) {
      const runId = await startRun(user.client, wf.id);
      w.service.handle(() => answer);
      const res = await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
      expect(res.statusCode).toBe(200);
      const run = res.json() as { status: string; errorMessage: string; outputData: unknown };
      // The customer reads the plain explanation; the rule that was broken is the admins' detail.
      expect(run).toMatchObject({ status: 'failed', outputData: null, errorCode: 'result_refused' });
      expect(run.errorMessage).toMatch(/^El workflow envió un resultado que no se pudo aceptar/);
      const detail = (await runRow(w, runId)).errorMessage;
      expect(detail).toMatch(/^The workflow's result was refused: /);
      expect(detail).toMatch(why);
      expect(await ledgerRowsOfRun(w, runId, 'refund')).toHaveLength(1);
    }
    expect(await balanceOf(w, user.id)).toBe(5);

    // At the limits the synchronous answer is the result.
    const runId = await startRun(user.client, wf.id);
    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: nested(20) } }));
    const res = await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    expect(res.json()).toMatchObject({ status: 'completed', outputData: nested(20) });
  });
});

describe('malformed bodies', () => {
  it.each([
    ['multipart/form-data', 'garbage'],
    ['multipart/form-data; boundary=xyz', 'garbage'],
    [
      'multipart/form-data; boundary=xyz',
      '--xyz\r\nContent-Disposition: form-data; name="status"\r\n\r\nok\r\n--xyz',
    ],
    ['application/json', 'null'],
    ['application/json', '{bad'],
  ])('%s %j is a 4xx in the error shape, never a 500', async (contentType, payload) => {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/api/workflow-result',
      headers: { 'content-type': contentType },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.any(String) });
  });

  it('answers 415 to other content types', async () => {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/api/workflow-result',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(res.statusCode).toBe(415);
  });
});

describe.each(STORES)('on the %s store', (store) => {
  const w = useRunsWorld({}, store);

  describe('result files', () => {
    const formats: Array<[string, Buffer, string, string]> = [
      ['report.pdf', PDF, 'file', 'application/pdf'],
      ['data.csv', CSV, 'file', 'text/csv; charset=utf-8'],
      ['sheet.xlsx', XLSX, 'file', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['notes.txt', TXT, 'file', 'text/plain; charset=utf-8'],
      ['data.json', JSON_FILE, 'file', 'application/json; charset=utf-8'],
      ['chart.png', PNG, 'image', 'image/png'],
      ['photo.jpg', JPEG, 'image', 'image/jpeg'],
      ['PHOTO.JPEG', JPEG, 'image', 'image/jpeg'],
    ];

    it.each(formats)('accepts %s as base64 and serves it to its owner', async (name, bytes, type, mime) => {
      const run = await openRun(w);
      const res = await postRunResult(w, run, {
        filename: name,
        file_data: bytes.toString('base64'),
        output_data: { message: 'Aquí está' },
      });
      expect(res.status).toBe(200);
      const done = (await run.completion).json();
      expect(done).toMatchObject({
        status: 'completed',
        outputType: type,
        outputFilename: name,
        outputSize: bytes.length,
        outputUrl: null,
        outputData: { message: 'Aquí está' },
      });
      expect(done.resultPath).toMatch(/^[0-9a-f-]{36}\.[a-z]+$/);
      const download = await run.user.client.get(`/result/${run.runId}`);
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(bytes)).toBe(true);
      expect(download.headers['content-type']).toBe(mime);
      expect(download.headers['content-disposition']).toMatch(/^attachment; filename="/);
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(download.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    });

    it('accepts a multipart file part (as n8n sends it) with the fields beside it', async () => {
      const run = await openRun(w);
      const res = await postMultipart(
        w,
        {
          execution_id: run.runId,
          secret_token: run.token,
          status: 'completed',
          output_data: JSON.stringify({ message: 'CSV listo' }),
        },
        { name: 'ventas.csv', bytes: CSV },
      );
      expect(res.status).toBe(200);
      expect((await run.completion).json()).toMatchObject({
        status: 'completed',
        outputType: 'file',
        outputFilename: 'ventas.csv',
        outputSize: CSV.length,
        outputData: { message: 'CSV listo' },
      });
      expect((await run.user.client.get(`/result/${run.runId}`)).rawPayload.equals(CSV)).toBe(true);
    });

    it('refuses a disguised executable and a type outside the allowlist, leaving the run open', async () => {
      const run = await openRun(w);
      const storedBefore = (await w.storedFiles()).sort();
      const attempts = [
        { filename: 'invoice.pdf', file_data: EXE.toString('base64') },
        { filename: 'notes.txt', file_data: EXE.toString('base64') },
        { filename: 'image.pdf', file_data: PNG.toString('base64') },
        { filename: 'tool.exe', file_data: EXE.toString('base64') },
        { filename: 'data.json', file_data: Buffer.from('{not json').toString('base64') },
        { filename: 'sheet.xlsx', file_data: zip({ 'hello.txt': 'hi' }).toString('base64') },
        { filename: 'latin1.csv', file_data: Buffer.from([0x41, 0xe9, 0x0a]).toString('base64') },
      ];
      for (const a of attempts) {
        const res = await postRunResult(w, run, a);
        expect(res.status, a.filename).toBe(400);
        expect(((await res.json()) as { code: string }).code).toBe('VALIDATION_ERROR');
      }
      const multipart = await postMultipart(
        w,
        { execution_id: run.runId, secret_token: run.token, status: 'completed' },
        { name: 'invoice.pdf', bytes: EXE },
      );
      expect(multipart.status).toBe(400);
      expect((await runRow(w, run.runId)).status).toBe('running');
      expect((await w.storedFiles()).sort()).toEqual(storedBefore);
      await finish(w, run);
    });

    it('stores a file named ../../x.png under a generated name inside the data directory', async () => {
      const run = await openRun(w);
      const res = await postRunResult(w, run, { filename: '../../x.png', file_data: PNG.toString('base64') });
      expect(res.status).toBe(200);
      const row = await runRow(w, run.runId);
      expect(row.outputFilename).toBe('x.png');
      expect(row.resultPath).not.toContain('x.png');
      expect(await w.storedFiles()).toContain(row.resultPath);
      await expect(stat(join(w.dataDir, '..', 'x.png'))).rejects.toThrow();
      await expect(stat(join(w.dataDir, 'x.png'))).rejects.toThrow();
      await run.completion;
    });

    it('takes at most 10 MiB: one byte more is 413, bad base64 is 400, nothing changes', async () => {
      const run = await openRun(w);
      const header = Buffer.from('name\n');
      const exact = Buffer.concat([header, Buffer.alloc(10 * MiB - header.length, 0x61)]);
      const tooBig = Buffer.concat([exact, Buffer.from('a')]);
      const big = await postRunResult(w, run, { filename: 'big.csv', file_data: tooBig.toString('base64') });
      expect(big.status).toBe(413);
      expect(((await big.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
      const bigPart = await postMultipart(
        w,
        { execution_id: run.runId, secret_token: run.token, status: 'completed' },
        { name: 'big.csv', bytes: tooBig },
      );
      expect(bigPart.status).toBe(413);
      const badBase64 = await postRunResult(w, run, { filename: 'a.csv', file_data: 'not*base64!' });
      expect(badBase64.status).toBe(400);
      expect((await runRow(w, run.runId)).status).toBe('running');

      const fits = await postRunResult(w, run, { filename: 'big.csv', file_data: exact.toString('base64') });
      expect(fits.status).toBe(200);
      expect((await run.completion).json()).toMatchObject({ status: 'completed', outputSize: 10 * MiB });
    });

    it('accepts a file_url (http/https only) and types videos by extension', async () => {
      const run = await openRun(w);
      const ftp = await postRunResult(w, run, { file_url: 'javascript:alert(1)' });
      expect(ftp.status).toBe(400);
      const res = await postRunResult(w, run, { file_url: 'https://cdn.example.com/videos/demo.mp4' });
      expect(res.status).toBe(200);
      expect((await run.completion).json()).toMatchObject({
        outputType: 'video',
        outputUrl: 'https://cdn.example.com/videos/demo.mp4',
        outputFilename: 'demo.mp4',
        resultPath: null,
      });
    });
  });

  describe('downloads', () => {
    it('serves the file to its owner and admins only, with a header no filename can break', async () => {
      const run = await openRun(w);
      await postRunResult(w, run, {
        filename: 'in"for\r\nSet-Cookie: a=b; me ñ.png',
        file_data: PNG.toString('base64'),
      });
      await run.completion;
      const owner = await run.user.client.get(`/result/${run.runId}`);
      expect(owner.statusCode).toBe(200);
      const disposition = String(owner.headers['content-disposition']);
      expect(disposition).not.toMatch(/[\r\n]/);
      expect(owner.headers['set-cookie']).toBeUndefined();
      expect(disposition).toBe(
        `attachment; filename="in_forSet-Cookie: a=b_ me _.png"; filename*=UTF-8''in%22forSet-Cookie%3A%20a%3Db%3B%20me%20%C3%B1.png`,
      );
      const inline = await run.user.client.get(`/result/${run.runId}?inline=1`);
      expect(inline.headers['content-disposition']).toMatch(/^inline; /);

      expect((await w.admin.get(`/result/${run.runId}`)).statusCode).toBe(200);
      const other = await signUpUser(w.t);
      expect((await other.client.get(`/result/${run.runId}`)).statusCode).toBe(404);
      expect((await w.t.app.inject({ method: 'GET', url: `/result/${run.runId}` })).statusCode).toBe(401);
    });

    it('never serves a non-image inline', async () => {
      const run = await openRun(w);
      await postRunResult(w, run, {
        filename: 'page.txt',
        file_data: Buffer.from('<script>alert(1)</script>').toString('base64'),
      });
      await run.completion;
      const res = await run.user.client.get(`/result/${run.runId}?inline=1`);
      expect(res.headers['content-disposition']).toMatch(/^attachment; /);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    });
  });
});
