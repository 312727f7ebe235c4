import type { JsonObject } from './n8n-types';

/** What the Flujo node sends back for a run (docs/webhook-contract.md, section 2). */
export type ResultInput =
  | { kind: 'text'; message: string }
  | { kind: 'markdown'; message: string }
  | { kind: 'file'; message: string; filename: string; data: Buffer }
  | { kind: 'failure'; message: string }
  | { kind: 'progress'; message: string };

/** Flujo's largest result file (10 MB, unless an admin lowered it: Flujo answers 413 then). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * Flujo shows a text result as Markdown (keeping its line breaks): a plain text has the characters that
 * Markdown would read as formatting escaped, so `*` or `_` in it show as typed.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>#|~])/g, '\\$1');
}

/** The callback's JSON body for `run` (its id and per-run token, from Flujo's call). */
export function callbackBody(
  run: { executionId: string; secretToken: string },
  input: ResultInput,
): JsonObject {
  const base = { execution_id: run.executionId, secret_token: run.secretToken };
  switch (input.kind) {
    case 'text':
    case 'markdown':
      return {
        ...base,
        status: 'completed',
        output_type: 'text',
        output_data: { message: input.kind === 'text' ? escapeMarkdown(input.message) : input.message },
      };
    case 'file':
      if (input.data.length > MAX_FILE_BYTES) {
        throw new Error(`The file is ${input.data.length} bytes; Flujo takes at most ${MAX_FILE_BYTES}`);
      }
      return {
        ...base,
        status: 'completed',
        output_type: 'file',
        filename: input.filename,
        file_data: input.data.toString('base64'),
        ...(input.message ? { output_data: { message: input.message } } : {}),
      };
    case 'failure':
      return { ...base, status: 'failed', error_message: input.message };
    case 'progress':
      return { ...base, status: 'running', output_data: { message: input.message } };
  }
}
