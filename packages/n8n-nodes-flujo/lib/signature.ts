import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a call's `webhook-timestamp` may be from this machine's clock (Flujo's contract: 5 minutes). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string => {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

/**
 * Whether a Flujo call carries a valid Standard Webhooks signature of one of `secrets` (the current one, and
 * the previous one during a rotation) over its raw body, signed within the tolerance of `nowSeconds`. Constant
 * time per comparison; any of the space-separated `v1,` signatures may match.
 */
export function verifyFlujoSignature(
  secrets: string[],
  headers: Headers,
  rawBody: Buffer | string,
  nowSeconds: number,
): boolean {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature').split(' ');
  if (!id || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) return false;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : rawBody;
  return secrets.some((secret) => {
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    if (key.length === 0) return false;
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
    return signatures.some((s) => {
      const [version, value] = s.split(',');
      const given = Buffer.from(value ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
  });
}
