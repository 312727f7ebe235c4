import { addressProperty } from '../lib/api';
import type { NodeProperty } from '../lib/n8n-types';

/**
 * "Flujo API": the Flujo address and an admin API key (account page → API keys → admin key). n8n adds the key
 * to the nodes' calls, and its "Test" button asks the management API for one workflow.
 */
export class FlujoApi {
  name = 'flujoApi';
  displayName = 'Flujo API';
  documentationUrl = 'https://github.com/flujo-app/flujo/blob/main/docs/builders.md';
  properties: NodeProperty[] = [
    addressProperty('baseUrl'),
    {
      displayName: 'Admin API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      placeholder: 'flj_...',
      description: "An API key with the admin scope, made on Flujo's account page by an administrator",
      required: true,
    },
  ];
  authenticate = {
    type: 'generic',
    properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
  } as const;
  test = {
    request: {
      baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
      url: '/api/v1/admin/workflows',
      qs: { limit: 1 },
    },
  };
}
