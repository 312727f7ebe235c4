import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  BinaryData,
  ExecuteFunctions,
  HttpRequestOptions,
  JsonObject,
  NodeExecutionData,
  WebhookFunctions,
} from '../lib/n8n-types';

/**
 * n8n's side of a node call, for the unit tests: the helpers do real HTTP (fetch) with n8n's options
 * (`json`, `qs`, `encoding`, `returnFullResponse`, `ignoreHttpStatusErrors`), and binary data is kept the way
 * n8n's in-memory mode keeps it (base64). The end-to-end test runs the same nodes in a real n8n.
 */
export async function httpRequest(options: HttpRequestOptions): Promise<unknown> {
  const url = new URL(options.url);
  for (const [k, v] of Object.entries(options.qs ?? {})) url.searchParams.set(k, String(v));
  const json = options.json === true && options.body !== undefined;
  const res = await fetch(url, {
    method: options.method ?? 'GET',
    headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...options.headers },
    ...(options.body !== undefined
      ? { body: json ? JSON.stringify(options.body) : String(options.body) }
      : {}),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const body =
    options.encoding === 'arraybuffer'
      ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
      : res.headers.get('content-type')?.includes('json')
        ? (JSON.parse(bytes.toString()) as unknown)
        : bytes.toString();
  if (res.status >= 400 && !options.ignoreHttpStatusErrors) {
    throw Object.assign(new Error(`Request failed with status ${res.status}`), {
      httpCode: String(res.status),
    });
  }
  return options.returnFullResponse
    ? { statusCode: res.status, body, headers: Object.fromEntries(res.headers) }
    : body;
}

/**
 * n8n's request helper for an OAuth2 credential type: the credential's access token as a Bearer header (n8n
 * also refreshes it on a 401; Flujo's side of that is tested against the real server and a real n8n).
 */
async function httpRequestWithAuthentication(
  this: { getCredentials(type: string): Promise<JsonObject> },
  credentialsType: string,
  options: HttpRequestOptions,
): Promise<unknown> {
  const { oauthTokenData } = await this.getCredentials(credentialsType);
  const token = (oauthTokenData as { access_token?: string } | undefined)?.access_token ?? '';
  return httpRequest({ ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } });
}

async function prepareBinaryData(data: Buffer, fileName?: string, mimeType?: string): Promise<BinaryData> {
  return {
    data: data.toString('base64'),
    mimeType: mimeType ?? 'application/octet-stream',
    ...(fileName ? { fileName } : {}),
    fileSize: String(data.length),
  };
}

export function executeContext(
  items: NodeExecutionData[],
  params: Record<string, unknown>,
  options: { continueOnFail?: boolean; credentials?: JsonObject } = {},
): ExecuteFunctions {
  return {
    getInputData: () => items,
    getCredentials: async () => options.credentials ?? {},
    getNodeParameter: (name, _item, fallback) => (name in params ? params[name] : fallback),
    continueOnFail: () => options.continueOnFail ?? false,
    helpers: {
      httpRequest,
      httpRequestWithAuthentication,
      prepareBinaryData,
      assertBinaryData: (item, property) => {
        const data = items[item]?.binary?.[property];
        if (!data) throw new Error(`This item has no binary field '${property}'`);
        return data;
      },
      getBinaryDataBuffer: async (item, property) =>
        Buffer.from(items[item]!.binary![property]!.data, 'base64'),
    },
  };
}

export interface WebhookCall {
  context: WebhookFunctions;
  /** The refusal the node wrote itself, if it did. */
  refusal: () => { status: number; body: unknown } | undefined;
}

export function webhookContext(
  request: { body: unknown; rawBody: Buffer; headers: Record<string, string> },
  staticData: JsonObject,
  credentials: JsonObject = {},
  params: Record<string, unknown> = {},
): WebhookCall {
  let refusal: { status: number; body: unknown } | undefined;
  return {
    refusal: () => refusal,
    context: {
      getRequestObject: () => request,
      getResponseObject: () => ({
        status: (status: number) => ({
          json: (body: unknown) => {
            refusal = { status, body };
          },
        }),
      }),
      getWorkflowStaticData: () => staticData,
      getNodeParameter: (name, fallback) => (name in params ? params[name] : fallback),
      getCredentials: async () => credentials,
      helpers: { httpRequest, httpRequestWithAuthentication, prepareBinaryData },
    },
  };
}

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback HTTP server that records each request and answers with `answer`'s status and JSON body. */
export async function recordingServer(
  answer: (req: Recorded) => { status: number; body: unknown; type?: string },
): Promise<{ url: string; requests: Recorded[]; close: () => Promise<void> }> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      requests.push(recorded);
      const { status, body, type } = answer(recorded);
      res.writeHead(status, { 'content-type': type ?? 'application/json' });
      res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
