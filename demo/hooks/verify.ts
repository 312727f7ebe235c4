import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a webhook-timestamp may be from our clock (Standard Webhooks' recommended five minutes). */
const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export interface SignedRequest {
  id: string | undefined;
  timestamp: string | undefined;
  /** The webhook-signature header: one or more space-separated `v1,<base64>` signatures. */
  signature: string | undefined;
  body: string;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/**
 * The workflow's fixed `X-Flujo-Token` value, derived from its secret as docs/webhook-contract.md tells a
 * workflow service to: the demo works it out itself, like any outside service, instead of asking the app.
 */
export function flujoHeaderToken(secret: string): string {
  return createHmac('sha256', keyOf(secret)).update('flujo-header-token').digest('base64url');
}

/**
 * Verifies a Standard Webhooks signature the way a workflow service should: HMAC-SHA256 over
 * `<id>.<timestamp>.<raw body>` with the base64-decoded secret, compared in constant time, against every
 * signature in the header (several during a secret rotation), with a timestamp no more than five minutes
 * off to stop replays.
 */
export function verifyWebhookSignature(secrets: string[], request: SignedRequest, now: Date): boolean {
  const { id, timestamp, signature, body } = request;
  if (!id || !timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const offered = signature
    .split(' ')
    .map((part) => part.split(','))
    .filter(([version, value]) => version === 'v1' && value)
    .map(([, value]) => Buffer.from(value ?? '', 'base64'));
  return secrets.some((secret) => {
    const expected = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest();
    return offered.some(
      (candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected),
    );
  });
}
