import type { TDemoResult } from './contract.js';

export interface CallbackTarget {
  url: string;
  executionId: string;
  secretToken: string;
}

const CALLBACK_TIMEOUT_MS = 10_000;

async function send(url: string, init: RequestInit): Promise<void> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`callback answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
}

/** Posts a result (or a progress message) to the run's callback_url as JSON, file in base64 if any. */
export async function postJsonResult(target: CallbackTarget, result: TDemoResult): Promise<void> {
  await send(target.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ execution_id: target.executionId, secret_token: target.secretToken, ...result }),
  });
}

/** Posts a result with its file as a multipart part named `file`, as n8n's HTTP Request node does. */
export async function postMultipartResult(
  target: CallbackTarget,
  result: Omit<TDemoResult, 'file_data'>,
  file: { bytes: Buffer; filename: string; contentType: string },
): Promise<void> {
  const form = new FormData();
  form.set('execution_id', target.executionId);
  form.set('secret_token', target.secretToken);
  form.set('status', result.status);
  if (result.output_type) form.set('output_type', result.output_type);
  form.set('filename', file.filename);
  if (result.output_data) form.set('output_data', JSON.stringify(result.output_data));
  form.set('file', new Blob([file.bytes], { type: file.contentType }), file.filename);
  await send(target.url, { method: 'POST', body: form });
}
