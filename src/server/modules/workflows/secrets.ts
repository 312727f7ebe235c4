import { createHmac, randomBytes } from 'node:crypto';
import { secretKey } from '#server/providers/webhooks/signature.js';

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Fixed label mixed into the header token, so it can never equal a signature or the key itself. */
const HEADER_TOKEN_LABEL = 'flujo-header-token';

/**
 * The workflow's fixed `X-Flujo-Token` header value: base64url(HMAC-SHA256(signing key, label)). It is
 * fixed per secret (n8n's Header Auth compares a header with one stored value, so a per-run token could
 * never match), reveals nothing about the signing key, and changes when the secret is rotated.
 */
export function headerTokenFor(secret: string): string {
  return createHmac('sha256', secretKey(secret)).update(HEADER_TOKEN_LABEL).digest('base64url');
}
