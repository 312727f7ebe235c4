import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A URL-safe random token with `bytes` of entropy (default 256 bits). */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time comparison of a presented token against a stored SHA-256 hash. */
export function tokenMatchesHash(token: string, hashHex: string): boolean {
  const presented = createHash('sha256').update(token).digest();
  const stored = Buffer.from(hashHex, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}
