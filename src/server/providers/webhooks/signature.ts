import { createHmac } from 'node:crypto';

/** The key bytes of a Standard Webhooks secret (`whsec_` + base64). */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/** One `v1,<base64 HMAC-SHA256>` signature of `id.timestamp.body`, per the Standard Webhooks spec. */
function signPayload(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest();
  return `v1,${mac.toString('base64')}`;
}

/**
 * The three Standard Webhooks headers. During a secret rotation both signatures are sent
 * (space-separated), so a receiver that still holds the old secret keeps verifying.
 */
export function webhookHeaders(
  secrets: string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signPayload(s, id, timestampSeconds, body)).join(' '),
  };
}
