import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { AddressRefused, resolveWebhookTarget } from './address-guard.js';

export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 10_000;
/** A synchronous answer may carry a result file (base64), so it may be as large as a result callback. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export type DeliveryOutcome =
  | { kind: 'answered'; status: number; body: string; contentType: string }
  | { kind: 'network-error'; message: string }
  | { kind: 'refused'; message: string };

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivate: boolean;
  /** The app's own demo services, allowed even when private addresses are not (address-guard.ts). */
  selfPrefixes?: readonly string[];
  timeoutMs?: number;
  /** The most of the answer's body read; the rest is not waited for (the status still counts). */
  maxAnswerBytes?: number;
  /** Name resolution; the system resolver unless a test supplies one. */
  resolve?: Parameters<typeof resolveWebhookTarget>[2];
}

/**
 * One POST attempt. Redirects are never followed (a 3xx is just an answer); the connection goes to the
 * address the guard checked, whatever DNS would say a moment later.
 */
export async function postWebhook(request: WebhookRequest): Promise<DeliveryOutcome> {
  let target;
  try {
    target = await resolveWebhookTarget(
      request.url,
      { allowPrivate: request.allowPrivate, selfPrefixes: request.selfPrefixes },
      request.resolve,
    );
  } catch (err) {
    if (err instanceof AddressRefused) return { kind: 'refused', message: err.message };
    return { kind: 'network-error', message: err instanceof Error ? err.message : 'address lookup failed' };
  }
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const transport = target.url.protocol === 'https:' ? https : http;
  const timeoutMs = request.timeoutMs ?? WEBHOOK_ATTEMPT_TIMEOUT_MS;
  const maxAnswerBytes = request.maxAnswerBytes ?? MAX_ANSWER_BYTES;

  return new Promise<DeliveryOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: DeliveryOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = transport.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          'user-agent': 'Flujo-Webhooks/1.0',
          ...request.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxAnswerBytes) {
            req.destroy();
            finish({ kind: 'answered', status: res.statusCode ?? 0, body: '', contentType: '' });
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () =>
          finish({
            kind: 'answered',
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            contentType: String(res.headers['content-type'] ?? ''),
          }),
        );
        res.on('error', (err) => finish({ kind: 'network-error', message: err.message }));
      },
    );
    // One deadline for the whole attempt: connecting, sending and reading the answer.
    const timer = setTimeout(() => {
      req.destroy();
      finish({ kind: 'network-error', message: `no answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    req.on('error', (err) => finish({ kind: 'network-error', message: err.message }));
    req.end(request.body);
  });
}
