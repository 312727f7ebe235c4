import type { CredentialContext, HttpRequestOptions, JsonObject, NodeProperty } from './n8n-types';

/** The management API's path under the Flujo address: the resource an OAuth2 credential's tokens are for. */
export const MANAGEMENT_API = '/api/v1/admin';

/**
 * The two ways a node signs in to Flujo, chosen by its "Authentication" parameter: n8n's OAuth2 connection
 * (nothing copied; the default) or an admin API key pasted from Flujo's account page.
 */
export const CREDENTIALS = { oAuth2: 'flujoOAuth2Api', apiKey: 'flujoApi' } as const;
export type Authentication = keyof typeof CREDENTIALS;

/** The node property that chooses between them. */
export const AUTHENTICATION_PROPERTY: NodeProperty = {
  displayName: 'Authentication',
  name: 'authentication',
  type: 'options',
  noDataExpression: true,
  default: 'oAuth2',
  options: [
    {
      name: 'Connect to Flujo (OAuth2)',
      value: 'oAuth2',
      description: 'Approve n8n once on Flujo; nothing to copy',
    },
    { name: 'Admin API Key', value: 'apiKey', description: "A key made on Flujo's account page" },
  ],
};

/**
 * The Flujo address, as both credentials ask for it: `baseUrl` in the key's, `serverUrl` in the OAuth2 one (the
 * name n8n's dynamic client registration reads).
 */
export function addressProperty(name: 'baseUrl' | 'serverUrl'): NodeProperty {
  return {
    displayName: 'Flujo Address',
    name,
    type: 'string',
    default: '',
    placeholder: 'https://flujo.example.com',
    description: 'The address people open Flujo at',
    required: true,
  };
}

/** The nodes' credential list: one of the two, as "Authentication" chooses (and `show` further limits). */
export function credentialsFor(show: Record<string, unknown[]> = {}) {
  return (Object.keys(CREDENTIALS) as Authentication[]).map((authentication) => ({
    name: CREDENTIALS[authentication],
    required: true,
    displayOptions: { show: { ...show, authentication: [authentication] } },
  }));
}

/** The Flujo address from either credential (the key's `baseUrl`, OAuth2's `serverUrl`), without a trailing slash. */
export function baseUrlOf(credentials: JsonObject): string {
  return String(credentials.baseUrl ?? credentials.serverUrl ?? '')
    .trim()
    .replace(/\/+$/, '');
}

/**
 * A call to Flujo's management API (/api/v1/admin/...) or public API, as the node's credential signs in: with
 * the admin key in the header, or through n8n's OAuth2 request helper, which adds the token and refreshes it
 * when Flujo answers 401.
 */
export async function flujoApi<T>(
  ctx: CredentialContext,
  method: NonNullable<HttpRequestOptions['method']>,
  path: string,
  options: { body?: unknown; qs?: HttpRequestOptions['qs'] } = {},
): Promise<T> {
  // The parameter has a default, so the second argument (an item index for an action, a fallback for a
  // trigger's hooks and webhook) never decides the answer.
  const authentication: Authentication =
    ctx.getNodeParameter('authentication', 0) === 'apiKey' ? 'apiKey' : 'oAuth2';
  const credentials = await ctx.getCredentials(CREDENTIALS[authentication]);
  const request: HttpRequestOptions = {
    method,
    url: `${baseUrlOf(credentials)}${path}`,
    json: true,
    ...(options.body === undefined ? {} : { body: options.body }),
    ...(options.qs ? { qs: options.qs } : {}),
  };
  if (authentication === 'oAuth2') {
    return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIALS.oAuth2, request)) as T;
  }
  return (await ctx.helpers.httpRequest({
    ...request,
    headers: { authorization: `Bearer ${String(credentials.apiKey ?? '')}` },
  })) as T;
}
