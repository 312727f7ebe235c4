import { addressProperty, MANAGEMENT_API } from '../lib/api';
import type { NodeProperty } from '../lib/n8n-types';

/**
 * "Flujo OAuth2 API": only the Flujo address. On "Connect my account" n8n reads Flujo's authorization server
 * metadata, registers itself as a client (dynamic client registration), and sends the builder to Flujo's
 * consent page, where an administrator approves it; n8n then keeps and refreshes the token itself. Nothing is
 * copied: no key, no client id. The token is bound to Flujo's management API (the `resource` of the request),
 * which only an administrator can grant (decision 181).
 */
export class FlujoOAuth2Api {
  name = 'flujoOAuth2Api';
  extends = ['oAuth2Api'];
  displayName = 'Flujo OAuth2 API';
  documentationUrl = 'https://github.com/flujo-app/flujo/blob/main/docs/builders.md';
  properties: NodeProperty[] = [
    {
      displayName: 'Use Dynamic Client Registration',
      name: 'useDynamicClientRegistration',
      type: 'hidden',
      default: true,
    },
    addressProperty('serverUrl'),
    {
      displayName: 'Auth URI Query Parameters',
      name: 'authQueryParameters',
      type: 'hidden',
      default: `={{ "resource=" + encodeURIComponent($self["serverUrl"].trim().replace(/\\/+$/, "") + "${MANAGEMENT_API}") }}`,
    },
  ];
}
