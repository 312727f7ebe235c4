import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  addWorkflow,
  answerCall,
  completeAsync,
  signUpUser,
  startRun,
  useRunsWorld,
} from './testing/fixtures.js';

const w = useRunsWorld();

/** A GET over real HTTP that keeps the bytes as sent (fetch would decompress them). */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${w.baseUrl}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A finished run whose result carries a long message and, when given, a file. */
async function finishedRun(file?: { name: string; bytes: Buffer }) {
  const wf = await addWorkflow(w);
  const user = await signUpUser(w.t);
  const runId = await startRun(user.client, wf.id);
  const { call, completion } = await completeAsync(w, user.client, runId);
  const message = 'Resultado largo del flujo. '.repeat(200);
  await answerCall(w, call, {
    output_data: { message },
    ...(file ? { filename: file.name, file_data: file.bytes.toString('base64') } : {}),
  });
  await completion;
  return { user, runId, message };
}

const ACCEPT = 'gzip, deflate, br, zstd';

describe('compression and streams', () => {
  it('never compresses the run events stream, even when its events are large', async () => {
    const run = await finishedRun();
    const res = await rawGet(`/api/executions/${run.runId}/events`, {
      cookie: run.user.client.cookie!,
      'accept-encoding': ACCEPT,
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['content-encoding']).toBeUndefined();
    const text = res.body.toString();
    expect(text).toMatch(/^event: execution\nid: [\w-]{22}\ndata: /);
    expect(text).toContain(run.message);
  });

  it('compresses the run detail (JSON over 1 kB) for a client that accepts it', async () => {
    const run = await finishedRun();
    const res = await rawGet(`/api/executions/${run.runId}`, {
      cookie: run.user.client.cookie!,
      'accept-encoding': ACCEPT,
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    const detail = JSON.parse(brotliDecompressSync(res.body).toString()) as {
      outputData: { message: string };
    };
    expect(detail.outputData.message).toBe(run.message);
  });

  it('keeps the headers of a downloaded result file, and its bytes', async () => {
    const bytes = Buffer.from(
      JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i, name: `fila ${i}` })) }),
    );
    const run = await finishedRun({ name: 'datos.json', bytes });
    const res = await rawGet(`/result/${run.runId}`, {
      cookie: run.user.client.cookie!,
      'accept-encoding': ACCEPT,
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="/);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // A file is streamed from the store as it is stored, so its byte ranges (a resumed download) name its
    // own bytes: never compressed, even when it is JSON and the client accepts brotli.
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.body.equals(bytes)).toBe(true);
  });
});
