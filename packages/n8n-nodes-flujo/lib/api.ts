import type { CredentialContext, HttpRequestOptions, JsonObject } from './n8n-types';

export const CREDENTIAL = 'flujoApi';

/** The Flujo address from the credential, without a trailing slash. */
export function baseUrlOf(credentials: JsonObject): string {
  return String(credentials.baseUrl ?? '')
    .trim()
    .replace(/\/+$/, '');
}

/** A call to Flujo's management API (/api/v1/admin/...) or public API with the credential's admin key. */
export async function flujoApi<T>(
  ctx: CredentialContext,
  method: NonNullable<HttpRequestOptions['method']>,
  path: string,
  options: { body?: unknown; qs?: HttpRequestOptions['qs'] } = {},
): Promise<T> {
  const credentials = await ctx.getCredentials(CREDENTIAL);
  return (await ctx.helpers.httpRequest({
    method,
    url: `${baseUrlOf(credentials)}${path}`,
    headers: { authorization: `Bearer ${String(credentials.apiKey ?? '')}` },
    json: true,
    ...(options.body === undefined ? {} : { body: options.body }),
    ...(options.qs ? { qs: options.qs } : {}),
  })) as T;
}
